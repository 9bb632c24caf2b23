package io.sharestream.demo.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.window;

import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;

/**
 * The demo's Spark driver: the user document's queries on the shared events table, on Spark 3.1.1 with the
 * {@code deltaSharing} source.
 * <ul>
 *   <li>{@code rows}: every row from version 0 in the demo's mode, each micro-batch's event ids and change types
 *       appended to {@code spark-rows.csv} for the demo's cross-check;</li>
 *   <li>{@code purchases}: the document's complete example ({@code skipChangeCommits}, purchases counted per
 *       user, complete output mode);</li>
 *   <li>{@code windows}: its watermark example (events per type in 20-second windows, watermark 10 seconds, append
 *       mode: a window is printed once it is final);</li>
 *   <li>and its monitoring: {@code lastProgress} of {@code rows} every 10 seconds.</li>
 * </ul>
 * Lines starting with {@code @} are for the demo (machine-readable progress); the others are for people. The driver
 * stops when its standard input closes (the demo ending, or gone).
 *
 * <p>Arguments: {@code <profile>#<share>.<schema>.<table> <mode> <work dir>}, mode one of {@code default},
 * {@code skipChangeCommits}, {@code readChangeFeed}.
 */
public final class SparkSide {
  private static final Pattern TABLE_VERSION = Pattern.compile("\"tableVersion\"\\s*:\\s*(\\d+)");
  private static final Pattern INDEX = Pattern.compile("\"index\"\\s*:\\s*(-?\\d+)");

  private SparkSide() {}

  public static void main(String[] args) throws Exception {
    String table = args[0];
    String mode = args[1];
    Path work = Path.of(args[2]);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sharestream-demo")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    spark.streams().addListener(new ProgressLines());

    StreamingQuery rows = rows(spark, table, mode, work);
    StreamingQuery purchases = purchases(spark, table, work);
    StreamingQuery windows = windows(spark, table, work);
    say("Spark %s: queries 'rows' (%s), 'purchases' (skipChangeCommits) and 'windows' (watermark) running",
        spark.version(), mode);

    Thread monitor = new Thread(() -> monitor(rows), "demo-monitor");
    monitor.setDaemon(true);
    monitor.start();
    while (System.in.read() >= 0) {
      // the demo holds our standard input open while it wants us running
    }
    if (!spark.sparkContext().isStopped()) { // else a shutdown (Ctrl-C) stopped it already
      for (StreamingQuery q : List.of(rows, purchases, windows)) {
        q.stop();
      }
      spark.stop();
    }
  }

  /** Every row in the demo's mode, appended to {@code spark-rows.csv} per micro-batch. */
  private static StreamingQuery rows(SparkSession spark, String table, String mode, Path work) throws Exception {
    DataStreamReader reader = spark.readStream().format("deltaSharing").option("startingVersion", "0");
    if (!mode.equals("default")) {
      reader = reader.option(mode, "true");
    }
    Dataset<Row> df = reader.load(table);
    Dataset<Row> labelled = df.select(col("event_id"),
        mode.equals("readChangeFeed") ? col("_change_type") : lit("new").as("_change_type"));
    Path out = work.resolve("spark-rows.csv");
    VoidFunction2<Dataset<Row>, Long> append = (batch, id) -> {
      List<Row> got = batch.collectAsList();
      try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND)) {
        for (Row r : got) {
          w.write(r.getLong(0) + "," + r.getString(1) + "\n");
        }
      }
    };
    return labelled.writeStream().queryName("rows").foreachBatch(append)
        .option("checkpointLocation", work.resolve("checkpoints/rows").toString())
        .trigger(Trigger.ProcessingTime("2 seconds")).start();
  }

  /** The document's complete example: purchases per user, from append commits only. */
  private static StreamingQuery purchases(SparkSession spark, String table, Path work) throws Exception {
    Dataset<Row> perUser = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("skipChangeCommits", "true").load(table)
        .filter(col("event_type").equalTo("purchase")).groupBy(col("user_id")).count();
    VoidFunction2<Dataset<Row>, Long> top = (batch, id) -> {
      List<Row> best = batch.orderBy(col("count").desc(), col("user_id")).limit(3).collectAsList();
      if (!best.isEmpty()) {
        say("purchases (skipChangeCommits, complete mode), top buyers: %s", best.stream()
            .map(r -> r.getString(0) + " " + r.getLong(1)).collect(Collectors.joining(", ")));
      }
    };
    return perUser.writeStream().queryName("purchases").outputMode("complete").foreachBatch(top)
        .option("checkpointLocation", work.resolve("checkpoints/purchases").toString())
        .trigger(Trigger.ProcessingTime("10 seconds")).start();
  }

  /** The document's watermark example, scaled to a demo: events per type in 20 s windows, final ones printed. */
  private static StreamingQuery windows(SparkSession spark, String table, Path work) throws Exception {
    Dataset<Row> counts = spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("skipChangeCommits", "true").load(table)
        .withWatermark("event_time", "10 seconds")
        .groupBy(window(col("event_time"), "20 seconds"), col("event_type")).agg(count(lit(1)).as("events"));
    VoidFunction2<Dataset<Row>, Long> print = (batch, id) -> {
      for (Row r : batch.orderBy(col("window"), col("event_type")).collectAsList()) {
        Row w = r.getStruct(0);
        say("window %s-%s (watermark 10 s, append mode, final): %-8s %d", time(w.get(0)), time(w.get(1)),
            r.getString(1), r.getLong(2));
      }
    };
    return counts.writeStream().queryName("windows").outputMode("append").foreachBatch(print)
        .option("checkpointLocation", work.resolve("checkpoints/windows").toString())
        .trigger(Trigger.ProcessingTime("5 seconds")).start();
  }

  private static String time(Object timestamp) {
    return timestamp.toString().substring(11, 19);
  }

  /** The document's monitoring example, on {@code rows}. */
  private static void monitor(StreamingQuery rows) {
    while (rows.isActive()) {
      try {
        Thread.sleep(10_000);
      } catch (InterruptedException e) {
        return;
      }
      StreamingQueryProgress p = rows.lastProgress();
      if (p != null) {
        say("rows.lastProgress: batch %d, %d input rows, %.1f rows/s processed", p.batchId(), p.numInputRows(),
            p.processedRowsPerSecond());
      }
    }
  }

  /**
   * {@code @batch <rows in batch> <last table version read>} after each micro-batch of {@code rows} (its end offset
   * {@code (v, -1)} means: nothing of v read yet).
   */
  private static final class ProgressLines extends StreamingQueryListener {
    @Override
    public void onQueryStarted(QueryStartedEvent event) {}

    @Override
    public void onQueryProgress(QueryProgressEvent event) {
      StreamingQueryProgress p = event.progress();
      if ("rows".equals(p.name()) && p.sources().length > 0 && p.numInputRows() > 0) {
        String end = String.valueOf(p.sources()[0].endOffset());
        Matcher version = TABLE_VERSION.matcher(end);
        Matcher index = INDEX.matcher(end);
        long read = version.find() && index.find()
            ? Long.parseLong(version.group(1)) - (index.group(1).equals("-1") ? 1 : 0) : -1;
        System.out.printf(Locale.ROOT, "@batch %d %d%n", p.numInputRows(), read);
      }
    }

    @Override
    public void onQueryTerminated(QueryTerminatedEvent event) {
      if (event.exception().isDefined()) {
        say("query %s failed: %s", event.id(), event.exception().get());
      }
    }
  }

  private static void say(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
  }

}
