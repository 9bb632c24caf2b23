package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An object or prefix in a cloud object store, as a table location or a file URI names it: {@code s3://bucket/key}
 * ({@code s3a}, {@code s3n}), {@code abfss://container@account.dfs.core.windows.net/path} ({@code abfs}, and
 * {@code wasbs}/{@code wasb} with {@code .blob.}), {@code gs://bucket/path}. The {@link #key()} is decoded (a location
 * is a URI: {@code %20} is a space) and kept as written otherwise, a trailing {@code /} included, so a location can
 * name a listing prefix. Immutable; equal locations name the same object, whichever scheme spelled them.
 */
public final class StorageLocation implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** A URI scheme: a relative Delta path cannot start with one (RFC 3986: a ':' in its first segment is escaped). */
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  /** The kind of object store, which decides the URLs and signatures used to reach it. */
  public enum Store {
    /** Amazon S3 or an S3-compatible server. */
    S3,
    /** Azure Blob Storage / Data Lake Storage Gen2. */
    AZURE,
    /** Google Cloud Storage. */
    GCS
  }

  private final Store store;
  private final String scheme;
  private final String bucket;
  private final String host;
  private final String key;

  private StorageLocation(Store store, String scheme, String bucket, String host, String key) {
    this.store = store;
    this.scheme = scheme;
    this.bucket = bucket;
    this.host = host;
    this.key = key;
  }

  /**
   * Parses an absolute location such as a table's {@code location} or an absolute file URI; its percent-escapes are
   * decoded.
   *
   * @throws io.sharestream.common.errors.ProtocolViolationException when it has another scheme, no bucket (or no
   *     container and account for Azure), or a malformed escape
   */
  public static StorageLocation parse(String location) {
    if (location == null || location.trim().isEmpty()) {
      throw Errors.unsupportedStorageLocation(String.valueOf(location), "it is empty");
    }
    int sep = location.indexOf("://");
    if (sep <= 0) {
      throw Errors.unsupportedStorageLocation(location, "it is not an absolute URI with a scheme such as s3://");
    }
    String scheme = location.substring(0, sep).toLowerCase(Locale.ROOT);
    int pathStart = location.indexOf('/', sep + 3);
    String authority = location.substring(sep + 3, pathStart < 0 ? location.length() : pathStart);
    String key = pathStart < 0 ? "" : UriCodec.decode(location.substring(pathStart + 1), location);
    switch (scheme) {
      case "s3":
      case "s3a":
      case "s3n":
        return new StorageLocation(Store.S3, scheme, bucketOf(authority, location), null, key);
      case "gs":
        return new StorageLocation(Store.GCS, scheme, bucketOf(authority, location), null, key);
      case "abfss":
      case "abfs":
      case "wasbs":
      case "wasb": {
        int at = authority.indexOf('@');
        String host = at < 0 ? "" : authority.substring(at + 1).toLowerCase(Locale.ROOT);
        if (at <= 0 || host.indexOf('.') <= 0) {
          throw Errors.unsupportedStorageLocation(location, "an Azure location names its container and account "
              + "as " + scheme + "://<container>@<account>.dfs.core.windows.net/<path>");
        }
        return new StorageLocation(Store.AZURE, scheme, UriCodec.decode(authority.substring(0, at), location), host,
            key);
      }
      default:
        throw Errors.unsupportedStorageLocation(location, "its scheme '" + scheme + "' is not one of an object store "
            + "this reader reaches");
    }
  }

  private static String bucketOf(String authority, String location) {
    if (authority.isEmpty() || authority.indexOf('@') >= 0 || authority.indexOf(':') >= 0) {
      throw Errors.unsupportedStorageLocation(location, "it names no bucket (expected <scheme>://<bucket>/<path>)");
    }
    return authority;
  }

  /**
   * The object a path of this table's Delta log names, this location being the table's root: a relative path is a
   * URI path relative to the root (its escapes decoded, {@code .} and {@code ..} segments resolved), a path starting
   * with {@code /} is relative to the bucket, and an absolute URI is {@link #parse parsed}. The result may lie outside
   * this location ({@link #isUnder} tells).
   */
  public StorageLocation resolve(String path) {
    if (path == null || path.isEmpty()) {
      throw Errors.unsupportedStorageLocation(String.valueOf(path), "a file path is empty");
    }
    if (SCHEME.matcher(path).find()) {
      return parse(path);
    }
    List<String> segments = new ArrayList<>();
    String relative = path;
    if (path.startsWith("/")) {
      relative = path.substring(1);
    } else if (!key.isEmpty()) {
      for (String s : key.split("/", -1)) {
        segments.add(s);
      }
      if (segments.get(segments.size() - 1).isEmpty()) { // the root named as a directory: "t/"
        segments.remove(segments.size() - 1);
      }
    }
    String[] parts = relative.split("/", -1);
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i];
      boolean last = i == parts.length - 1;
      if (p.equals(".") || p.equals("..")) {
        if (p.equals("..") && !segments.isEmpty()) {
          segments.remove(segments.size() - 1);
        }
        if (last) {
          segments.add(""); // "a/.." names the directory a's parent: keep it a directory
        }
        continue;
      }
      segments.add(UriCodec.decode(p, path));
    }
    return withKey(join(segments));
  }

  private static String join(List<String> segments) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < segments.size(); i++) {
      if (i > 0) {
        b.append('/');
      }
      b.append(segments.get(i));
    }
    return b.toString();
  }

  /**
   * Whether this location is {@code root} or lies under it: same store, bucket (container and account for Azure)
   * and a key that is the root's or continues it past a {@code /}.
   */
  public boolean isUnder(StorageLocation root) {
    if (store != root.store || !bucket.equals(root.bucket) || !Objects.equals(blobHost(), root.blobHost())) {
      return false;
    }
    String prefix = root.key;
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    return prefix.isEmpty() || key.equals(prefix) || key.startsWith(prefix + "/");
  }

  /** The location of {@code key} (decoded) in this location's bucket or container, e.g. a key a listing returned. */
  public StorageLocation withKey(String key) {
    return new StorageLocation(store, scheme, bucket, host, Objects.requireNonNull(key, "key"));
  }

  public Store store() {
    return store;
  }

  /** The scheme as written, lower case ({@code s3a}, {@code abfss}, ...). */
  public String scheme() {
    return scheme;
  }

  /** The S3 or GCS bucket, or the Azure container. */
  public String bucket() {
    return bucket;
  }

  /** The Azure storage account (the host's first label); null for other stores. */
  public String account() {
    return host == null ? null : host.substring(0, host.indexOf('.'));
  }

  /**
   * The Azure Blob service host of the account: the location's host with its {@code dfs} label as {@code blob}
   * ({@code account.blob.core.windows.net}); null for other stores.
   */
  public String blobHost() {
    if (host == null) {
      return null;
    }
    String[] labels = host.split("\\.", -1);
    for (int i = 1; i < labels.length; i++) {
      if (labels[i].equals("dfs")) {
        labels[i] = "blob";
        break;
      }
    }
    return String.join(".", labels);
  }

  /** The object key (the blob name for Azure), decoded, without a leading {@code /}; empty for a bucket's root. */
  public String key() {
    return key;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StorageLocation)) {
      return false;
    }
    StorageLocation l = (StorageLocation) o;
    return store == l.store && bucket.equals(l.bucket) && Objects.equals(blobHost(), l.blobHost())
        && key.equals(l.key);
  }

  @Override
  public int hashCode() {
    return Objects.hash(store, bucket, blobHost(), key);
  }

  /** {@code scheme://bucket/key} ({@code scheme://container@host/key} for Azure), the key decoded. */
  @Override
  public String toString() {
    return scheme + "://" + (host == null ? bucket : bucket + "@" + host) + "/" + key;
  }
}
