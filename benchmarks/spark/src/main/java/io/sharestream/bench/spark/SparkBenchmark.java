package io.sharestream.bench.spark;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * The Spark source measured beside its ceiling in one local SparkSession: a 2,000,000-row table of 10 common columns
 * in 32 files ({@code -Dbench.files=N}: N files of 62,500 rows), served by the kit, read (a) by a {@code
 * Trigger.Once} stream from version 0, (b) the same stream with {@code maxFilesPerTrigger=4}, (c) a batch read, and
 * (d) {@code spark.read.parquet} of the same files on local disk (the ceiling), and (e) Spark's own file stream
 * source over those local files with {@code Trigger.Once} (what a stream costs on top of a batch read, whatever its
 * source), each into the {@code noop} sink; (f) the stream over the same rows with 10% deleted by deletion vectors
 * beside (g) their live rows without them, (h) a {@code Trigger.AvailableNow} stream with {@code
 * maxFilesPerTrigger=4} (Spark 3.4+), (i) the time (d), (e) and (a) take over one row (a query's fixed cost, whatever
 * it reads), and the ratios of the rows/s beyond it; then the driver's planning time
 * of a micro-batch as the table's history grows from 100 to 10,000 versions, and of a stream from version 0 through
 * those 10,000 versions ({@code history}: that stream only, {@link HistoryRun}). {@code memory}: the peak heap and
 * RSS of a fresh JVM reading the table (stream and batch) beside the same for Spark's own reads of the local files.
 * {@code million}: a version of 1,000,000 files streamed from history and as a snapshot start by a driver of
 * {@code -Xmx512m} ({@link MillionRun}).
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl benchmarks/spark -am [-Pspark-3.5 | -Pspark-4]
 * java -Xmx2g $SPARK_FLAGS -cp benchmarks/spark/target/classes:$(cat benchmarks/spark/target/classpath.txt) \
 *     io.sharestream.bench.spark.SparkBenchmark [throughput | planning | history | memory | million]
 * </pre>
 * ({@code SPARK_FLAGS}: the {@code --add-opens} list of the build's {@code spark.test.jvm.flags}, see docs/benchmarks.md.)
 */
public final class SparkBenchmark {
  private static final int FILES = Integer.getInteger("bench.files", 32);
  private static final int ROWS_PER_FILE = 62_500;
  private static final int WARM_UP = 2;
  /** Measured rounds ({@code -Dbench.rounds}): fewer keep a run over many files short. */
  private static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

  private SparkBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals(MemoryRun.CASE)) { // a child JVM of the memory figures
      MemoryRun.runCase(args);
      return;
    }
    if (args.length > 0 && args[0].equals(MillionRun.CASE)) { // a driver JVM of the million-file figures
      MillionRun.runCase(args);
      return;
    }
    Path dir = Files.createTempDirectory("sharestream-spark-bench");
    if (args.length > 0 && args[0].equals("memory")) {
      MemoryRun.all(dir, FILES, ROWS_PER_FILE);
      return;
    }
    if (args.length > 0 && args[0].equals("million")) {
      MillionRun.all(dir);
      return;
    }
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sharestream-bench")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
        .config("spark.sharestream.versionPollIntervalMs", "0") // every new version seen at once
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    System.out.printf("machine: %d cores, java %s, heap %d MiB, Spark %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20, spark.version());
    if (args.length > 0 && (args[0].equals("planning") || args[0].equals("history"))) { // only the planning figures
      planning(spark, dir, args[0].equals("planning"));
      spark.stop();
      return;
    }
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("bench"), Samples.ORDERS).commit();
    table.appendCopies(Samples.orders(0, ROWS_PER_FILE), FILES);
    long rows = (long) FILES * ROWS_PER_FILE;
    List<String> local = table.snapshot().files().stream().map(f -> table.log().resolve(f.path).toString())
        .collect(Collectors.toList());
    StructType schema = spark.read().parquet(local.get(0)).schema();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "bench", table.dir(), true)
        .start()) {
      String path = server.writeProfile(dir.resolve("bench.share")) + "#s.b.bench";
      Trigger availableNow = availableNow();
      List<Run> runs = new ArrayList<>(List.of(
          () -> noop(spark.read().parquet(local.toArray(new String[0]))), // (d) the ceiling
          // (e) what any stream pays on top of a batch read: Spark's own file stream source over the same files
          () -> localStream(spark, schema, table.dir(), dir),
          () -> stream(spark, path, dir, null), // (a)
          () -> stream(spark, path, dir, "4"), // (b)
          () -> noop(spark.read().format("deltaSharing").load(path)))); // (c)
      if (availableNow != null) {
        runs.add(() -> availableNow(spark, path, dir, availableNow)); // (h)
      }
      double[] best = best(runs.toArray(new Run[0]), rows);
      double ceiling = best[0];
      double localStream = best[1];
      double once = best[2];
      double byFour = best[3];
      double batch = best[4];
      System.out.printf("(d) spark.read.parquet, local files (ceiling): %,.0f rows/s%n", ceiling);
      System.out.printf("(e) spark.readStream.parquet, local files, Trigger.Once (a stream's ceiling): %,.0f rows/s, "
          + "(e)/(d) = %.2f%n", localStream, localStream / ceiling);
      System.out.printf("(a) stream, Trigger.Once from version 0: %,.0f rows/s, (a)/(d) = %.2f, (a)/(e) = %.2f%n",
          once, once / ceiling, once / localStream);
      double[] fixed = fixedCosts(spark, dir);
      System.out.printf("(i) a query's fixed cost, the same runs over a one-row table: (d) %.0f ms, (e) %.0f ms, "
          + "(a) %.0f ms; beyond it, rows/s of (a) / (d) = %.2f, (e) / (d) = %.2f%n", fixed[0], fixed[1], fixed[2],
          beyond(rows, once, fixed[2]) / beyond(rows, ceiling, fixed[0]),
          beyond(rows, localStream, fixed[1]) / beyond(rows, ceiling, fixed[0]));
      System.out.printf("(b) the same with maxFilesPerTrigger=4: %,.0f rows/s, (b)/(d) = %.2f%n", byFour,
          byFour / ceiling);
      System.out.printf("(c) batch read: %,.0f rows/s, (c)/(d) = %.2f (%,d rows x 10 columns in %d files, %.1f MB)%n",
          batch, batch / ceiling, rows, FILES, table.snapshot().sizeInBytes() / 1e6);
      if (availableNow != null) {
        System.out.printf("(h) stream, Trigger.AvailableNow with maxFilesPerTrigger=4: %,.0f rows/s, (h)/(d) = %.2f%n",
            best[5], best[5] / ceiling);
      } else {
        System.out.printf("(h) Trigger.AvailableNow: not in Spark %s%n", spark.version());
      }
      long kit0 = serverCpuNanos();
      long t0 = System.nanoTime();
      runs.get(2).run();
      double wall = System.nanoTime() - t0;
      System.out.printf("    during (a) the kit's server (storage and API, in this JVM) used %.0f%% of the machine's "
          + "CPU time, which a remote server would leave to Spark%n",
          100 * (serverCpuNanos() - kit0) / (wall * Runtime.getRuntime().availableProcessors()));
    }
    deletionVectors(spark, dir);
    if (args.length == 0) { // "throughput": the reading figures only
      planning(spark, dir, true);
    }
    spark.stop();
  }

  /**
   * (f) a {@code Trigger.Once} stream of the snapshot of a table of the same rows with 10% deleted by deletion
   * vectors (one per file, delta response format, Spark's vectorized reader with the deleted rows left out), beside
   * (g) the same live rows in a table without them, and the deletion vector requests per file.
   */
  private static void deletionVectors(SparkSession spark, Path dir) throws Exception {
    DeltaTableWriter withDvs = DeltaTableWriter.create(dir.resolve("dv"), Samples.ORDERS).deletionVectors(true)
        .commit();
    withDvs.appendCopies(Samples.orders(0, ROWS_PER_FILE), FILES);
    withDvs.deleteWhere(r -> (Long) r.get("id") % 10 == 0);
    List<java.util.Map<String, Object>> live = new ArrayList<>(Samples.orders(0, ROWS_PER_FILE));
    live.removeIf(r -> (Long) r.get("id") % 10 == 0);
    DeltaTableWriter without = DeltaTableWriter.create(dir.resolve("nodv"), Samples.ORDERS).commit();
    without.appendCopies(live, FILES);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "dv", withDvs.dir(), true)
        .table("s", "b", "nodv", without.dir(), true).start()) {
      String profile = server.writeProfile(dir.resolve("dv.share")).toString();
      long[] dvRequests = {0};
      Run[] runs = {
          () -> {
            server.requests().clear();
            stream(spark, profile + "#s.b.dv", dir, null, "snapshot"); // the live rows, vectors applied
            dvRequests[0] = server.requests().entries(io.sharestream.testkit.server.Endpoint.STORAGE).stream()
                .filter(e -> e.path.contains("deletion_vector_")).count();
          },
          () -> stream(spark, profile + "#s.b.nodv", dir, null, "snapshot")};
      double[] best = best(runs, (long) live.size() * FILES);
      System.out.printf("(f) stream of the snapshot, Trigger.Once, %,d rows with 10%% deleted by deletion "
          + "vectors: %,.0f live rows/s; (g) the same %,d live rows without them: %,.0f rows/s; (f)/(g) = %.2f; "
          + "deletion vector requests per file: %.1f%n", (long) FILES * ROWS_PER_FILE, best[0],
          (long) live.size() * FILES, best[1], best[0] / best[1], dvRequests[0] / (double) FILES);
    }
  }

  /**
   * (i) The milliseconds (d), (e) and (a) take over a table of one row (best of the rounds): what a query costs
   * whatever it reads (starting, planning, checkpoint and log writes, stopping).
   */
  private static double[] fixedCosts(SparkSession spark, Path dir) throws Exception {
    DeltaTableWriter one = DeltaTableWriter.create(dir.resolve("one"), Samples.ORDERS).commit();
    one.append(Samples.orders(0, 1));
    String file = one.log().resolve(one.snapshot().files().iterator().next().path).toString();
    StructType schema = spark.read().parquet(file).schema();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "one", one.dir(), true).start()) {
      String path = server.writeProfile(dir.resolve("one.share")) + "#s.b.one";
      double[] perSecond = best(new Run[] {() -> noop(spark.read().parquet(file)),
          () -> localStream(spark, schema, one.dir(), dir), () -> stream(spark, path, dir, null)}, 1);
      return java.util.Arrays.stream(perSecond).map(r -> 1000 / r).toArray();
    }
  }

  /** Rows per second of a run of {@code rows} at {@code perSecond} once its fixed cost is taken out. */
  private static double beyond(long rows, double perSecond, double fixedMillis) {
    return rows / (rows / perSecond - fixedMillis / 1000);
  }

  interface Run {
    void run() throws Exception;
  }

  /**
   * Rows per second of each run, best of {@link #ROUNDS} rounds after {@link #WARM_UP} rounds: every round runs them
   * all in turn, so none is measured on a JVM that others warmed up for it.
   */
  private static double[] best(Run[] runs, long rows) throws Exception {
    double[] best = new double[runs.length];
    for (int round = 0; round < WARM_UP + ROUNDS; round++) {
      for (int i = 0; i < runs.length; i++) {
        long t0 = System.nanoTime();
        runs[i].run();
        if (round >= WARM_UP) {
          best[i] = Math.max(best[i], rows / ((System.nanoTime() - t0) / 1e9));
        }
      }
    }
    return best;
  }

  /** CPU time of the kit server's threads (its dispatcher and handlers) alive now. */
  private static long serverCpuNanos() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith("delta-sharing-test-server-") || t.getName().equals("HTTP-Dispatcher")) {
        sum += Math.max(0, mx.getThreadCpuTime(t.getId()));
      }
    }
    return sum;
  }

  static void noop(Dataset<Row> df) {
    df.write().format("noop").mode("overwrite").save();
  }

  static void stream(SparkSession spark, String path, Path dir, String maxFiles) throws Exception {
    stream(spark, path, dir, maxFiles, "0");
  }

  private static void stream(SparkSession spark, String path, Path dir, String maxFiles, String startingVersion)
      throws Exception {
    org.apache.spark.sql.streaming.DataStreamReader r = spark.readStream().format("deltaSharing")
        .option("startingVersion", startingVersion);
    if (maxFiles != null) {
      r = r.option("maxFilesPerTrigger", maxFiles);
    }
    Path checkpoint = Files.createTempDirectory(dir, "checkpoint");
    if (maxFiles == null) {
      r.load(path).writeStream().format("noop").option("checkpointLocation", checkpoint.toString())
          .trigger(Trigger.Once()).start().awaitTermination();
    } else {
      StreamingQuery q = r.load(path).writeStream().format("noop")
          .option("checkpointLocation", checkpoint.toString()).start();
      q.processAllAvailable();
      q.stop();
    }
  }

  /** {@code Trigger.AvailableNow}, where this Spark has it (3.3+); null on older ones. */
  private static Trigger availableNow() {
    try {
      return (Trigger) Trigger.class.getMethod("AvailableNow").invoke(null);
    } catch (NoSuchMethodException older) {
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void availableNow(SparkSession spark, String path, Path dir, Trigger availableNow)
      throws Exception {
    spark.readStream().format("deltaSharing").option("startingVersion", "0").option("maxFilesPerTrigger", "4")
        .load(path).writeStream().format("noop")
        .option("checkpointLocation", Files.createTempDirectory(dir, "h").toString()).trigger(availableNow).start()
        .awaitTermination();
  }

  /** Spark's file stream source over the table's Parquet files (its log directory is hidden from it), once. */
  static void localStream(SparkSession spark, StructType schema, Path tableDir, Path dir) throws Exception {
    spark.readStream().schema(schema).parquet(tableDir.toString())
        .writeStream().format("noop").option("checkpointLocation", Files.createTempDirectory(dir, "e").toString())
        .trigger(Trigger.Once()).start().awaitTermination();
  }

  /**
   * The driver's time to plan one micro-batch of one new version (Spark's latestOffset plus query planning
   * durations), with 100, 1,000 and 10,000 versions of history before it (unless {@code newVersions} is false); then
   * a stream from version 0 through that history with {@code maxFilesPerTrigger=10} ({@link HistoryRun}).
   */
  private static void planning(SparkSession spark, Path dir, boolean newVersions) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("history"), Samples.ORDERS).commit();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "history", table.dir(), true)
        .start()) {
      String path = server.writeProfile(dir.resolve("history.share")) + "#s.b.history";
      long id = 0;
      for (int versions : new int[] {100, 1_000, 10_000}) {
        while (table.version() < versions) {
          table.append(Samples.orders(id, id + 1));
          id++;
          if (table.version() % 100 == 0) {
            table.checkpoint(); // as Delta writers do every so often: snapshots start from it
          }
        }
        if (!newVersions) {
          continue;
        }
        StreamingQuery q = spark.readStream().format("deltaSharing").load(path).writeStream().format("noop")
            .option("checkpointLocation", Files.createTempDirectory(dir, "p").toString()).start();
        q.processAllAvailable();
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          table.append(Samples.orders(id, id + 1));
          id++;
          q.processAllAvailable();
          StreamingQueryProgress p = lastWithData(q);
          millis.add(p.durationMs().get("latestOffset") + p.durationMs().get("queryPlanning"));
        }
        q.stop();
        millis.sort(null);
        System.out.printf("planning a micro-batch of one new version after %,d versions: %d ms (median of 5)%n",
            versions, millis.get(2));
      }
      HistoryRun.run(spark, path, dir, id, 10);
    }
  }

  private static StreamingQueryProgress lastWithData(StreamingQuery q) throws InterruptedException {
    for (int i = 0; i < 200; i++) {
      StreamingQueryProgress[] recent = q.recentProgress();
      for (int j = recent.length - 1; j >= 0; j--) {
        if (recent[j].numInputRows() > 0) {
          return recent[j];
        }
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("no progress with data");
  }

}
