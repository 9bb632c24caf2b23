package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.RequestLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * What a stream emits and how it resumes: the SPEC §4 matrix (the same rows as the Kafka connector's tests), the
 * change feed's columns, admission control, restarts from a checkpoint with an exactly-once file sink, URL expiry
 * mid-stream, and offsets that do not belong to the stream.
 */
class StreamingSemanticsTest {
  static SparkSession spark;
  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();
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
    servers.forEach(DeltaSharingServer::close);
  }

  private String serve(String name, DeltaTableWriter table) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), true).start();
    servers.add(s);
    return s.writeProfile(tmp.resolve(name + ".share")) + "#s.sc." + name;
  }

  private StreamingQuery toMemory(Dataset<Row> df, String name) throws Exception {
    StreamingQuery q = df.writeStream().format("memory").queryName(name).start();
    queries.add(q);
    return q;
  }

  @Test
  void everyModeEmitsTheRowsOfTheSpecMatrix() throws Exception {
    for (boolean cdf : new boolean[] {true, false}) {
      String path = serve(cdf ? "cdf" : "plain", ChangeMatrix.write(tmp.resolve(cdf ? "cdf" : "plain"), cdf));
      for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
        String name = "matrix_" + mode.name().toLowerCase() + "_" + cdf;
        org.apache.spark.sql.streaming.DataStreamReader reader = spark.readStream().format("deltaSharing")
            .option("startingVersion", "0");
        for (Map.Entry<String, String> o : mode.options.entrySet()) {
          reader = reader.option(o.getKey(), o.getValue());
        }
        Dataset<Row> df = reader.load(path);
        boolean changeColumns = mode == ChangeMatrix.Mode.READ_CHANGE_FEED;
        toMemory(changeColumns ? df : df.selectExpr("*", "'insert' AS _change_type", "0L AS _commit_version"), name)
            .processAllAvailable();
        List<String> flow = spark.sql("SELECT id, name, _change_type, _commit_version FROM " + name).collectAsList()
            .stream().map(r -> r.getLong(0) + ":" + r.getString(2) + "@" + r.getLong(3) + "/" + r.getString(1))
            .collect(Collectors.toList());
        List<String> expected = ChangeMatrix.expected(mode, cdf);
        // a micro-batch has no row order in Spark: order by version (as batches come) before comparing
        flow.sort(java.util.Comparator.comparingLong(f -> Long.parseLong(f.replaceAll(".*@(\\d+).*", "$1"))));
        if (!changeColumns) { // no change columns without readChangeFeed: compare rows only
          flow = flow.stream().map(f -> f.replaceAll(":.*@\\d+", "")).sorted().collect(Collectors.toList());
          expected = expected.stream().map(f -> f.replaceAll(":.*@\\d+", "")).sorted().collect(Collectors.toList());
          assertThat(flow).as(name).isEqualTo(expected);
        } else {
          assertThat(ChangeMatrix.canonical(flow)).as(name).isEqualTo(ChangeMatrix.canonical(expected));
        }
      }
    }
    // the change feed's columns: types and values
    Row delete = spark.sql("SELECT * FROM matrix_read_change_feed_true WHERE _change_type = 'delete'").first();
    assertThat(delete.schema().fieldNames()).containsExactly("id", "name", "score", "_change_type",
        "_commit_version", "_commit_timestamp");
    assertThat(delete.<java.sql.Timestamp>getAs("_commit_timestamp").getTime()).isPositive();
  }

  @Test
  void aStartingVersionBeyondTheLatestWaitsForItAndSaysSoOnce() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("ahead"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 3)); // 1
    String path = serve("ahead", table);
    StreamingQuery q = toMemory(spark.readStream().format("deltaSharing").option("startingVersion", "12")
        .load(path), "ahead");
    q.processAllAvailable();
    assertThat(spark.table("ahead").count()).isZero();
    assertThat(SourceLog.lines()).filteredOn(l -> l.contains("s.sc.ahead: startingVersion 12 is beyond the "
        + "table's latest version 1: the stream waits for version 12")).hasSize(1);
  }

  @Test
  void aProfileFileReplacedWithARotatedTokenIsReadAgainWhileTheQueryRuns() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("rotating"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 3)); // 1
    DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "rotating", table.dir(), true).start();
    servers.add(server);
    Path profile = server.writeProfile(tmp.resolve("rotating.share"));
    StreamingQuery q = toMemory(spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .load(profile + "#s.sc.rotating"), "rotating");
    q.processAllAvailable();
    assertThat(spark.table("rotating").count()).isEqualTo(3);

    server.rotateBearerToken(); // the provider rotates the token; the recipient's tooling replaces the file
    server.writeProfile(profile);
    table.append(ChangeMatrix.rows(3, 6)); // 2

    q.processAllAvailable();
    assertThat(spark.table("rotating").count()).isEqualTo(6);
    assertThat(q.exception().isDefined()).isFalse();
    assertThat(server.requests().entries().stream().filter(e -> e.status == 401).count())
        .as("the old token, refused at most once before the file is read again").isLessThanOrEqualTo(1);
  }

  @Test
  void admissionControlLimitsFilesAndBytesPerBatchAndTriggerOnceTakesEverything() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("files"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 100), 10); // 10 files in version 1
    table.append(ChangeMatrix.rows(100, 130), 10); // 3 files in version 2
    String path = serve("files", table);
    long fileSize = Files.size(table.log().resolve(table.snapshot().files().iterator().next().path));
    StreamingQuery byFiles = toMemory(spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("maxFilesPerTrigger", "4").load(path), "by_files");
    byFiles.processAllAvailable();
    StreamingQuery byBytes = toMemory(spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("maxBytesPerTrigger", Long.toString(fileSize * 2 + 1)).load(path), "by_bytes");
    byBytes.processAllAvailable();
    assertThat(spark.sql("SELECT * FROM by_files").count()).isEqualTo(130);
    assertThat(spark.sql("SELECT * FROM by_bytes").count()).isEqualTo(130);
    assertThat(batchesWithData(byFiles)).isEqualTo(4); // 13 files, 4 per batch
    assertThat(batchesWithData(byBytes)).isGreaterThanOrEqualTo(4); // at most 3 files of this size per batch

    StreamingQuery once = spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("maxFilesPerTrigger", "1").load(path).writeStream().format("memory").queryName("once_all")
        .trigger(Trigger.Once()).start();
    queries.add(once);
    assertThat(once.awaitTermination(120_000)).isTrue();
    assertThat(spark.sql("SELECT * FROM once_all").count()).isEqualTo(130);
  }

  private static long batchesWithData(StreamingQuery q) throws InterruptedException {
    for (int i = 0; i < 100 && Stream.of(q.recentProgress()).mapToLong(p -> p.numInputRows()).sum() < 130; i++) {
      Thread.sleep(50);
    }
    return Stream.of(q.recentProgress()).filter(p -> p.numInputRows() > 0).count();
  }

  @Test
  void aRestartFromTheCheckpointContinuesWhereTheLastBatchEndedWithNothingLostOrRepeated() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("restart"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 40), 10); // 1
    String path = serve("restart", table);
    String out = tmp.resolve("out").toString();
    String checkpoint = tmp.resolve("checkpoint").toString();
    Runnable runOnce = () -> {
      try {
        StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "1")
            .option("maxFilesPerTrigger", "3").load(path).writeStream().format("parquet").option("path", out)
            .option("checkpointLocation", checkpoint).trigger(Trigger.Once()).start();
        q.awaitTermination();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    };
    runOnce.run(); // all 4 files
    table.append(ChangeMatrix.rows(40, 50)); // 2
    table.append(ChangeMatrix.rows(50, 55)); // 3
    runOnce.run(); // from the checkpoint: only versions 2 and 3
    List<Long> ids = spark.read().parquet(out).collectAsList().stream().map(r -> r.getLong(0)).sorted()
        .collect(Collectors.toList());
    assertThat(ids).hasSize(55).doesNotHaveDuplicates();
    assertThat(ids.get(54)).isEqualTo(54L);
    // the offsets in the checkpoint are the core's positions in their JSON form
    Path offsets = Path.of(checkpoint, "offsets");
    try (Stream<Path> files = Files.list(offsets)) {
      String last = Files.readAllLines(files.max(Path::compareTo).orElseThrow()).get(2);
      assertThat(last).isEqualTo("{\"sourceVersion\":1,\"tableId\":\"" + table.tableId()
          + "\",\"tableVersion\":4,\"index\":-1,\"isStartingVersion\":false}");
    }
  }

  @Test
  void aCheckpointOfAnotherTableOrAnotherFormatIsRefusedWithWhatToDo() throws Exception {
    DeltaTableWriter a = DeltaTableWriter.create(tmp.resolve("a"), ChangeMatrix.SCHEMA).commit();
    a.append(ChangeMatrix.rows(0, 3));
    String pathA = serve("a", a);
    String checkpoint = tmp.resolve("checkpoint").toString();
    StreamingQuery first = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(pathA)
        .writeStream().format("parquet").option("path", tmp.resolve("out").toString())
        .option("checkpointLocation", checkpoint).trigger(Trigger.Once()).start();
    first.awaitTermination();
    // the same name, now another table (recreated): the checkpoint's offsets are not its offsets
    DeltaTableWriter b = DeltaTableWriter.create(tmp.resolve("b"), ChangeMatrix.SCHEMA).commit();
    b.append(ChangeMatrix.rows(0, 1));
    servers.get(0).tables().relocate("s.sc.a", b.dir());
    StreamingQuery second = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(pathA)
        .writeStream().format("parquet").option("path", tmp.resolve("out").toString())
        .option("checkpointLocation", checkpoint).trigger(Trigger.Once()).start();
    assertThatThrownBy(second::awaitTermination).isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("the table was recreated").hasMessageContaining("delete the checkpoint");

    assertThatThrownBy(() -> SharingOffset.fromJson("{\"sourceVersion\":3,\"tableId\":\"x\",\"tableVersion\":1,"
        + "\"index\":-1,\"isStartingVersion\":false}")).hasMessageContaining("sourceVersion");
  }

  @Test
  void urlsExpiringMidStreamAreRefreshedOnTheDriverAndOnExecutors() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("expiring"), ChangeMatrix.SCHEMA).commit();
    String path = serve("expiring", table);
    DeltaSharingServer server = servers.get(0);
    // every storage request takes 1 s and URLs live 1.5 s: a file's data request (after its footer request) is
    // checked at least 2 s after the driver listed the file, so it meets an expired URL; a refreshed one works
    server.faults().urlTtl(Duration.ofMillis(1500));
    server.faults().storageLatency(Duration.ofSeconds(1));
    java.util.Random random = new java.util.Random(3);
    List<Map<String, Object>> rows = ChangeMatrix.rows(0, 6000);
    rows.forEach(r -> r.put("name", Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong())));
    table.append(rows, 3000); // 2 files larger than the tail read: 2 requests each
    StreamingQuery q = toMemory(spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("urlRefreshMarginSeconds", "1").load(path), "expiring");
    q.processAllAvailable();
    assertThat(spark.sql("SELECT id FROM expiring").collectAsList().stream().map(r -> r.getLong(0)).distinct()
        .count()).isEqualTo(6000);
    assertThat(server.requests().entries(Endpoint.STORAGE).stream().filter(e -> e.status == 403))
        .as("storage refused expired URLs, and the reads went on with fresh ones").isNotEmpty();
  }

  @Test
  void timeTravelOptionsOnAStreamAreRefused() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("tt"), ChangeMatrix.SCHEMA).commit();
    String path = serve("tt", table);
    assertThatThrownBy(() -> toMemory(spark.readStream().format("deltaSharing").option("versionAsOf", "0")
        .load(path), "tt").processAllAvailable()).hasMessageContaining("are for batch reads");
  }

  @Test
  void stoppingAQueryWhileItWaitsForTheServerEndsItAsStoppedNotFailed() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("stopping"), ChangeMatrix.SCHEMA).commit();
    String path = serve("stopping", table);
    table.append(ChangeMatrix.rows(0, 10));
    StreamingQuery q = toMemory(spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .load(path), "stopping");
    q.processAllAvailable();
    DeltaSharingServer server = servers.get(0);
    server.faults().delay(Endpoint.VERSION, 1, Duration.ofMinutes(2)); // the next version poll hangs
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (server.faults().pending() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(server.faults().pending()).as("the stream polled the version again").isZero();
    List<RequestLog.Entry> polls = server.requests().entries(Endpoint.VERSION);
    RequestLog.Entry hanging = polls.get(polls.size() - 1);
    q.stop(); // while the query's thread waits for the answer: the request is given up, not waited for
    assertThat(hanging.status).as("the server has not answered the poll the stop cut short").isZero();
    assertThat(q.isActive()).isFalse();
    assertThat(q.exception().isDefined()).as("a stopped query, not a failed one").isFalse();
  }
}
