package io.sharestream.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The demo's Spark side: the Spark 3.1.1 driver of module {@code demo/spark} ({@code SparkSide}) in a JVM of its
 * own, as Spark 3.1's libraries cannot share a classpath with Kafka 4's; started with the classpath and JVM flags
 * that module's build wrote. Its lines are shown with a {@code [spark]} prefix, its {@code @batch} lines counted;
 * the rows it delivered are read from the {@code spark-rows.csv} it appends to. It runs while its standard input is
 * open: {@link #close()} closes it and waits for the driver to stop its queries.
 */
final class SparkProcess implements AutoCloseable {
  private final Process process;
  private final Path rows;
  private final Thread reader;
  private volatile long batches;
  private volatile long rowCount;
  private volatile long version = -1;

  private SparkProcess(Process process, Path rows) {
    this.process = process;
    this.rows = rows;
    this.reader = new Thread(this::readLines, "demo-spark-output");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts the driver on {@code table} (profile path + {@code #share.schema.table}) in {@code mode}. */
  static SparkProcess start(Path moduleTarget, String table, String mode, Path work) throws IOException {
    Path classpath = moduleTarget.resolve("classpath.txt");
    Path flags = moduleTarget.resolve("classes/sharestream-demo-spark.properties");
    if (!Files.exists(classpath) || !Files.exists(flags)) {
      throw new IllegalStateException("no Spark side built under " + moduleTarget.toAbsolutePath()
          + ": build it first (./demo.sh does)");
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(flags)) {
      p.load(in);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx1g");
    cmd.addAll(Arrays.asList(p.getProperty("jvm.flags").trim().split("\\s+")));
    cmd.add("-Djava.io.tmpdir=" + work);
    cmd.add("-cp");
    cmd.add(moduleTarget.resolve("classes") + java.io.File.pathSeparator
        + Files.readString(classpath, StandardCharsets.UTF_8).trim());
    cmd.addAll(List.of("io.sharestream.demo.spark.SparkSide", table, mode, work.toString()));
    Process process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    return new SparkProcess(process, work.resolve("spark-rows.csv"));
  }

  private void readLines() {
    try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("@batch ")) {
          String[] f = line.split(" ");
          batches++;
          rowCount += Long.parseLong(f[1]);
          version = Math.max(version, Long.parseLong(f[2]));
        } else {
          Demo.say("spark", "%s", line);
        }
      }
    } catch (IOException ended) {
      // the driver is gone
    }
  }

  boolean alive() {
    return process.isAlive();
  }

  long batches() {
    return batches;
  }

  long rows() {
    return rowCount;
  }

  /** The table version the {@code rows} query has read up to (its offset's), -1 before any. */
  long version() {
    return version;
  }

  /** The rows the {@code rows} query delivered so far, by event id and change label. */
  Tally seen() throws IOException {
    Tally t = new Tally();
    if (Files.exists(rows)) {
      for (String line : Files.readAllLines(rows, StandardCharsets.UTF_8)) {
        int comma = line.indexOf(',');
        if (comma > 0) {
          t.add(Long.parseLong(line.substring(0, comma)), line.substring(comma + 1));
        }
      }
    }
    return t;
  }

  @Override
  public void close() throws Exception {
    try {
      process.getOutputStream().close(); // the driver stops its queries and exits
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } finally {
      reader.join(2_000);
    }
  }
}
