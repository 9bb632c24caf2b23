package io.sharestream.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of the seed document ("Delta Sharing tables as Spark Structured Streaming sources"), as written
 * there, in Java: readStream with the default and each startingVersion, skipChangeCommits, the complete example,
 * output modes, triggers, windowed aggregations, watermarks, deduplication into a Delta sink, monitoring,
 * checkpoints and error handling.
 */
class SeedExamplesTest {
  static final DeltaType.StructType EVENTS = DeltaType.struct(DeltaType.field("event_id", DeltaType.LONG, false),
      DeltaType.field("user_id", DeltaType.STRING), DeltaType.field("event_type", DeltaType.STRING),
      DeltaType.field("timestamp", DeltaType.TIMESTAMP), DeltaType.field("amount", DeltaType.decimal(10, 2)));
  static final Instant T0 = Instant.parse("2024-03-01T10:00:00Z");

  static SparkSession spark;
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter events;
  String tablePath;
  final List<StreamingQuery> queries = new ArrayList<>();

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() throws Exception {
    for (StreamingQuery q : queries) {
      q.stop();
    }
    if (server != null) {
      server.close();
    }
    spark.conf().unset("spark.delta.sharing.network.numRetries");
  }

  /** Events: user u<i%3>, type purchase for even ids else view, one a minute from T0. */
  static List<Map<String, Object>> events(long from, long to) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      Map<String, Object> r = new HashMap<>();
      r.put("event_id", i);
      r.put("user_id", "u" + (i % 3));
      r.put("event_type", i % 2 == 0 ? "purchase" : "view");
      r.put("timestamp", T0.plusSeconds(60 * i));
      r.put("amount", java.math.BigDecimal.valueOf(i * 100 + 99, 2));
      rows.add(r);
    }
    return rows;
  }

  /** A table of 12 versions: version v (1..11) appends events [10(v-1), 10v); version 12 deletes event 0. */
  private void serveEvents() {
    events = DeltaTableWriter.create(tmp.resolve("events"), EVENTS).commit();
    for (int v = 1; v <= 11; v++) {
      events.append(events(10L * (v - 1), 10L * v));
    }
    events.deleteWhere(r -> r.get("event_id").equals(0L)); // 12: a change commit
    server = DeltaSharingServer.builder().table("analytics", "streaming", "events", events.dir(), true).start();
    tablePath = server.writeProfile(tmp.resolve("production.share")) + "#analytics.streaming.events";
  }

  private StreamingQuery track(StreamingQuery q) {
    queries.add(q);
    return q;
  }

  private List<Long> ids(String memoryTable) {
    return spark.sql("SELECT event_id FROM " + memoryTable).collectAsList().stream().map(r -> r.getLong(0)).sorted()
        .collect(Collectors.toList());
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void basicStreamingWritesToTheConsoleForTesting() throws Exception {
    serveEvents();
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").load(tablePath);
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true));
    try {
      StreamingQuery q = track(streamingDF.writeStream().format("console").start());
      q.processAllAvailable(); // the default starts at the latest version: nothing yet
      events.append(events(500, 502));
      q.processAllAvailable();
    } finally {
      System.setOut(out);
    }
    assertThat(captured.toString()).contains("|     500|").contains("|     501|").doesNotContain("|       1|");
  }

  @Test
  void startingVersionPicksWhereTheStreamStarts() throws Exception {
    serveEvents();
    Map<String, List<Long>> seen = new HashMap<>();
    for (String v : new String[] {"0", "1", "10", "latest"}) {
      String name = "start_" + v;
      Dataset<Row> df = spark.readStream().format("deltaSharing").option("startingVersion", v)
          .option("skipChangeCommits", "true").load(tablePath);
      track(df.writeStream().format("memory").queryName(name).start()).processAllAvailable();
    }
    // default (latest) in a second query: no option at all
    track(spark.readStream().format("deltaSharing").load(tablePath).writeStream().format("memory")
        .queryName("start_default").start()).processAllAvailable();
    events.append(events(200, 203)); // 13
    for (StreamingQuery q : queries) {
      q.processAllAvailable();
    }
    assertThat(ids("start_0")).isEqualTo(concat(range(0, 110), range(200, 203)));
    assertThat(ids("start_1")).isEqualTo(concat(range(0, 110), range(200, 203)));
    assertThat(ids("start_10")).isEqualTo(concat(range(90, 110), range(200, 203)));
    assertThat(ids("start_latest")).isEqualTo(range(200, 203));
    assertThat(ids("start_default")).isEqualTo(range(200, 203));
  }

  private static List<Long> concat(List<Long> a, List<Long> b) {
    List<Long> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Test
  void skipChangeCommitsStreamsAppendOnlyDataPastUpdatesAndDeletes() throws Exception {
    serveEvents();
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("skipChangeCommits", "true").load(tablePath);
    track(streamingDF.writeStream().format("memory").queryName("skip").start()).processAllAvailable();
    assertThat(ids("skip")).isEqualTo(range(0, 110)); // the delete of version 12 is skipped: event 0 stays
    Dataset<Row> withChanges = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .load(tablePath);
    track(withChanges.writeStream().format("memory").queryName("noskip").start()).processAllAvailable();
    // without it, the change commit's new rows flow: the rewritten file's rows 1..9 again
    assertThat(ids("noskip")).hasSize(110 + 9);
  }

  @Test
  void theCompleteExampleFailsWithSparksOwnErrorAndItsWorkingFormsCountRight() throws Exception {
    serveEvents();
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("skipChangeCommits", "true").load(tablePath);
    Dataset<Row> counts = streamingDF.filter(col("event_type").equalTo("purchase")).groupBy(col("user_id")).count();
    // as written: an aggregation without a watermark into the Parquet sink (append mode only)
    assertThatThrownBy(() -> counts.writeStream().format("parquet").option("path", tmp.resolve("purchases").toString())
        .option("checkpointLocation", tmp.resolve("checkpoints/purchases").toString())
        .trigger(Trigger.ProcessingTime(10, TimeUnit.SECONDS)).start())
        .isInstanceOf(AnalysisException.class)
        .hasMessageMatching("(?s).*(Append output mode not supported when there are streaming aggregations"
            + "|Invalid streaming output mode: append).*"); // Spark 3.x | Spark 4 wording

    // working form 1: complete mode to the memory sink, same trigger and checkpoint
    StreamingQuery q = track(counts.writeStream().outputMode("complete").format("memory").queryName("purchases")
        .option("checkpointLocation", tmp.resolve("checkpoints/complete").toString())
        .trigger(Trigger.ProcessingTime(10, TimeUnit.SECONDS)).start());
    q.processAllAvailable();
    Map<String, Long> byUser = spark.sql("SELECT user_id, count FROM purchases").collectAsList().stream()
        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getLong(1)));
    // 55 purchases (even ids 0..108): u0 gets ids = 0 mod 6, u1 = 4 mod 6, u2 = 2 mod 6
    assertThat(byUser).containsEntry("u0", 19L).containsEntry("u1", 18L).containsEntry("u2", 18L);

    // working form 2: a watermarked windowed count into Parquet, in append mode
    Dataset<Row> windowed = streamingDF.filter(col("event_type").equalTo("purchase"))
        .withWatermark("timestamp", "10 minutes").groupBy(window(col("timestamp"), "30 minutes"), col("user_id"))
        .count();
    String out = tmp.resolve("output/windowed").toString();
    StreamingQuery w = track(windowed.writeStream().format("parquet").outputMode("append").option("path", out)
        .option("checkpointLocation", tmp.resolve("checkpoints/windowed").toString()).start());
    w.processAllAvailable();
    events.append(events(2000, 2001)); // an event far later moves the watermark past every window
    w.processAllAvailable();
    w.processAllAvailable();
    long total = spark.read().parquet(out).selectExpr("sum(count)").first().getLong(0);
    assertThat(total).isEqualTo(55);
  }

  @Test
  void appendCompleteAndUpdateOutputModesAndEveryTrigger() throws Exception {
    serveEvents();
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("skipChangeCommits", "true").load(tablePath);
    String out = tmp.resolve("output/data").toString();
    StreamingQuery append = track(streamingDF.writeStream().format("parquet").outputMode("append")
        .option("path", out).option("checkpointLocation", tmp.resolve("checkpoints/data").toString()).start());
    append.processAllAvailable();
    assertThat(spark.read().parquet(out).count()).isEqualTo(110);

    Dataset<Row> byType = streamingDF.groupBy("event_type").count();
    track(byType.writeStream().outputMode("complete").format("memory").queryName("complete_counts")
        .trigger(Trigger.ProcessingTime(100)).start()).processAllAvailable();
    assertThat(spark.sql("SELECT count FROM complete_counts WHERE event_type = 'view'").first().getLong(0))
        .isEqualTo(55);
    track(byType.writeStream().outputMode("update").format("memory").queryName("update_counts").start())
        .processAllAvailable();
    assertThat(spark.sql("SELECT max(count) FROM update_counts WHERE event_type = 'purchase'").first().getLong(0))
        .isEqualTo(55);

    StreamingQuery once = track(streamingDF.writeStream().format("memory").queryName("once")
        .trigger(Trigger.Once()).start());
    assertThat(once.awaitTermination(120_000)).isTrue();
    assertThat(ids("once")).isEqualTo(range(0, 110));
  }

  @Test
  void windowedAggregationsWatermarksAndDeduplicationIntoADeltaSink() throws Exception {
    serveEvents();
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("skipChangeCommits", "true").load(tablePath);
    Dataset<Row> windowedCounts = streamingDF.groupBy(window(col("timestamp"), "10 minutes", "5 minutes"),
        col("event_type")).count();
    StreamingQuery windows = track(windowedCounts.writeStream().format("memory").outputMode("complete")
        .queryName("windows").start());
    windows.processAllAvailable();
    // 110 events a minute apart, each in two sliding windows of 10 minutes
    assertThat(spark.sql("SELECT sum(count) FROM windows").first().getLong(0)).isEqualTo(220);
    windows.stop(); // an idle stream still asks for new versions at every trigger: the next queries run alone

    Dataset<Row> withWatermark = streamingDF.withWatermark("timestamp", "1 hour")
        .groupBy(window(col("timestamp"), "10 minutes"), col("user_id")).count();
    String windowedOut = tmp.resolve("output/windowed").toString();
    StreamingQuery w = track(withWatermark.writeStream().format("parquet").outputMode("append")
        .option("path", windowedOut).option("checkpointLocation", tmp.resolve("checkpoints/w").toString()).start());
    w.processAllAvailable();
    events.append(events(5000, 5001));
    w.processAllAvailable();
    w.processAllAvailable();
    assertThat(spark.read().parquet(windowedOut).selectExpr("sum(count)").first().getLong(0)).isEqualTo(110);
    w.stop();

    // the same events twice (a second append of ids 0..9), deduplicated by key within the watermark
    events.append(events(0, 10));
    Dataset<Row> deduplicated = streamingDF.withWatermark("timestamp", "24 hours")
        .dropDuplicates(new String[] {"user_id", "event_id"});
    String deltaOut = tmp.resolve("output/deduplicated").toString();
    track(deduplicated.writeStream().format("delta").outputMode("append").option("path", deltaOut)
        .option("checkpointLocation", tmp.resolve("checkpoints/deduplicated").toString()).start())
        .processAllAvailable();
    Dataset<Row> delta = spark.read().format("delta").load(deltaOut);
    assertThat(delta.count()).isEqualTo(111);
    assertThat(delta.select("event_id").distinct().count()).isEqualTo(111);
  }

  @Test
  void monitoringReportsTheQueryAndItsProgress() throws Exception {
    serveEvents();
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("skipChangeCommits", "true").option("maxFilesPerTrigger", "4").load(tablePath);
    StreamingQuery query = track(streamingDF.writeStream().format("parquet")
        .option("path", tmp.resolve("output").toString())
        .option("checkpointLocation", tmp.resolve("checkpoints").toString()).queryName("monitored").start());
    query.processAllAvailable();
    assertThat(query.id()).isNotNull();
    assertThat(query.name()).isEqualTo("monitored");
    assertThat(query.isActive()).isTrue();
    // progress is reported just after a batch commits: wait for the last one's report
    long rows = 0;
    StreamingQueryProgress[] recent = new StreamingQueryProgress[0];
    for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30); rows < 110
        && System.nanoTime() < deadline; Thread.sleep(50)) {
      recent = query.recentProgress();
      rows = 0;
      for (StreamingQueryProgress p : recent) {
        rows += p.numInputRows();
      }
    }
    assertThat(rows).isEqualTo(110);
    StreamingQueryProgress progress = query.lastProgress();
    assertThat(progress).isNotNull();
    assertThat(progress.processedRowsPerSecond()).isGreaterThanOrEqualTo(0);
    // 11 files, 4 per trigger: three batches carry data, each from where the previous ended
    List<StreamingQueryProgress> data = new ArrayList<>();
    for (StreamingQueryProgress p : recent) {
      if (p.numInputRows() > 0) {
        data.add(p);
      }
    }
    assertThat(data).hasSize(3);
    assertThat(data.get(0).batchId()).isZero();
    assertThat(data.get(0).sources()[0].endOffset()).contains("\"sourceVersion\":1")
        .contains("\"tableId\":\"" + events.tableId() + "\"").contains("\"tableVersion\":5"); // versions 1-4 read
    assertThat(data.get(1).sources()[0].startOffset()).isEqualTo(data.get(0).sources()[0].endOffset());
    assertThat(data.get(2).sources()[0].endOffset()).contains("\"tableVersion\":13").contains("\"index\":-1");
    assertThat(progress.sources()[0].description()).contains("analytics.streaming.events");
  }

  @Test
  void errorHandlingSeesAServerFailureThroughQueryException() throws Exception {
    serveEvents();
    spark.conf().set("spark.delta.sharing.network.numRetries", "1"); // fail after one retry, not after 15 s
    Dataset<Row> streamingDF = spark.readStream().format("deltaSharing").load(tablePath);
    StreamingQuery query = track(streamingDF.writeStream().format("parquet")
        .option("path", tmp.resolve("output").toString())
        .option("checkpointLocation", tmp.resolve("checkpoints").toString()).start());
    query.processAllAvailable();
    server.faults().failWith(Endpoint.VERSION, 100, 500); // the server goes down for good
    server.faults().failWith(Endpoint.QUERY, 100, 500);
    events.append(events(300, 301));
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (query.isActive() && System.nanoTime() < deadline) {
      if (query.exception().isDefined()) {
        break;
      }
      Thread.sleep(500);
    }
    assertThat(query.exception().isDefined()).isTrue();
    assertThat(query.exception().get().getMessage()).contains("HTTP 500").contains("kept failing");
  }
}
