package io.sharestream.common.storage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Pre-signs S3 requests with AWS Signature Version 4 in the query string ({@code X-Amz-*} parameters, the session
 * token as {@code X-Amz-Security-Token}, {@code host} the only signed header, {@code UNSIGNED-PAYLOAD}): objects by
 * GET, listings by ListObjectsV2. URLs are virtual-hosted ({@code https://<bucket>.s3.<region>.amazonaws.com/<key>})
 * unless {@link StorageSettings} asks for path style or another endpoint.
 */
public final class S3Signer implements StorageSigner {
  /** The longest a SigV4 pre-signed URL may be valid. */
  public static final Duration MAX_VALIDITY = Duration.ofDays(7);
  private static final String ALGORITHM = "AWS4-HMAC-SHA256";
  private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);

  private final StorageCredentials credentials;
  private final StorageSettings settings;
  /** The signing key of the last date signed for ({@code date} then the key), derived once a day. */
  private volatile Object[] signingKey;

  /** A signer with AWS {@code credentials}, reaching S3 as {@code settings} say. */
  public S3Signer(StorageCredentials credentials, StorageSettings settings) {
    if (credentials.kind() != StorageCredentials.Kind.AWS) {
      throw new IllegalArgumentException("S3 requests are signed with AWS credentials, not " + credentials.kind());
    }
    this.credentials = credentials;
    this.settings = settings;
  }

  @Override
  public StorageLocation.Store store() {
    return StorageLocation.Store.S3;
  }

  @Override
  public SignedRequest presignGet(StorageLocation object, Instant now, Duration validity) {
    Signing.check(object, StorageLocation.Store.S3, true);
    return presign(object.bucket(), object.key(), Collections.<String[]>emptyList(), now, validity);
  }

  /** ListObjectsV2: {@code list-type=2}, {@code prefix}, {@code start-after}, {@code continuation-token}. */
  @Override
  public SignedRequest presignList(StorageLocation prefix, String startAfter, String pageToken, Instant now) {
    Signing.check(prefix, StorageLocation.Store.S3, false);
    List<String[]> params = new ArrayList<>();
    params.add(new String[] {"list-type", "2"});
    if (!prefix.key().isEmpty()) {
      params.add(new String[] {"prefix", prefix.key()});
    }
    if (startAfter != null && !startAfter.isEmpty()) {
      params.add(new String[] {"start-after", startAfter});
    }
    if (pageToken != null && !pageToken.isEmpty()) {
      params.add(new String[] {"continuation-token", pageToken});
    }
    return presign(prefix.bucket(), null, params, now, LIST_VALIDITY);
  }

  @Override
  public ObjectListingPage parseList(InputStream body) throws IOException {
    return S3ListingParser.parse(body);
  }

  /**
   * A GET of {@code key} in {@code bucket} (null: the bucket itself) with the query {@code params}, signed at
   * {@code now} (to the second) for {@code validity} at most.
   */
  SignedRequest presign(String bucket, String key, List<String[]> params, Instant now, Duration validity) {
    Signing.checkValidity(validity);
    if (!credentials.expiresAt().isAfter(now)) {
      throw Signing.expired(credentials);
    }
    Instant signedAt = now.truncatedTo(ChronoUnit.SECONDS);
    long seconds = Math.min(Math.min(validity.getSeconds(), MAX_VALIDITY.getSeconds()),
        (credentials.expiresAt().toEpochMilli() - signedAt.toEpochMilli()) / 1000);
    if (seconds < 1) {
      throw Signing.expired(credentials);
    }
    String region = settings.s3Region();
    String endpoint = settings.s3Endpoint();
    boolean pathStyle = settings.s3PathStyle();
    String scheme = "https";
    String authority;
    String basePath = "";
    if (endpoint == null) {
      authority = "s3." + region + (region.startsWith("cn-") ? ".amazonaws.com.cn" : ".amazonaws.com");
      pathStyle |= bucket.indexOf('.') >= 0; // a dotted bucket is no host name the *.s3 certificate covers
    } else {
      int sep = endpoint.indexOf("://");
      scheme = endpoint.substring(0, sep);
      int slash = endpoint.indexOf('/', sep + 3);
      authority = slash < 0 ? endpoint.substring(sep + 3) : endpoint.substring(sep + 3, slash);
      basePath = slash < 0 ? "" : endpoint.substring(slash);
    }
    String host = pathStyle ? authority : bucket + "." + authority;
    String path = basePath + (pathStyle ? "/" + UriCodec.encode(bucket, false) : "") + "/"
        + (key == null ? "" : UriCodec.encode(key, true));

    String amzDate = AMZ_DATE.format(signedAt);
    String date = amzDate.substring(0, 8);
    String scope = date + "/" + region + "/s3/aws4_request";
    List<String[]> all = new ArrayList<>(params);
    all.add(new String[] {"X-Amz-Algorithm", ALGORITHM});
    all.add(new String[] {"X-Amz-Credential", credentials.accessKeyId() + "/" + scope});
    all.add(new String[] {"X-Amz-Date", amzDate});
    all.add(new String[] {"X-Amz-Expires", Long.toString(seconds)});
    if (credentials.sessionToken() != null) {
      all.add(new String[] {"X-Amz-Security-Token", credentials.sessionToken()});
    }
    all.add(new String[] {"X-Amz-SignedHeaders", "host"});
    List<String[]> encoded = new ArrayList<>();
    for (String[] p : all) {
      encoded.add(new String[] {UriCodec.encode(p[0], false), UriCodec.encode(p[1], false)});
    }
    // by encoded name, then value (byte order: the encoded forms are ASCII)
    Collections.sort(encoded, new Comparator<String[]>() {
      @Override
      public int compare(String[] a, String[] b) {
        int byName = a[0].compareTo(b[0]);
        return byName != 0 ? byName : a[1].compareTo(b[1]);
      }
    });
    StringBuilder q = new StringBuilder();
    for (String[] p : encoded) {
      q.append(q.length() == 0 ? "" : "&").append(p[0]).append('=').append(p[1]);
    }
    String query = q.toString();
    String canonicalRequest = "GET\n" + path + "\n" + query + "\nhost:" + host + "\n\nhost\nUNSIGNED-PAYLOAD";
    String stringToSign = ALGORITHM + "\n" + amzDate + "\n" + scope + "\n"
        + UriCodec.hex(sha256(canonicalRequest));
    String signature = UriCodec.hex(hmac(signingKey(date, region), stringToSign));
    return new SignedRequest(scheme + "://" + host + path + "?" + query + "&X-Amz-Signature=" + signature,
        Collections.<String, String>emptyMap(), signedAt.plusSeconds(seconds));
  }

  private byte[] signingKey(String date, String region) {
    Object[] cached = signingKey;
    if (cached != null && cached[0].equals(date + "/" + region)) {
      return (byte[]) cached[1];
    }
    byte[] k = hmac(("AWS4" + credentials.secretAccessKey()).getBytes(StandardCharsets.UTF_8), date);
    k = hmac(hmac(hmac(k, region), "s3"), "aws4_request");
    signingKey = new Object[] {date + "/" + region, k};
    return k;
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static byte[] sha256(String data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  @Override
  public String toString() {
    return "S3Signer{" + credentials + ", " + settings + "}";
  }
}
