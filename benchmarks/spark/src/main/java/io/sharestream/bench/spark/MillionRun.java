package io.sharestream.bench.spark;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.jvm.LiveHeap;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * Issue #25 on Spark ({@code million}): one version of 1,000,000 files of one row each ({@link
 * DeltaTableWriter#appendAliases}: one physical Parquet file behind distinct logical files), served by the kit from
 * this JVM, streamed by {@code spark.readStream.format("deltaSharing")} with the default {@code maxFilesPerTrigger}
 * into the {@code noop} sink, in a driver JVM of its own with {@code -Xmx512m} (local[2]), (i) from history
 * ({@code startingVersion=1}, the version itself) and (ii) as a snapshot start ({@code startingVersion=snapshot}), each
 * for at most {@link #SECONDS}. Prints the first micro-batch with data (from the query's start), files streamed and
 * files/s, the per-file cost (µs/file from the first micro-batch with data to the last), the driver's peak live heap
 * against 512 MiB, and how the run ended: complete, stopped at the bound, or out of heap (the driver runs with
 * {@code -XX:+ExitOnOutOfMemoryError}: that is then the figure). {@code -Dbench.million.sizes=10000,1000000} picks
 * the sizes, {@code -Dbench.million.seconds=N} the bound.
 */
final class MillionRun {
  static final String CASE = "million-case";
  private static final String MARKER = "MILLION ";
  private static final String DRIVER_HEAP = "512m";
  private static final long DRIVER_HEAP_MIB = 512;
  private static final long SECONDS = Long.getLong("bench.million.seconds", 120);
  private static final long VERSION = 1;

  private MillionRun() {}

  static void all(Path dir) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    for (String s : System.getProperty("bench.million.sizes", "1000000").split(",")) {
      sizes.add(Integer.parseInt(s.trim()));
    }
    for (int n : sizes) {
      DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("aliased-" + n), Samples.ORDERS).commit();
      long t0 = System.nanoTime();
      t.appendAliases(Samples.orders(0, 1), n);
      System.out.printf("    (wrote one version of %,d files in %.1f s, a %.0f MB commit; the kit serves it from this "
          + "JVM, -Xmx%d MiB)%n", n, (System.nanoTime() - t0) / 1e9, Files.size(t.log().commitFile(VERSION)) / 1e6,
          Runtime.getRuntime().maxMemory() >> 20);
      try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "t", t.dir(), true).start()) {
        String path = server.writeProfile(dir.resolve("million-" + n + ".share")) + "#s.b.t";
        for (String start : List.of(Long.toString(VERSION), "snapshot")) {
          print(n, start, child(path, start, n, dir));
        }
      }
      try (java.util.stream.Stream<Path> files = Files.walk(t.dir())) { // a big commit; the next size gets its own
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  private static void print(int n, String start, Map<String, String> r) {
    String what = start.equals("snapshot") ? "snapshot start (startingVersion=snapshot)"
        : "from history (startingVersion=" + start + ")";
    long rows = Long.parseLong(r.getOrDefault("rows", "0"));
    double seconds = Long.parseLong(r.getOrDefault("elapsedMs", "0")) / 1e3;
    long firstMs = Long.parseLong(r.getOrDefault("firstBatchMs", "-1"));
    long lastMs = Long.parseLong(r.getOrDefault("lastBatchMs", "-1"));
    long firstRows = Long.parseLong(r.getOrDefault("firstBatchRows", "0"));
    System.out.printf("spark: one version of %,d files, %s, default maxFilesPerTrigger, -Xmx%s driver: %s%n", n, what,
        DRIVER_HEAP, r.get("ending"));
    System.out.printf("    %s (goal: within seconds)%n", firstMs < 0 ? "no micro-batch with data"
        : String.format("first micro-batch with data done after %.1f s (%,d files)", firstMs / 1e3, firstRows));
    String perFile = rows > firstRows && lastMs > firstMs
        ? String.format("%,.0f µs/file", (lastMs - firstMs) * 1e3 / (rows - firstRows)) : "n/a";
    System.out.printf("    %,d of %,d files in %.1f s (%s micro-batches): %,.0f files/s; per-file cost %s (after the "
        + "first micro-batch)%n", rows, n, seconds, r.getOrDefault("batches", "0"),
        seconds > 0 ? rows / seconds : 0, perFile);
    System.out.printf("    driver peak live heap %s%s MiB of %d MiB (goal: within %d MiB)%n",
        r.get("ending").startsWith("FAILED") ? "at least " : "", r.getOrDefault("peakLiveMiB", "?"),
        DRIVER_HEAP_MIB, DRIVER_HEAP_MIB);
  }

  /**
   * Runs the stream in a driver JVM of its own (this JVM's flags, then {@code -Xmx512m}); its last figures, with
   * {@code ending}: complete, stopped at the bound, or how the JVM ended.
   */
  private static Map<String, String> child(String path, String start, int files, Path dir) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(List.of("-Xmx" + DRIVER_HEAP, "-XX:+ExitOnOutOfMemoryError"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SparkBenchmark.class.getName(), CASE, path,
        start, Long.toString(SECONDS), dir.toString(), Integer.toString(files)));
    Path err = Files.createTempFile(dir, "driver", ".err");
    ProcessBuilder builder = new ProcessBuilder(cmd).redirectError(err.toFile());
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // loopback only, as the driver binds
    Process p = builder.start();
    Map<String, String> last = new java.util.concurrent.ConcurrentHashMap<>();
    String[] outOfMemory = {null};
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (line.startsWith(MARKER + "ending=")) {
            last.put("ending", line.substring((MARKER + "ending=").length()));
          } else if (line.startsWith(MARKER)) {
            for (String kv : line.substring(MARKER.length()).trim().split("\\s+")) {
              int eq = kv.indexOf('=');
              if (eq > 0) {
                last.put(kv.substring(0, eq), kv.substring(eq + 1));
              }
            }
          } else if (line.contains("OutOfMemoryError")) {
            outOfMemory[0] = line.trim();
          }
        }
      } catch (IOException ended) {
        // the driver is gone
      }
    });
    reader.start();
    if (!p.waitFor(SECONDS + 240, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
    }
    reader.join();
    String ending = last.get("ending");
    if (ending == null) {
      String oom = outOfMemory[0];
      for (String l : Files.readAllLines(err, StandardCharsets.UTF_8)) {
        if (oom == null && l.contains("OutOfMemoryError")) {
          oom = l.trim();
        }
      }
      ending = "FAILED: the driver JVM ended (exit " + p.exitValue() + ") after "
          + String.format("%.0f s", Long.parseLong(last.getOrDefault("elapsedMs", "0")) / 1e3) + ": "
          + (oom != null ? oom : "no OutOfMemoryError printed, see " + err);
    }
    Map<String, String> figures = new java.util.HashMap<>(last);
    figures.put("ending", ending);
    return figures;
  }

  /**
   * In the driver JVM: the stream for at most the bound, its figures on standard output every second (so that they
   * survive the JVM running out of heap) and once more at the end with {@code ending}.
   */
  static void runCase(String[] args) throws Exception {
    LiveHeap live = LiveHeap.watch();
    String path = args[1];
    String start = args[2];
    long seconds = Long.parseLong(args[3]);
    Path dir = Path.of(args[4]);
    long expected = Long.parseLong(args[5]);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sharestream-million")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2").getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    AtomicLong rows = new AtomicLong();
    AtomicLong batches = new AtomicLong();
    AtomicLong firstBatchMs = new AtomicLong(-1);
    AtomicLong firstBatchRows = new AtomicLong();
    AtomicLong lastBatchMs = new AtomicLong(-1);
    long t0 = System.nanoTime();
    StreamingQueryListener listener = new StreamingQueryListener() {
      @Override
      public void onQueryStarted(QueryStartedEvent event) {}

      @Override
      public void onQueryProgress(QueryProgressEvent event) {
        long n = event.progress().numInputRows();
        if (n > 0) {
          long now = (System.nanoTime() - t0) / 1_000_000;
          if (firstBatchMs.compareAndSet(-1, now)) {
            firstBatchRows.set(n);
          }
          lastBatchMs.set(now);
          rows.addAndGet(n);
          batches.incrementAndGet();
        }
      }

      @Override
      public void onQueryTerminated(QueryTerminatedEvent event) {}
    };
    spark.streams().addListener(listener);
    Runnable report = () -> System.out.println(MARKER + "rows=" + rows.get() + " batches=" + batches.get()
        + " firstBatchMs=" + firstBatchMs.get() + " firstBatchRows=" + firstBatchRows.get() + " lastBatchMs="
        + lastBatchMs.get() + " elapsedMs=" + (System.nanoTime() - t0) / 1_000_000 + " peakLiveMiB="
        + (live.peak() >> 20));
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", start).load(path)
        .writeStream().format("noop").option("checkpointLocation", Files.createTempDirectory(dir, "m").toString())
        .start();
    String ending = null;
    long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
    while (ending == null) {
      Thread.sleep(1000);
      report.run();
      if (q.exception().isDefined()) {
        ending = "FAILED: " + q.exception().get().getMessage().split("\n")[0];
      } else if (rows.get() >= expected) {
        ending = "complete";
      } else if (!q.isActive()) {
        ending = "FAILED: the query stopped";
      } else if (System.nanoTime() > end) {
        ending = "stopped at the " + seconds + " s bound";
      }
    }
    q.stop();
    report.run();
    System.out.println(MARKER + "ending=" + ending);
    System.out.flush();
    spark.stop();
  }
}
