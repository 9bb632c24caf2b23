package io.sharestream.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a main class in a JVM of its own (this one's classpath, a heap of its own), so that what is measured there is
 * all that JVM holds; its output line of {@code key=value} pairs after a marker is the result.
 */
final class ChildJvm {
  /** More flags for every child JVM, from {@code -Dbench.childFlags="..."} (e.g. a heap dump on OOM). */
  private static final List<String> EXTRA_FLAGS = System.getProperty("bench.childFlags", "").isBlank() ? List.of()
      : List.of(System.getProperty("bench.childFlags").trim().split("\\s+"));

  private ChildJvm() {}

  /** Runs {@code main} with {@code -Xmx<heap>} and returns the pairs of the last line starting with {@code marker}. */
  static Map<String, String> run(String heap, Class<?> main, String marker, String... args) throws Exception {
    Path err = Files.createTempFile("sharestream-child", ".err");
    Process child = start(heap, List.of(), main, err, args);
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int at = out.lastIndexOf(marker);
    if (child.waitFor() != 0 || at < 0) {
      throw new IllegalStateException(main.getSimpleName() + " failed (exit " + child.exitValue() + "): " + out
          + tail(err));
    }
    Files.delete(err);
    String line = out.substring(at + marker.length());
    return pairs(line.contains("\n") ? line.substring(0, line.indexOf('\n')) : line);
  }

  /** Starts {@code main} with {@code -Xmx<heap>} and {@code flags}, its standard error into {@code err}. */
  static Process start(String heap, List<String> flags, Class<?> main, Path err, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap));
    command.addAll(flags);
    command.addAll(EXTRA_FLAGS);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectError(err.toFile()).start();
  }

  /** The {@code key=value} pairs of a line (other words left out). */
  static Map<String, String> pairs(String line) {
    Map<String, String> figures = new HashMap<>();
    for (String kv : line.trim().split("\\s+")) {
      if (kv.contains("=")) {
        figures.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    return figures;
  }

  /** The last 4,000 characters of a child's standard error, for a failure's message. */
  static String tail(Path err) throws IOException {
    String text = Files.readString(err);
    return "\nstderr (" + err + "):\n" + text.substring(Math.max(0, text.length() - 4000));
  }
}
