package io.sharestream.spark;

import io.sharestream.common.client.HttpInputFile;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The files this executor JVM is reading through {@link SharingFileSystem}: a key names each in a
 * {@code deltasharing:/<key>} path (never the pre-signed URL, which Spark would log and show in
 * {@code input_file_name()}), mapped to its {@link HttpInputFile}. Entries are counted, as two tasks may read one file,
 * and dropped when the last reader is done with the file.
 */
final class FileRegistry {
  static final String SCHEME = "deltasharing";
  private static final Map<String, Entry> FILES = new ConcurrentHashMap<>();

  private FileRegistry() {}

  private static final class Entry {
    final HttpInputFile input;
    int readers;

    Entry(HttpInputFile input) {
      this.input = input;
    }
  }

  /** Registers the file under {@code key} (made by {@code input} unless already there); its path. */
  static String register(String key, Supplier<HttpInputFile> input) {
    FILES.compute(key, (k, e) -> {
      Entry entry = e != null ? e : new Entry(input.get());
      entry.readers++;
      return entry;
    });
    return SCHEME + ":/" + key;
  }

  static void release(String key) {
    FILES.computeIfPresent(key, (k, e) -> --e.readers == 0 ? null : e);
  }

  /** The input behind a path; an unknown key is an I/O error (not a missing file, which Spark may skip). */
  static HttpInputFile input(String key) throws IOException {
    Entry e = FILES.get(key);
    if (e == null) {
      throw new IOException("deltasharing file " + key + " is not registered in this JVM: it is only readable while "
          + "its Spark task reads it");
    }
    return e.input;
  }

  /** The paths readable in this JVM now. */
  static Set<String> registered() {
    return FILES.keySet().stream().map(k -> SCHEME + ":/" + k).collect(Collectors.toSet());
  }
}
