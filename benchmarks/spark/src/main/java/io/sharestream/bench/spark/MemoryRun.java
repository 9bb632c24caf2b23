package io.sharestream.bench.spark;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.jvm.LiveHeap;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * The memory figures: each read of the benchmark's table runs three times in a fresh JVM of its own (the flags and
 * classpath of this one), which then reports its peak live heap (what is left after a collection: what the read
 * holds, whatever the collector's sizing), its peak heap (the sum of its heap pools' peaks) and its peak resident
 * set (VmHWM: heap, direct buffers, metaspace, threads, the whole process); then the smallest heap each read
 * completes in. The kit serves the table from this JVM,
 * outside the measured ones. Spark's own reads of the same local files are the ceiling of each.
 */
final class MemoryRun {
  static final String CASE = "memory-case";
  private static final String REPORT = "MEMORY ";
  /** The heaps (MiB) tried, smallest first, for the smallest one each read completes in. */
  private static final List<Integer> SMALL_HEAPS = List.of(64, 72, 80, 96, 128, 192, 256, 384, 512);
  private static final long SMALL_HEAP_TIMEOUT_SECONDS = 180;

  private MemoryRun() {}

  static void all(Path dir, int files, int rowsPerFile) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("bench"), Samples.ORDERS).commit();
    table.appendCopies(Samples.orders(0, rowsPerFile), files);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "bench", table.dir(), true)
        .start()) {
      String path = server.writeProfile(dir.resolve("bench.share")) + "#s.b.bench";
      Map<String, long[]> peaks = new LinkedHashMap<>();
      Map<String, Integer> smallest = new LinkedHashMap<>();
      for (String c : List.of("parquet-batch", "batch", "file-stream", "stream")) {
        peaks.put(c, median(child(c, path, table.dir(), dir, List.of()), child(c, path, table.dir(), dir, List.of()),
            child(c, path, table.dir(), dir, List.of())));
        smallest.put(c, smallestHeap(c, path, table.dir(), dir));
      }
      System.out.printf("memory of a fresh JVM (%s) reading %,d rows three times, peak live heap / peak heap / "
          + "peak RSS, medians of three JVMs:%n",
          ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("-Xm"))
              .collect(Collectors.joining(" ")), (long) files * rowsPerFile);
      print("batch: read.format(\"deltaSharing\")", peaks.get("batch"), "spark.read.parquet of the local files",
          peaks.get("parquet-batch"));
      print("stream: Trigger.Once from version 0", peaks.get("stream"), "Spark's file stream of the local files",
          peaks.get("file-stream"));
      System.out.printf("the smallest of the heaps %s MiB each read completes in (within %d s): batch %d MiB, "
          + "spark.read.parquet %d MiB; stream %d MiB, Spark's file stream %d MiB%n", SMALL_HEAPS,
          SMALL_HEAP_TIMEOUT_SECONDS, smallest.get("batch"), smallest.get("parquet-batch"), smallest.get("stream"),
          smallest.get("file-stream"));
    }
  }

  private static void print(String what, long[] ours, String ceilingName, long[] ceiling) {
    System.out.printf("  %s: %d / %d / %d MiB; %s: %d / %d / %d MiB; ratios %.2f / %.2f / %.2f%n", what,
        ours[0] >> 20, ours[1] >> 20, ours[2] >> 20, ceilingName, ceiling[0] >> 20, ceiling[1] >> 20,
        ceiling[2] >> 20, ours[0] / (double) ceiling[0], ours[1] / (double) ceiling[1],
        ours[2] / (double) ceiling[2]);
  }

  /**
   * The smallest of {@link #SMALL_HEAPS} (MiB) in which {@code name} completes within the timeout, -1 if none: what the
   * read needs, whatever the collector would grow a large heap to. Spark refuses heaps under 450 MiB unless told a
   * memory size to plan with ({@code spark.testing.memory}).
   */
  private static int smallestHeap(String name, String path, Path tableDir, Path dir) throws Exception {
    for (int mib : SMALL_HEAPS) {
      if (child(name, path, tableDir, dir, List.of("-Xmx" + mib + "m", "-Dspark.testing.memory=536870912")) != null) {
        return mib;
      }
    }
    return -1;
  }

  /** Each figure's median over three runs. */
  private static long[] median(long[] a, long[] b, long[] c) {
    long[] m = new long[a.length];
    for (int i = 0; i < m.length; i++) {
      long[] v = {a[i], b[i], c[i]};
      java.util.Arrays.sort(v);
      m[i] = v[1];
    }
    return m;
  }

  /**
   * Runs {@code name} in a child JVM with this JVM's flags and then {@code flags}; its peak live heap, peak heap and
   * peak RSS in bytes. With {@code flags}, a run that fails or outlasts the timeout gives null.
   */
  private static long[] child(String name, String path, Path tableDir, Path dir, List<String> flags)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(flags);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SparkBenchmark.class.getName(), CASE, name,
        path, tableDir.toString(), dir.toString()));
    ProcessBuilder builder = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // loopback only, as the driver binds
    Process p = builder.start();
    long[][] peaks = {null};
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (line.startsWith(REPORT)) {
            String[] f = line.substring(REPORT.length()).split(" ");
            peaks[0] = new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])};
          }
        }
      } catch (IOException ended) {
        // the child is gone
      }
    });
    reader.start();
    boolean done = p.waitFor(flags.isEmpty() ? Long.MAX_VALUE : SMALL_HEAP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly().waitFor();
    }
    reader.join();
    if (!flags.isEmpty()) {
      return done && p.exitValue() == 0 ? peaks[0] : null;
    }
    if (p.exitValue() != 0 || peaks[0] == null) {
      throw new IllegalStateException("the memory run " + name + " failed (exit " + p.exitValue() + ")");
    }
    return peaks[0];
  }

  /** In the child: the case three times, then its peaks on standard output. */
  static void runCase(String[] args) throws Exception {
    LiveHeap live = LiveHeap.watch();
    String name = args[1];
    String path = args[2];
    Path tableDir = Path.of(args[3]);
    Path dir = Path.of(args[4]);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sharestream-memory")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    String[] local;
    try (java.util.stream.Stream<Path> s = Files.walk(tableDir)) {
      local = s.filter(f -> f.toString().endsWith(".parquet") && !f.toString().contains("_delta_log"))
          .map(Path::toString).toArray(String[]::new);
    }
    for (int i = 0; i < 3; i++) {
      switch (name) {
        case "parquet-batch":
          SparkBenchmark.noop(spark.read().parquet(local));
          break;
        case "batch":
          SparkBenchmark.noop(spark.read().format("deltaSharing").load(path));
          break;
        case "file-stream":
          SparkBenchmark.localStream(spark, spark.read().parquet(local[0]).schema(), tableDir, dir);
          break;
        case "stream":
          SparkBenchmark.stream(spark, path, dir, null);
          break;
        default:
          throw new IllegalArgumentException(name);
      }
    }
    long heap = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heap += pool.getPeakUsage().getUsed();
      }
    }
    System.out.println(REPORT + live.peak() + " " + heap + " " + peakRss());
    spark.stop();
  }

  /** VmHWM of this process, in bytes (Linux). */
  private static long peakRss() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("\\D", "")) << 10;
      }
    }
    throw new IllegalStateException("no VmHWM in /proc/self/status");
  }
}
