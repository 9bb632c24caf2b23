package io.sharestream.common.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Collections;

/**
 * Signs Azure Blob Storage requests with a SAS token: the blob's URL on the Blob service endpoint with the token as
 * its query ({@code https://<account>.blob.core.windows.net/<container>/<blob>?<sas>}), and List Blobs
 * ({@code restype=container&comp=list}) for listings. A location on the Data Lake ({@code dfs}) endpoint is read
 * through the account's Blob endpoint, which serves the same blobs.
 */
public final class AzureSasSigner implements StorageSigner {
  private final StorageCredentials credentials;
  private final StorageSettings settings;
  /** The token's own expiry ({@code se=}), when it says one this parser reads. */
  private final Instant sasExpiry;

  /** A signer with Azure SAS {@code credentials}, reaching Azure as {@code settings} say. */
  public AzureSasSigner(StorageCredentials credentials, StorageSettings settings) {
    if (credentials.kind() != StorageCredentials.Kind.AZURE_SAS) {
      throw new IllegalArgumentException("Azure requests are signed with a SAS token, not " + credentials.kind());
    }
    this.credentials = credentials;
    this.settings = settings;
    this.sasExpiry = signedExpiry(credentials.sasToken());
  }

  @Override
  public StorageLocation.Store store() {
    return StorageLocation.Store.AZURE;
  }

  @Override
  public SignedRequest presignGet(StorageLocation object, Instant now, Duration validity) {
    Signing.check(object, StorageLocation.Store.AZURE, true);
    Signing.checkValidity(validity);
    Instant expiry = Signing.expiry(credentials, now, validity, sasExpiry);
    return new SignedRequest(container(object) + "/" + UriCodec.encode(object.key(), true) + "?"
        + credentials.sasToken(), Collections.<String, String>emptyMap(), expiry);
  }

  /**
   * List Blobs: {@code restype=container&comp=list}, {@code prefix}, {@code marker}. Azure has no start-after:
   * {@code startAfter} is not sent.
   */
  @Override
  public SignedRequest presignList(StorageLocation prefix, String startAfter, String pageToken, Instant now) {
    Signing.check(prefix, StorageLocation.Store.AZURE, false);
    Instant expiry = Signing.expiry(credentials, now, LIST_VALIDITY, sasExpiry);
    StringBuilder q = new StringBuilder("restype=container&comp=list");
    if (!prefix.key().isEmpty()) {
      Signing.param(q, "prefix", prefix.key());
    }
    if (pageToken != null && !pageToken.isEmpty()) {
      Signing.param(q, "marker", pageToken);
    }
    return new SignedRequest(container(prefix) + "?" + q + "&" + credentials.sasToken(),
        Collections.<String, String>emptyMap(), expiry);
  }

  @Override
  public ObjectListingPage parseList(InputStream body) throws IOException {
    return AzureListingParser.parse(body);
  }

  /** The container's URL: on the configured endpoint, else on the account's Blob service host. */
  private String container(StorageLocation location) {
    String endpoint = settings.azureEndpoint();
    String base = endpoint == null ? "https://" + location.blobHost()
        : endpoint.replace("{account}", location.account());
    return base + "/" + UriCodec.encode(location.bucket(), false);
  }

  /** The {@code se} (signed expiry) of a SAS token: {@code YYYY-MM-DD}, with {@code Thh:mmZ} or {@code Thh:mm:ssZ}. */
  static Instant signedExpiry(String sas) {
    for (String p : sas.split("&")) {
      if (!p.startsWith("se=")) {
        continue;
      }
      String v;
      try {
        v = UriCodec.decode(p.substring(3), "the SAS token's se");
      } catch (RuntimeException malformed) {
        return null;
      }
      try {
        if (v.length() == 10) {
          return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
        }
        return Instant.parse(v.length() == 17 && v.endsWith("Z") ? v.substring(0, 16) + ":00Z" : v);
      } catch (DateTimeParseException unknownForm) {
        return null; // the credentials' expirationTime still bounds it
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "AzureSasSigner{" + credentials + ", " + settings + "}";
  }
}
