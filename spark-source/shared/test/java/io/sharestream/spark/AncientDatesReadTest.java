package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Dates and timestamps over Spark's whole range (before 1582-10-15 included) in files Delta Lake wrote on this Spark
 * in each calendar write mode and timestamp encoding: a batch read and a stream from version 0 give exactly what
 * Delta's own read gives; for files naming no calendar, the source's rebase options decide in a batch read, a stream
 * and a change-feed stream alike.
 */
class AncientDatesReadTest {
  private static final String PARQUET = SparkApi.PARQUET_CONFS;
  static SparkSession spark;
  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();
  String zone;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @BeforeEach
  void java8Values() {
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
    zone = TestSpark.sessionZone("UTC");
  }

  @AfterEach
  void stop() {
    servers.forEach(DeltaSharingServer::close);
    spark.conf().unset("spark.sql.datetime.java8API.enabled");
    TestSpark.sessionZone(zone);
    for (String key : List.of(PARQUET + "datetimeRebaseModeInWrite",
        PARQUET + "int96RebaseModeInWrite", "spark.sql.parquet.outputTimestampType")) {
      spark.conf().unset(key);
    }
  }

  /**
   * Files naming no calendar (the kit's): the source's {@code datetimeRebaseMode} option decides, over a session
   * reading them LEGACY, in a batch read, a stream and a change-feed stream alike.
   */
  @org.junit.jupiter.api.Test
  void theRebaseOptionDecidesForFilesNamingNoCalendarInBatchAndStreamsAlike() throws Exception {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("kit"), Samples.CALENDAR_EDGES).commit();
    List<Map<String, Object>> rows = new ArrayList<>(Samples.calendarEdgeRows());
    rows.add(Samples.row("id", 100L, "d", LocalDate.of(1582, 10, 10), "ts", Instant.parse("1582-10-10T12:00:00Z")));
    w.append(rows);
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", w.dir(), true).start();
    servers.add(s);
    String path = s.writeProfile(tmp.resolve("kit.share")) + "#s.sc.t";
    spark.conf().set(PARQUET + "datetimeRebaseModeInRead", "LEGACY");
    spark.conf().set(PARQUET + "int96RebaseModeInRead", "LEGACY");
    try {
      List<String> batch = texts(spark.read().format("deltaSharing").option("datetimeRebaseMode", "CORRECTED")
          .option("int96RebaseMode", "CORRECTED").load(path));
      assertThat(batch).contains("100 1582-10-10 1582-10-10 12:00:00", "0 0001-01-01 0001-01-01 00:00:00");
      for (boolean changeFeed : new boolean[] {false, true}) {
        String name = "kit_calendar" + (changeFeed ? "_cdf" : "");
        StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0")
            .option("datetimeRebaseMode", "CORRECTED").option("int96RebaseMode", "CORRECTED")
            .option("readChangeFeed", String.valueOf(changeFeed)).load(path).writeStream().format("memory")
            .queryName(name).trigger(Trigger.Once()).start();
        assertThat(q.awaitTermination(180_000)).isTrue();
        assertThat(texts(spark.table(name))).as(changeFeed ? "change feed" : "stream").isEqualTo(batch);
      }
    } finally {
      spark.conf().unset(PARQUET + "datetimeRebaseModeInRead");
      spark.conf().unset(PARQUET + "int96RebaseModeInRead");
    }
  }

  private static List<String> texts(Dataset<Row> df) {
    return df.selectExpr("CAST(id AS STRING)", "CAST(d AS STRING)", "CAST(ts AS STRING)").collectAsList().stream()
        .map(r -> r.getString(0) + " " + r.getString(1) + " " + r.getString(2)).sorted()
        .collect(Collectors.toList());
  }

  @ParameterizedTest(name = "{0} calendar, {1} timestamps")
  @CsvSource({"LEGACY, INT96", "LEGACY, TIMESTAMP_MICROS", "CORRECTED, INT96", "CORRECTED, TIMESTAMP_MICROS"})
  void batchStreamAndChangeFeedReadAncientDatesAsDeltaDoes(String calendar, String encoding) throws Exception {
    Path table = edgesWrittenByDelta(calendar, encoding);
    List<String> expected = texts(spark.read().format("delta").load(table.toString()));
    assertThat(expected).hasSize(Samples.CALENDAR_EDGE_DATES.size() + 2);
    if (calendar.equals("CORRECTED")) { // proleptic days as they are (LEGACY moves the skipped ones to 1582-10-15)
      assertThat(expected).contains("100 1582-10-10 1582-10-10 12:00:00");
    }

    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", table, true).start();
    servers.add(s);
    String path = s.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
    assertThat(texts(spark.read().format("deltaSharing").load(path))).as("batch").isEqualTo(expected);
    String name = "ancient_" + calendar.toLowerCase() + "_" + encoding.toLowerCase();
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(path)
        .writeStream().format("memory").queryName(name).trigger(Trigger.Once()).start();
    assertThat(q.awaitTermination(180_000)).isTrue();
    assertThat(texts(spark.table(name))).as("stream").isEqualTo(expected);
  }

  /**
   * The internal values (days, microseconds) of a stream equal a batch read's and Delta's own on every line, the days
   * the hybrid calendar skips (1582-10-05 to 14) included, with a session on the default {@code java.sql} types: the
   * stream writes to a Parquet sink, which keeps internal values. (Spark 3.1's {@code foreachBatch} and memory sinks
   * hand each batch over as {@code java.sql} rows, moving those ten days to 1582-10-15 for any source, Delta's own
   * included: {@code spark.sql.datetime.java8API.enabled=true} keeps them.)
   */
  @ParameterizedTest(name = "{0} calendar, {1} timestamps")
  @CsvSource({"LEGACY, INT96", "LEGACY, TIMESTAMP_MICROS", "CORRECTED, INT96", "CORRECTED, TIMESTAMP_MICROS"})
  void aStreamsInternalValuesAreTheBatchReadsOnEveryLine(String calendar, String encoding) throws Exception {
    Path table = edgesWrittenByDelta(calendar, encoding);
    spark.conf().set("spark.sql.datetime.java8API.enabled", "false");
    spark.conf().set(PARQUET + "datetimeRebaseModeInWrite", "CORRECTED"); // the sink keeps proleptic values
    spark.conf().set(PARQUET + "int96RebaseModeInWrite", "CORRECTED");
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", table, true).start();
    servers.add(s);
    String path = s.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
    List<String> delta = internal(spark.read().format("delta").load(table.toString()));
    if (calendar.equals("CORRECTED")) { // written as they are (LEGACY writes move them to 1582-10-15)
      assertThat(delta).contains("100 -141432 -12219681600000000"); // 1582-10-10 (and 12:00:00 UTC)
    }
    assertThat(internal(spark.read().format("deltaSharing").load(path))).as("batch").isEqualTo(delta);
    Path sink = tmp.resolve("sink");
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(path)
        .writeStream().format("parquet").option("path", sink.toString())
        .option("checkpointLocation", tmp.resolve("checkpoint").toString()).trigger(Trigger.Once()).start();
    assertThat(q.awaitTermination(180_000)).isTrue();
    assertThat(internal(spark.read().parquet(sink.toString()))).as("stream").isEqualTo(delta);
  }

  /**
   * A Delta table Delta Lake writes on this Spark in {@code calendar} write mode and {@code encoding}: version 0
   * empty, version 1 one file of the calendar's edge dates and timestamps and two of the days the hybrid calendar
   * skips (ids 100 and 101: 1582-10-10 12:00 and 1582-10-14 23:59:59.999999, proleptic values a legacy write moves).
   */
  private Path edgesWrittenByDelta(String calendar, String encoding) {
    spark.conf().set(PARQUET + "datetimeRebaseModeInWrite", calendar);
    spark.conf().set(PARQUET + "int96RebaseModeInWrite", calendar);
    spark.conf().set("spark.sql.parquet.outputTimestampType", encoding);
    Path table = tmp.resolve("delta");
    List<Row> rows = new ArrayList<>();
    for (Map<String, Object> r : Samples.calendarEdgeRows()) {
      rows.add(RowFactory.create(r.get("id"), r.get("d"), r.get("ts")));
    }
    rows.add(RowFactory.create(100L, LocalDate.of(1582, 10, 10), Instant.parse("1582-10-10T12:00:00Z")));
    rows.add(RowFactory.create(101L, LocalDate.of(1582, 10, 14), Instant.parse("1582-10-14T23:59:59.999999Z")));
    spark.sql("CREATE TABLE delta.`" + table + "` (id BIGINT, d DATE, ts TIMESTAMP) USING delta"); // 0
    spark.createDataFrame(rows, DataTypes.createStructType(List.of(
        DataTypes.createStructField("id", DataTypes.LongType, true),
        DataTypes.createStructField("d", DataTypes.DateType, true),
        DataTypes.createStructField("ts", DataTypes.TimestampType, true)))).coalesce(1)
        .write().format("delta").mode("append").save(table.toString()); // 1
    return table;
  }

  /** Each line's id, days since the epoch and microseconds since the epoch, as Spark holds them. */
  private static List<String> internal(Dataset<Row> df) {
    return df.selectExpr("id", "unix_date(d)", "unix_micros(ts)").collectAsList().stream()
        .map(r -> r.getLong(0) + " " + r.get(1) + " " + r.get(2)).sorted().collect(Collectors.toList());
  }
}
