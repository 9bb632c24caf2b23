package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query that stopped in its first micro-batch (its offsets written, its commit not) restarts from its checkpoint
 * with that batch as it was planned, while the table moved on: the first offset is kept under the checkpoint, not
 * computed again from the table's new latest version. Each start option, restarted twice.
 */
class FirstBatchRestartTest {
  static SparkSession spark;
  /** Set while the sink must fail its first batch, as a driver killed in batch 0 would leave the checkpoint. */
  static final AtomicBoolean FAIL_FIRST_BATCH = new AtomicBoolean();
  @TempDir Path tmp;
  DeltaSharingServer server;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aSnapshotStreamStoppedInItsFirstBatchRestartsWithThatSnapshot() throws Exception {
    DeltaTableWriter table = appended(4); // versions 1-4, 3 files of 2 rows each: ids 0..23
    List<Long> ids = restartTwice(table, Map.of("startingVersion", "snapshot", "maxFilesPerTrigger", "1"));
    assertThat(ids).isEqualTo(range(0, 36)); // the snapshot at 4, then versions 5 and 6
  }

  @Test
  void aLatestStreamStoppedInItsEmptyFirstBatchLosesNoLaterVersion() throws Exception {
    DeltaTableWriter table = appended(4);
    List<Long> ids = restartTwice(table, Map.of());
    assertThat(ids).isEqualTo(range(24, 36)); // versions 5 and 6, committed after the first run
  }

  @Test
  void aTimestampStreamStoppedInItsFirstBatchRestartsAtTheSameVersion() throws Exception {
    DeltaTableWriter table = appended(4);
    Instant v2 = Instant.ofEpochMilli(table.log().timestamp(2));
    List<Long> ids = restartTwice(table, Map.of("startingTimestamp", v2.toString(), "maxFilesPerTrigger", "1"));
    assertThat(ids).isEqualTo(range(6, 36)); // versions 2 to 6
  }

  /**
   * Runs the stream three times into a Parquet directory: the first run fails in batch 0 after its offsets are
   * written; a version is appended before each restart, and each restart reads everything available. Returns the
   * ids written, sorted.
   */
  private List<Long> restartTwice(DeltaTableWriter table, Map<String, String> options) throws Exception {
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    String path = server.writeProfile(tmp.resolve("t.share")) + "#s.sc.t";
    String out = tmp.resolve("out").toString();
    String checkpoint = tmp.resolve("checkpoint").toString();

    FAIL_FIRST_BATCH.set(true);
    StreamingQuery first = start(path, options, out, checkpoint);
    assertThatThrownBy(() -> first.awaitTermination(120_000)).hasMessageContaining("stopped in its first batch");
    assertThat(Path.of(checkpoint, "offsets", "0")).exists();
    assertThat(Path.of(checkpoint, "commits", "0")).doesNotExist();
    assertThat(Path.of(checkpoint, "sources", "0", "initialOffset")).exists();

    FAIL_FIRST_BATCH.set(false);
    for (int restart = 0; restart < 2; restart++) {
      long v = table.append(ChangeMatrix.rows(24 + 6 * restart, 30 + 6 * restart), 2);
      StreamingQuery q = start(path, options, out, checkpoint);
      q.processAllAvailable();
      q.stop();
      assertThat(q.exception().isEmpty()).isTrue();
      assertThat(v).isEqualTo(5 + restart);
    }
    return spark.read().parquet(out).collectAsList().stream().map(r -> r.getLong(0)).sorted()
        .collect(Collectors.toList());
  }

  private static StreamingQuery start(String path, Map<String, String> options, String out, String checkpoint)
      throws Exception {
    org.apache.spark.sql.streaming.DataStreamReader reader = spark.readStream().format("deltaSharing");
    for (Map.Entry<String, String> o : options.entrySet()) {
      reader = reader.option(o.getKey(), o.getValue());
    }
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> {
      if (FAIL_FIRST_BATCH.get() && id == 0) {
        throw new IllegalStateException("stopped in its first batch");
      }
      batch.write().mode(SaveMode.Append).parquet(out);
    };
    return reader.load(path).writeStream().foreachBatch(sink).option("checkpointLocation", checkpoint).start();
  }

  private DeltaTableWriter appended(int versions) {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("table"), ChangeMatrix.SCHEMA).commit();
    for (int v = 0; v < versions; v++) {
      t.append(ChangeMatrix.rows(6 * v, 6 * v + 6), 2);
    }
    return t;
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }
}
