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
    ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // Spark looks no further than loopback for itself
    Process process = builder.start();
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

  /**
   * The TCP addresses the driver process listens on ({@code 127.0.0.1:port}, ...), from the kernel's socket tables
   * ({@code /proc}); null where there are none to read (not Linux).
   */
  java.util.SortedSet<String> listening() throws IOException {
    Path fds = Path.of("/proc", Long.toString(process.pid()), "fd");
    if (!Files.isDirectory(fds)) {
      return null;
    }
    java.util.Set<String> inodes = new java.util.HashSet<>();
    try (java.util.stream.Stream<Path> links = Files.list(fds)) {
      for (Path fd : (Iterable<Path>) links::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // gone
        }
      }
    }
    java.util.SortedSet<String> out = new java.util.TreeSet<>();
    for (String table : new String[] {"tcp", "tcp6"}) {
      Path file = Path.of("/proc", Long.toString(process.pid()), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) { // LISTEN, one of the driver's sockets
          out.add(address(f[1]));
        }
      }
    }
    return out;
  }

  /** A {@code /proc/net/tcp} local address (hex, 32-bit words in host order) as {@code ip:port}. */
  private static String address(String hex) {
    String[] parts = hex.split(":");
    int port = Integer.parseInt(parts[1], 16);
    String ip = parts[0];
    byte[] bytes = new byte[ip.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) { // each 32-bit word is little-endian
      for (int b = 0; b < 4; b++) {
        bytes[word * 4 + b] = (byte) Integer.parseInt(ip.substring(word * 8 + (3 - b) * 2, word * 8 + (3 - b) * 2
            + 2), 16);
      }
    }
    try {
      java.net.InetAddress a = java.net.InetAddress.getByAddress(bytes);
      return a.getHostAddress() + ":" + port; // an IPv4-mapped IPv6 address comes back as IPv4
    } catch (java.net.UnknownHostException e) {
      return hex;
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
