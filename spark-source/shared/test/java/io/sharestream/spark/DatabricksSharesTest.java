package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.AsyncMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shares as Databricks serves them: shared views read in batch and refused as streams, snapshots computed
 * asynchronously, deletion vectors or column mapping switched on between two runs of a stream, and a stream resumed
 * inside a version after the table's answers turned from parquet to delta.
 */
class DatabricksSharesTest {
  static SparkSession spark;
  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() {
    servers.forEach(DeltaSharingServer::close);
  }

  private DeltaSharingServer start(DeltaSharingServer.Builder b) {
    DeltaSharingServer s = b.start();
    servers.add(s);
    return s;
  }

  private String profile(DeltaSharingServer s) {
    return s.writeProfile(tmp.resolve("profile.share")).toString();
  }

  private static List<Long> ids(Dataset<Row> df) {
    return df.select("id").collectAsList().stream().map(r -> r.getLong(0)).sorted().collect(Collectors.toList());
  }

  @Test
  void aSharedViewIsReadInBatchThroughItsAsynchronousQuery() {
    DeltaTableWriter backing = DeltaTableWriter.create(tmp.resolve("v"), ChangeMatrix.SCHEMA).commit();
    backing.append(ChangeMatrix.rows(0, 9), 3);
    DeltaSharingServer server = start(DeltaSharingServer.builder().view("s", "sc", "v", backing.dir())
        .async("s.sc.v", AsyncMode.ALWAYS.pendingPolls(1)));

    Dataset<Row> view = spark.read().format("deltaSharing").load(profile(server) + "#s.sc.v");

    assertThat(ids(view)).hasSize(9).doesNotHaveDuplicates();
    assertThat(ids(view.where("id >= 5"))).containsExactly(5L, 6L, 7L, 8L);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isNotEmpty();
    assertThat(server.requests().entries(Endpoint.QUERY)).allSatisfy(e ->
        assertThat(e.capabilities).contains("asyncquery=true"));
  }

  @Test
  void aStreamOfASharedViewIsRefusedWhenTheQueryStartsNamingTheView() throws Exception {
    DeltaTableWriter backing = DeltaTableWriter.create(tmp.resolve("v"), ChangeMatrix.SCHEMA).commit();
    backing.append(ChangeMatrix.rows(0, 3));
    DeltaSharingServer server = start(DeltaSharingServer.builder().view("s", "sc", "v", backing.dir()));

    StreamingQuery q = spark.readStream().format("deltaSharing").load(profile(server) + "#s.sc.v").writeStream()
        .format("memory").queryName("view_stream").start();
    try {
      assertThatThrownBy(q::awaitTermination).isInstanceOf(StreamingQueryException.class)
          .hasMessageContaining("s.sc.v is a shared view or materialized view")
          .hasMessageContaining("no history to stream");
    } finally {
      q.stop();
    }
  }

  @Test
  void aStreamStartingFromAnAsynchronouslyComputedSnapshotReadsItWhole() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 12), 3);
    DeltaSharingServer server = start(DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .async("s.sc.t", AsyncMode.ALWAYS.pendingPolls(1)));
    String out = tmp.resolve("out").toString();

    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "snapshot")
        .load(profile(server) + "#s.sc.t").writeStream().format("parquet").option("path", out)
        .option("checkpointLocation", tmp.resolve("checkpoint").toString()).trigger(Trigger.Once()).start();
    q.awaitTermination();

    assertThat(ids(spark.read().parquet(out))).hasSize(12).doesNotHaveDuplicates();
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isNotEmpty();
  }

  @Test
  void deletionVectorsSwitchedOnBetweenTwoRunsOfAStreamAreReadFromTheirVersionOn() throws Exception {
    assertThat(twoRunsAcrossASwitch(table -> {
      table.setProperty("delta.enableDeletionVectors", "true"); // 2: delta answers from now on
      table.append(ChangeMatrix.rows(4, 8), 2); // 3
      table.deleteWhere(r -> ((Number) r.get("id")).longValue() % 2 == 0); // 4: deletion vectors
    })).containsExactly("0:delete@4", "0:insert@1", "1:insert@1", "2:delete@4", "2:insert@1",
        "3:insert@1", "4:delete@4", "4:insert@3", "5:insert@3", "6:delete@4", "6:insert@3", "7:insert@3");
  }

  @Test
  void columnMappingSwitchedOnBetweenTwoRunsOfAStreamIsReadFromItsVersionOn() throws Exception {
    assertThat(twoRunsAcrossASwitch(table -> {
      table.setProperty("delta.columnMapping.mode", "name"); // 2: delta answers from now on
      table.append(ChangeMatrix.rows(4, 8), 2); // 3
      table.append(ChangeMatrix.rows(8, 9)); // 4
    })).containsExactly("0:insert@1", "1:insert@1", "2:insert@1", "3:insert@1", "4:insert@3", "5:insert@3",
        "6:insert@3", "7:insert@3", "8:insert@4");
  }

  /**
   * The change feed of a table from version 1 (two parquet files) read by a stream run twice, {@code between} the
   * runs switching a reader feature on at version 2 and committing more: the rows of both runs, "id:type@version".
   */
  private List<String> twoRunsAcrossASwitch(java.util.function.Consumer<DeltaTableWriter> between) {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 4), 2); // 1: parquet answers
    DeltaSharingServer server = start(DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true));
    String path = profile(server) + "#s.sc.t";
    String out = tmp.resolve("out").toString();
    String checkpoint = tmp.resolve("checkpoint").toString();
    Runnable run = () -> {
      try {
        spark.readStream().format("deltaSharing").option("startingVersion", "1").option("readChangeFeed", "true")
            .load(path).writeStream().format("parquet").option("path", out)
            .option("checkpointLocation", checkpoint).trigger(Trigger.Once()).start().awaitTermination();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    run.run();
    between.accept(table);
    run.run();
    return spark.read().parquet(out).collectAsList().stream()
        .map(r -> r.getAs("id") + ":" + r.getAs("_change_type") + "@" + r.getAs("_commit_version")).sorted()
        .collect(Collectors.toList());
  }

  @Test
  void aStreamResumedInsideAVersionAfterItsAnswersTurnedToDeltaReadsEveryRowOnce() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 20), 2); // version 1: 10 files
    DeltaSharingServer server = start(DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true));
    String path = profile(server) + "#s.sc.t";
    String out = tmp.resolve("out").toString();
    String checkpoint = tmp.resolve("checkpoint").toString();

    StreamingQuery first = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("maxFilesPerTrigger", "3").load(path).writeStream().format("parquet").option("path", out)
        .option("checkpointLocation", checkpoint).trigger(Trigger.ProcessingTime("1 hour")).start(); // one batch
    for (int i = 0; i < 600 && (first.lastProgress() == null || first.lastProgress().numInputRows() == 0); i++) {
      Thread.sleep(50);
    }
    first.stop();
    String inside;
    try (Stream<Path> files = Files.list(Path.of(checkpoint, "offsets"))) {
      inside = Files.readAllLines(files.filter(f -> !f.getFileName().toString().startsWith("."))
          .min(Path::compareTo).orElseThrow()).get(2);
    }
    assertThat(inside).contains("\"sourceVersion\":2").contains("\"tableVersion\":1").contains("\"fileKey\":");

    server.faults().respondInDeltaFormat(Endpoint.QUERY, 1000); // the provider enabled deletion vectors
    table.append(ChangeMatrix.rows(20, 24), 2); // version 2
    StreamingQuery second = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("maxFilesPerTrigger", "3").load(path).writeStream().format("parquet").option("path", out)
        .option("checkpointLocation", checkpoint).trigger(Trigger.Once()).start();
    second.awaitTermination();

    assertThat(ids(spark.read().parquet(out))).hasSize(24).doesNotHaveDuplicates();
  }
}
