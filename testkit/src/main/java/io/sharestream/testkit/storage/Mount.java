package io.sharestream.testkit.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A local directory served as the objects under a key prefix of a bucket: {@code <root>/<relative path>} is the file
 * at that path ({@code /}-separated), directories are no objects. A key of the kit's alias convention
 * ({@code <root>/_alias-<n>/<path>}, see {@code DeltaTableWriter#appendAliases}) names the file {@code <path>} when no
 * file has its own name, as the kit's log paths do.
 */
public final class Mount {
  private static final Pattern ALIAS = Pattern.compile("_alias-\\d+/.+");

  /** The bucket. */
  public final String bucket;
  /** The key prefix, without a trailing slash. */
  public final String root;
  /** The directory. */
  public final Path dir;

  /** Serves {@code dir} as the objects under {@code root} (no trailing slash) in {@code bucket}. */
  public Mount(String bucket, String root, Path dir) {
    this.bucket = bucket;
    this.root = root;
    this.dir = dir.toAbsolutePath().normalize();
  }

  /** Whether {@code key} lies under this mount's prefix. */
  public boolean contains(String key) {
    return key.startsWith(root + "/");
  }

  /** The file of {@code key} (a key {@link #contains contained}), or null when there is no such object. */
  public Path file(String key) {
    String rel = key.substring(root.length() + 1);
    Path f = resolve(rel);
    if (f != null && !Files.isRegularFile(f) && ALIAS.matcher(rel).matches()) {
      f = resolve(rel.substring(rel.indexOf('/') + 1));
    }
    return f != null && Files.isRegularFile(f) ? f : null;
  }

  /** {@code rel} under the directory, or null when it has empty, {@code .} or {@code ..} segments. */
  private Path resolve(String rel) {
    if (rel.isEmpty()) {
      return null;
    }
    for (String segment : rel.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..") || segment.indexOf('\0') >= 0) {
        return null;
      }
    }
    Path f = dir.resolve(rel).normalize();
    return f.startsWith(dir) ? f : null;
  }

  /** One object: its key, file, size and last modification. */
  public static final class Entry {
    public final String key;
    final byte[] keyBytes;
    public final Path file;
    public final long size;
    public final long lastModifiedMillis;

    Entry(String key, Path file) throws IOException {
      this.key = key;
      this.keyBytes = key.getBytes(StandardCharsets.UTF_8);
      this.file = file;
      this.size = Files.size(file);
      this.lastModifiedMillis = Files.getLastModifiedTime(file).toMillis();
    }
  }

  /**
   * The objects whose keys start with {@code prefix} (which this mount {@link #contains}), in S3's order: by the keys'
   * UTF-8 bytes. Only the directory the prefix names is walked.
   */
  public List<Entry> list(String prefix) {
    String rel = prefix.substring(root.length() + 1);
    int slash = rel.lastIndexOf('/');
    Path start = slash < 0 ? dir : resolve(rel.substring(0, slash));
    List<Entry> out = new ArrayList<>();
    if (start == null || !Files.isDirectory(start)) {
      return out;
    }
    try (Stream<Path> files = Files.walk(start)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        String key = root + "/" + dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
        if (key.startsWith(prefix)) {
          out.add(new Entry(key, f));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort((a, b) -> compareBytes(a.keyBytes, b.keyBytes));
    return out;
  }

  /** Orders as S3 lists: by UTF-8 bytes, unsigned. */
  static int compareBytes(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int c = (a[i] & 0xff) - (b[i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return a.length - b.length;
  }

  /** A quoted entity tag of the file as it is now (its path, size and time), stable while it is unchanged. */
  public static String etag(Path file, long size, long lastModifiedMillis) {
    try {
      byte[] d = MessageDigest.getInstance("MD5").digest((file + "\n" + size + "\n" + lastModifiedMillis)
          .getBytes(StandardCharsets.UTF_8));
      StringBuilder b = new StringBuilder("\"");
      for (byte x : d) {
        b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
      }
      return b.append('"').toString();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
