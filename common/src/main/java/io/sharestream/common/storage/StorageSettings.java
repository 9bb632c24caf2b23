package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidSettingException;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the signers send requests: the public endpoints of each cloud by default, or an S3-compatible server, Azurite
 * or a fake GCS server instead. Immutable; {@link #defaults()} then the {@code with...} methods.
 */
public final class StorageSettings implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** The region S3 requests are signed for unless {@link #withS3Region} says otherwise. */
  public static final String DEFAULT_S3_REGION = "us-east-1";
  private static final StorageSettings DEFAULTS = new StorageSettings(null, false, DEFAULT_S3_REGION, null, null);

  /**
   * The S3 endpoint, {@code scheme://host[:port][/path]} without a trailing slash (e.g. {@code http://127.0.0.1:9000}
   * for MinIO); null: AWS's regional endpoint {@code https://s3.<region>.amazonaws.com}.
   */
  private final String s3Endpoint;
  /**
   * Path-style S3 URLs ({@code <endpoint>/<bucket>/<key>}) instead of virtual-hosted ones
   * ({@code <scheme>://<bucket>.<endpoint host>/<key>}). AWS's endpoints use path style anyway for buckets whose
   * names hold a dot, which a virtual host name would put outside the certificate's wildcard.
   */
  private final boolean s3PathStyle;
  /** The AWS region S3 requests are signed for (the bucket's region); {@value #DEFAULT_S3_REGION} by default. */
  private final String s3Region;
  /**
   * The Azure Blob endpoint, where {@code {account}} stands for the storage account (e.g. Azurite's
   * {@code http://127.0.0.1:10000/{account}}); the container and blob follow it. Null: the account's own
   * {@code https://<account>.blob.core.windows.net} (its host as the location names it).
   */
  private final String azureEndpoint;
  /**
   * The Google Cloud Storage JSON API endpoint, before {@code /storage/v1} (e.g. {@code http://127.0.0.1:4443} for
   * fake-gcs-server); null: {@code https://storage.googleapis.com}.
   */
  private final String gcsEndpoint;

  private StorageSettings(String s3Endpoint, boolean s3PathStyle, String s3Region, String azureEndpoint,
      String gcsEndpoint) {
    this.s3Endpoint = s3Endpoint;
    this.s3PathStyle = s3PathStyle;
    this.s3Region = s3Region;
    this.azureEndpoint = azureEndpoint;
    this.gcsEndpoint = gcsEndpoint;
  }

  /** The public endpoints, virtual-hosted S3 URLs, region {@value #DEFAULT_S3_REGION}. */
  public static StorageSettings defaults() {
    return DEFAULTS;
  }

  /** These settings with S3 requests sent to {@code endpoint} (null: AWS). */
  public StorageSettings withS3Endpoint(String endpoint) {
    return new StorageSettings(endpoint(endpoint, "S3 endpoint"), s3PathStyle, s3Region, azureEndpoint,
        gcsEndpoint);
  }

  /** These settings with path-style S3 URLs on or off. */
  public StorageSettings withS3PathStyle(boolean pathStyle) {
    return new StorageSettings(s3Endpoint, pathStyle, s3Region, azureEndpoint, gcsEndpoint);
  }

  /** These settings signing S3 requests for {@code region} (e.g. {@code eu-west-1}). */
  public StorageSettings withS3Region(String region) {
    if (region == null || !region.matches("[a-z0-9-]+")) {
      throw new InvalidSettingException("The S3 region must be a region name such as eu-west-1, not '" + region
          + "'.");
    }
    return new StorageSettings(s3Endpoint, s3PathStyle, region, azureEndpoint, gcsEndpoint);
  }

  /** These settings with Azure Blob requests sent to {@code endpoint} (null: the account's own). */
  public StorageSettings withAzureEndpoint(String endpoint) {
    return new StorageSettings(s3Endpoint, s3PathStyle, s3Region, endpoint(endpoint, "Azure endpoint"),
        gcsEndpoint);
  }

  /** These settings with GCS requests sent to {@code endpoint} (null: Google's). */
  public StorageSettings withGcsEndpoint(String endpoint) {
    return new StorageSettings(s3Endpoint, s3PathStyle, s3Region, azureEndpoint, endpoint(endpoint,
        "GCS endpoint"));
  }

  /** {@code url} checked (http or https, a host, no query) without its trailing slashes and default port. */
  private static String endpoint(String url, String what) {
    if (url == null) {
      return null;
    }
    String u = url.trim();
    String lower = u.toLowerCase(Locale.ROOT);
    int hostStart = lower.startsWith("https://") ? 8 : lower.startsWith("http://") ? 7 : -1;
    if (hostStart < 0 || u.length() == hostStart || "/:?#".indexOf(u.charAt(hostStart)) >= 0 || u.indexOf('?') >= 0
        || u.indexOf('#') >= 0) {
      throw new InvalidSettingException("The " + what + " must be an http:// or https:// URL such as "
          + "http://127.0.0.1:9000, without a query, not '" + Errors.safeUrl(url) + "'.");
    }
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    int slash = u.indexOf('/', hostStart);
    String authority = slash < 0 ? u.substring(hostStart) : u.substring(hostStart, slash);
    String rest = slash < 0 ? "" : u.substring(slash);
    if (authority.indexOf('@') >= 0) {
      throw new InvalidSettingException("The " + what + " must not hold credentials (user@host): the storage is "
          + "reached with the table's temporary credentials.");
    }
    String defaultPort = hostStart == 8 ? ":443" : ":80";
    if (authority.endsWith(defaultPort)) { // what an HTTP client sends as Host, so what is signed
      authority = authority.substring(0, authority.length() - defaultPort.length());
    }
    return lower.substring(0, hostStart) + authority + rest;
  }

  public String s3Endpoint() {
    return s3Endpoint;
  }

  public boolean s3PathStyle() {
    return s3PathStyle;
  }

  public String s3Region() {
    return s3Region;
  }

  public String azureEndpoint() {
    return azureEndpoint;
  }

  public String gcsEndpoint() {
    return gcsEndpoint;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StorageSettings)) {
      return false;
    }
    StorageSettings s = (StorageSettings) o;
    return s3PathStyle == s.s3PathStyle && Objects.equals(s3Endpoint, s.s3Endpoint) && s3Region.equals(s.s3Region)
        && Objects.equals(azureEndpoint, s.azureEndpoint) && Objects.equals(gcsEndpoint, s.gcsEndpoint);
  }

  @Override
  public int hashCode() {
    return Objects.hash(s3Endpoint, s3PathStyle, s3Region, azureEndpoint, gcsEndpoint);
  }

  @Override
  public String toString() {
    return "StorageSettings{s3Endpoint=" + s3Endpoint + ", s3PathStyle=" + s3PathStyle + ", s3Region=" + s3Region
        + ", azureEndpoint=" + azureEndpoint + ", gcsEndpoint=" + gcsEndpoint + "}";
  }
}
