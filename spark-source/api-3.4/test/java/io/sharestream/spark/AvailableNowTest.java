package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Trigger.AvailableNow} (Spark 3.4+): the table's version is fixed when the query starts; everything up to it
 * is read in as many micro-batches as the read limits make, versions committed meanwhile wait for the next run, and
 * the query stops by itself. A run from the same checkpoint continues where the last one ended.
 */
class AvailableNowTest {
  static SparkSession spark;
  /** Rows per micro-batch of the running query, by batch id. */
  static final Map<Long, Long> BATCH_ROWS = new ConcurrentSkipListMap<>();
  /** The table the running query's first batch appends to, as a writer committing while the query runs would. */
  static volatile DeltaTableWriter appendInFirstBatch;

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  String path;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @BeforeEach
  void table() throws Exception {
    table = DeltaTableWriter.create(tmp.resolve("table"), ChangeMatrix.SCHEMA).commit();
    for (int v = 0; v < 4; v++) { // versions 1-4, 3 files of 2 rows each: ids 0..23
      table.append(ChangeMatrix.rows(6 * v, 6 * v + 6), 2);
    }
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    path = server.writeProfile(tmp.resolve("t.share")) + "#s.sc.t";
    BATCH_ROWS.clear();
  }

  @AfterEach
  void stop() {
    appendInFirstBatch = null;
    if (server != null) {
      server.close();
    }
  }

  @Test
  void readsUpToTheVersionAtItsStartInBatchesOfMaxFilesThenStopsAndARestartContinues() throws Exception {
    appendInFirstBatch = table; // version 5, committed while the first run reads
    Map<String, String> options = Map.of("startingVersion", "0", "maxFilesPerTrigger", "5");

    StreamingQuery first = runToItsEnd(options);
    assertThat(ids()).isEqualTo(range(0, 24));
    assertThat(BATCH_ROWS.values()).containsExactly(10L, 10L, 4L); // 12 files, 5 per batch
    assertThat(table.log().latestVersion()).isEqualTo(5);
    // each batch's progress says how far behind the table the stream is
    Map<String, String> afterFirst = metrics(first.recentProgress()[0]);
    assertThat(afterFirst).containsEntry("nextVersion", "2"); // 5 files read: version 1's 3 and 2 of version 2
    long latest = Long.parseLong(afterFirst.get("latestVersion"));
    assertThat(latest).isBetween(4L, 5L);
    assertThat(afterFirst).containsEntry("versionsBehind", Long.toString(latest - 1));
    if (latest == 4) { // versions 1-4 listed: 7 of their 12 files not read yet
      assertThat(afterFirst).containsEntry("filesBehind", "7");
      assertThat(Long.parseLong(afterFirst.get("bytesBehind"))).isPositive();
    }
    Map<String, String> afterLast = metrics(first.lastProgress());
    assertThat(afterLast).containsEntry("nextVersion", "5").containsEntry("versionsBehind",
        Long.toString(Long.parseLong(afterLast.get("latestVersion")) - 4));

    BATCH_ROWS.clear();
    StreamingQuery second = runToItsEnd(options);
    assertThat(ids()).isEqualTo(range(0, 30)); // version 5 now, once
    assertThat(BATCH_ROWS.values()).containsExactly(6L);
    assertThat(metrics(second.lastProgress())).containsEntry("latestVersion", "5").containsEntry("nextVersion", "6")
        .containsEntry("versionsBehind", "0").containsEntry("filesBehind", "0").containsEntry("bytesBehind", "0");

    BATCH_ROWS.clear();
    runToItsEnd(options); // nothing new: no batch, and the query still stops
    assertThat(BATCH_ROWS).isEmpty();
    assertThat(ids()).isEqualTo(range(0, 30));
  }

  @Test
  void honoursMaxBytesPerTriggerAndASnapshotStart() throws Exception {
    runToItsEnd(Map.of("startingVersion", "snapshot", "maxBytesPerTrigger", "1"));
    assertThat(ids()).isEqualTo(range(0, 24));
    assertThat(BATCH_ROWS.values()).hasSize(12).containsOnly(2L); // a soft budget: one file per batch
  }

  @Test
  void aCatalogTableStreamsAlikeWithItsMetrics() throws Exception {
    // the tests' session has Delta's catalog: Spark reads the table through the source's DSv1 stream
    spark.sql("CREATE TABLE available_now USING deltaSharing LOCATION '" + path + "'");
    try {
      StreamingQuery q = runToItsEnd(Map.of("startingVersion", "0", "maxFilesPerTrigger", "5"), "available_now");
      assertThat(ids()).isEqualTo(range(0, 24));
      assertThat(BATCH_ROWS.values()).containsExactly(10L, 10L, 4L);
      assertThat(metrics(q.lastProgress())).containsEntry("latestVersion", "4").containsEntry("nextVersion", "5")
          .containsEntry("versionsBehind", "0");
    } finally {
      spark.sql("DROP TABLE available_now");
    }
  }

  @Test
  void aBearerTokenNearItsExpiryShowsInTheSourceMetrics() throws Exception {
    java.time.Instant expires = java.time.Instant.now().plus(java.time.Duration.ofDays(3));
    java.nio.file.Path profile = java.nio.file.Files.write(tmp.resolve("expiring.share"),
        ("{\"shareCredentialsVersion\":1,\"endpoint\":\"" + server.endpoint() + "\",\"bearerToken\":\""
            + server.bearerToken() + "\",\"expirationTime\":\"" + expires + "\"}").getBytes(
            java.nio.charset.StandardCharsets.UTF_8));
    path = profile + "#s.sc.t";
    StreamingQuery q = runToItsEnd(Map.of("startingVersion", "0"));
    long left = Long.parseLong(metrics(q.lastProgress()).get("credentialsExpireInSeconds"));
    assertThat(left).isBetween(java.time.Duration.ofDays(3).minusMinutes(10).getSeconds(),
        java.time.Duration.ofDays(3).getSeconds());
  }

  /** The source metrics of a micro-batch's progress. */
  private static Map<String, String> metrics(org.apache.spark.sql.streaming.StreamingQueryProgress progress) {
    return progress.sources()[0].metrics();
  }

  private StreamingQuery runToItsEnd(Map<String, String> options) throws Exception {
    return runToItsEnd(options, null);
  }

  /**
   * Runs the stream of the table, or of the catalog table {@code catalogTable}, with {@code Trigger.AvailableNow}
   * into a Parquet directory until it stops by itself.
   */
  private StreamingQuery runToItsEnd(Map<String, String> options, String catalogTable) throws Exception {
    DataStreamReader reader = spark.readStream().format("deltaSharing");
    for (Map.Entry<String, String> o : options.entrySet()) {
      reader = reader.option(o.getKey(), o.getValue());
    }
    String out = tmp.resolve("out").toString();
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> {
      DeltaTableWriter writer = appendInFirstBatch;
      if (writer != null) {
        appendInFirstBatch = null;
        writer.append(ChangeMatrix.rows(24, 30), 2);
      }
      BATCH_ROWS.put(id, batch.count());
      batch.write().mode(SaveMode.Append).parquet(out);
    };
    StreamingQuery q = (catalogTable == null ? reader.load(path) : reader.table(catalogTable)).writeStream()
        .foreachBatch(sink)
        .option("checkpointLocation", tmp.resolve("checkpoint").toString()).trigger(Trigger.AvailableNow()).start();
    assertThat(q.awaitTermination(120_000)).as("the query stops by itself").isTrue();
    assertThat(q.exception().isEmpty()).isTrue();
    return q;
  }

  private List<Long> ids() {
    return spark.read().parquet(tmp.resolve("out").toString()).collectAsList().stream().map(r -> r.getLong(0))
        .sorted().collect(Collectors.toList());
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }
}
