package io.sharestream.common.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;

/**
 * Signs Google Cloud Storage requests with an OAuth 2.0 access token, for the JSON API: objects by
 * {@code GET /storage/v1/b/<bucket>/o/<object>?alt=media}, listings by objects.list. The token goes in an
 * {@code Authorization: Bearer} header ({@link SignedRequest#headers()}), the one way the JSON API's current
 * reference documents; it is kept out of the URL, which logs and messages may show.
 */
public final class GcsSigner implements StorageSigner {
  /** Where the JSON API is served unless {@link StorageSettings#gcsEndpoint()} says otherwise. */
  public static final String DEFAULT_ENDPOINT = "https://storage.googleapis.com";
  /** The fields a listing asks for (a partial response): what {@link GcsListingParser} reads. */
  static final String LIST_FIELDS = "nextPageToken,items(name,size,updated)";

  private final StorageCredentials credentials;
  private final StorageSettings settings;

  /** A signer with GCP OAuth {@code credentials}, reaching GCS as {@code settings} say. */
  public GcsSigner(StorageCredentials credentials, StorageSettings settings) {
    if (credentials.kind() != StorageCredentials.Kind.GCP_OAUTH) {
      throw new IllegalArgumentException("GCS requests are signed with an OAuth token, not " + credentials.kind());
    }
    this.credentials = credentials;
    this.settings = settings;
  }

  @Override
  public StorageLocation.Store store() {
    return StorageLocation.Store.GCS;
  }

  @Override
  public SignedRequest presignGet(StorageLocation object, Instant now, Duration validity) {
    Signing.check(object, StorageLocation.Store.GCS, true);
    Signing.checkValidity(validity);
    Instant expiry = Signing.expiry(credentials, now, validity, null);
    return new SignedRequest(objects(object) + "/" + UriCodec.encode(object.key(), false) + "?alt=media",
        Collections.singletonMap("Authorization", "Bearer " + credentials.oauthToken()), expiry);
  }

  /** objects.list: {@code prefix}, {@code startOffset} (inclusive), {@code pageToken}, and the fields read. */
  @Override
  public SignedRequest presignList(StorageLocation prefix, String startAfter, String pageToken, Instant now) {
    Signing.check(prefix, StorageLocation.Store.GCS, false);
    Instant expiry = Signing.expiry(credentials, now, LIST_VALIDITY, null);
    StringBuilder q = new StringBuilder();
    if (!prefix.key().isEmpty()) {
      Signing.param(q, "prefix", prefix.key());
    }
    if (startAfter != null && !startAfter.isEmpty()) {
      Signing.param(q, "startOffset", startAfter);
    }
    if (pageToken != null && !pageToken.isEmpty()) {
      Signing.param(q, "pageToken", pageToken);
    }
    Signing.param(q, "fields", LIST_FIELDS);
    return new SignedRequest(objects(prefix) + "?" + q,
        Collections.singletonMap("Authorization", "Bearer " + credentials.oauthToken()), expiry);
  }

  @Override
  public ObjectListingPage parseList(InputStream body) throws IOException {
    return GcsListingParser.parse(body);
  }

  private String objects(StorageLocation location) {
    String endpoint = settings.gcsEndpoint() == null ? DEFAULT_ENDPOINT : settings.gcsEndpoint();
    return endpoint + "/storage/v1/b/" + UriCodec.encode(location.bucket(), false) + "/o";
  }

  @Override
  public String toString() {
    return "GcsSigner{" + credentials + ", " + settings + "}";
  }
}
