package io.sharestream.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.List;

/**
 * The warnings the source logged in this test JVM: each Spark line's test logging config (log4j 1 on Spark 3.1,
 * log4j 2 on later lines) also writes the {@code io.sharestream} loggers' warnings to this file.
 */
final class SourceLog {
  private static final Path FILE = Paths.get("target", "sharestream-test.log");

  private SourceLog() {}

  static List<String> lines() throws IOException {
    return Files.exists(FILE) ? Files.readAllLines(FILE, StandardCharsets.UTF_8) : Collections.emptyList();
  }
}
