package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.delta.tables.DeltaTable;
import io.sharestream.testkit.delta.DeltaLog;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fidelity both ways with Delta Lake itself (delta-core 1.0.1 on Spark 3.1.1): the server serves tables that Delta
 * Lake wrote (commitInfo, stats, protocol (1,4), Parquet checkpoints, INT96 timestamps), and Delta Lake reads the
 * tables the kit's writer produces.
 */
class DeltaLakeInteropTest {
  static SparkSession spark;
  @TempDir static Path tmp;

  @BeforeAll
  static void startSpark() {
    spark = SparkSession.builder().master("local[2]").appName("delta-interop")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.databricks.delta.snapshotPartitions", "1") // small tables: no 50-task state jobs
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  private static Dataset<Row> rows(long from, long to) {
    return spark.range(from, to).withColumn("user", functions.concat(functions.lit("u"), functions.col("id").mod(3)))
        .withColumn("ts", functions.expr("timestamp_seconds(id * 3600)"))
        .withColumn("amount", functions.expr("cast(id as decimal(12,2)) / 4"));
  }

  @Test
  void servesATableWrittenByDeltaLakeIncludingAfterLogCleanup() throws Exception {
    String path = tmp.resolve("delta-written").toString();
    rows(0, 10).write().format("delta").save(path); // 0
    spark.sql("ALTER TABLE delta.`" + path + "` SET TBLPROPERTIES ('delta.minWriterVersion' = '4')"); // 1
    for (int i = 1; i <= 10; i++) { // 2..11, checkpoint at 10
      rows(i * 10, i * 10 + 10).write().format("delta").mode(SaveMode.Append).save(path);
    }
    DeltaTable.forPath(spark, path).delete("id < 5"); // 12
    DeltaTable.forPath(spark, path).updateExpr("id = 50", Map.of("user", "'changed'")); // 13
    Path dir = Path.of(path);
    assertThat(dir.resolve("_delta_log/00000000000000000010.checkpoint.parquet")).exists();

    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", dir, true).start()) {
      Http http = new Http(server);
      Http.Response latest = http.query("s.sc.t", "{}");
      assertThat(latest.status).as(latest.raw.body()).isEqualTo(200);
      assertThat(latest.header("Delta-Table-Version")).isEqualTo("13");
      String[] deltaFiles = spark.read().format("delta").load(path).inputFiles();
      assertThat(latest.lines("file")).hasSize(deltaFiles.length);
      // Delta Lake 1.0 writes no per-file stats (data skipping came in 1.2): none may be invented
      assertThat(latest.lines("file")).allSatisfy(f -> assertThat(f.has("stats")).isFalse());
      assertThat(latest.lines("metaData").get(0).path("schemaString").asText()).contains("decimal(");

      // the served files are the table: Spark reads the downloads back to the same rows
      assertThat(readDownloads(latest.lines("file")).count()).isEqualTo(110 - 5);

      Http.Response changes = http.query("s.sc.t", "{\"startingVersion\":2,\"endingVersion\":13}");
      List<Long> versions = changes.lines("add").stream().map(a -> a.path("version").asLong()).distinct()
          .collect(Collectors.toList());
      assertThat(versions).contains(2L, 11L, 13L);
      assertThat(changes.lines("remove")).isNotEmpty();
      Http.Response meta = http.get("/shares/s/schemas/sc/tables/t/metadata?version=1");
      assertThat(meta.status).isEqualTo(200);

      // log cleanup: commits before the checkpoint disappear; the checkpoint still rebuilds later versions
      for (int v = 0; v < 10; v++) {
        Files.delete(dir.resolve(String.format("_delta_log/%020d.json", v)));
      }
      assertThat(new DeltaLog(dir).earliestVersion()).isEqualTo(10);
      Http.Response afterCleanup = http.query("s.sc.t", "{\"version\":12}");
      assertThat(afterCleanup.status).as(afterCleanup.raw.body()).isEqualTo(200);
      assertThat(readDownloads(afterCleanup.lines("file")).count()).isEqualTo(110 - 5);
      Http.Response gone = http.query("s.sc.t", "{\"version\":5}");
      assertThat(gone.status).isEqualTo(400);
      assertThat(gone.message()).contains("earliest available version 10");
      assertThat(http.query("s.sc.t", "{\"startingVersion\":3}").status).isEqualTo(400);
      assertThat(http.query("s.sc.t", "{\"startingVersion\":11}").status).isEqualTo(200);
    }
  }

  private Dataset<Row> readDownloads(List<JsonNode> files) throws Exception {
    Path dl = Files.createTempDirectory(tmp, "dl");
    List<String> paths = new ArrayList<>();
    int i = 0;
    for (JsonNode f : files) {
      Path p = dl.resolve("f" + (i++) + ".parquet");
      Files.write(p, Http.downloadBytes(f.path("url").asText(), null));
      paths.add(p.toString());
    }
    return spark.read().parquet(paths.toArray(new String[0]));
  }

  @Test
  void deltaLakeReadsAKitTableWhoseLogWasCleanedUpToTheKitsCheckpoint() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("kit-checkpointed"), Fixtures.EVENTS)
        .partitionedBy("day").commit();
    for (int v = 1; v <= 4; v++) {
      w.append(Fixtures.events(v * 10, v * 10 + 10), 4);
    }
    w.deleteWhere(r -> (Long) r.get("id") % 10 == 0); // 5
    long checkpointed = w.checkpoint();
    w.append(Fixtures.events(100, 103)); // 6
    w.cleanUpLogBefore(checkpointed);

    String path = w.dir().toString();
    assertThat(spark.read().format("delta").load(path).count()).isEqualTo(36 + 3);
    assertThat(spark.read().format("delta").option("versionAsOf", checkpointed).load(path).count()).isEqualTo(36);
    assertThat(DeltaTable.forPath(spark, path).history().count()).isEqualTo(2);
  }

  @Test
  void deltaLakeReadsTablesTheKitWrites() {
    DeltaType.StructType schema = DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false),
        DeltaType.field("user", DeltaType.STRING),
        DeltaType.field("day", DeltaType.DATE),
        DeltaType.field("ts", DeltaType.TIMESTAMP),
        DeltaType.field("amount", DeltaType.decimal(20, 3)),
        DeltaType.field("tags", DeltaType.array(DeltaType.STRING, true)),
        DeltaType.field("attrs", DeltaType.map(DeltaType.STRING, DeltaType.LONG, true)),
        DeltaType.field("nested", DeltaType.struct(DeltaType.field("a", DeltaType.INTEGER))));
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("kit-written"), schema).partitionedBy("day").commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 20; i++) {
      rows.add(Fixtures.row("id", i, "user", "u" + i, "day", java.time.LocalDate.of(2024, 1, 1 + (int) (i % 3)),
          "ts", java.time.Instant.parse("1965-01-01T00:00:00.123456Z").plusSeconds(i * 86400),
          "amount", new java.math.BigDecimal(i + ".125"), "tags", List.of("t" + i), "attrs", Map.of("k", i),
          "nested", Fixtures.row("a", (int) i)));
    }
    w.append(rows, 4);
    w.deleteWhere(r -> (Long) r.get("id") < 4);
    w.updateWhere(r -> r.get("id").equals(10L), r -> {
      r.put("user", "changed");
      return r;
    });
    w.compact();
    w.addColumn(DeltaType.field("score", DeltaType.DOUBLE));
    w.append(List.of(Fixtures.row("id", 100L, "day", java.time.LocalDate.of(2024, 1, 1), "score", 2.5)));

    String path = w.dir().toString();
    Dataset<Row> table = spark.read().format("delta").load(path);
    assertThat(table.count()).isEqualTo(17);
    assertThat(table.schema().fieldNames()).containsExactly("id", "user", "day", "ts", "amount", "tags", "attrs",
        "nested", "score");
    Row ten = table.filter("id = 10").collectAsList().get(0);
    assertThat(ten.getString(ten.fieldIndex("user"))).isEqualTo("changed");
    assertThat(ten.getDecimal(ten.fieldIndex("amount"))).isEqualByComparingTo("10.125");
    assertThat(ten.getTimestamp(ten.fieldIndex("ts")).toInstant())
        .isEqualTo(java.time.Instant.parse("1965-01-01T00:00:00.123456Z").plusSeconds(10 * 86400));
    assertThat(ten.getStruct(ten.fieldIndex("nested")).getInt(0)).isEqualTo(10);
    assertThat(table.filter("id = 100").collectAsList().get(0).getDouble(8)).isEqualTo(2.5);
    assertThat(spark.read().format("delta").option("versionAsOf", 1).load(path).count()).isEqualTo(20);
    assertThat(DeltaTable.forPath(spark, path).history().count()).isEqualTo(w.version() + 1);
  }

  /** The checkpoint schema of Delta Lake 3.2 (v1 checkpoints, stats also as a struct): what its checkpoints hold. */
  private static final String DV = "STRUCT<storageType: STRING, pathOrInlineDv: STRING, offset: INT, "
      + "sizeInBytes: INT, cardinality: BIGINT, maxRowIndex: BIGINT>";
  private static final String DELTA_32_CHECKPOINT = "txn STRUCT<appId: STRING, version: BIGINT, lastUpdated: BIGINT>,"
      + " add STRUCT<path: STRING, partitionValues: MAP<STRING, STRING>, size: BIGINT, modificationTime: BIGINT,"
      + " dataChange: BOOLEAN, tags: MAP<STRING, STRING>, deletionVector: " + DV + ", baseRowId: BIGINT,"
      + " defaultRowCommitVersion: BIGINT, clusteringProvider: STRING, stats: STRING,"
      + " stats_parsed: STRUCT<numRecords: BIGINT, minValues: STRUCT<id: BIGINT, ts: TIMESTAMP>>>,"
      + " remove STRUCT<path: STRING, deletionTimestamp: BIGINT, dataChange: BOOLEAN, extendedFileMetadata: BOOLEAN,"
      + " partitionValues: MAP<STRING, STRING>, size: BIGINT, deletionVector: " + DV + ", baseRowId: BIGINT,"
      + " defaultRowCommitVersion: BIGINT>,"
      + " metaData STRUCT<id: STRING, name: STRING, description: STRING, format: STRUCT<provider: STRING,"
      + " options: MAP<STRING, STRING>>, schemaString: STRING, partitionColumns: ARRAY<STRING>,"
      + " configuration: MAP<STRING, STRING>, createdTime: BIGINT>,"
      + " protocol STRUCT<minReaderVersion: INT, minWriterVersion: INT, readerFeatures: ARRAY<STRING>,"
      + " writerFeatures: ARRAY<STRING>>,"
      + " domainMetadata STRUCT<domain: STRING, configuration: STRING, removed: BOOLEAN>";

  @Test
  void theKitReadsDeletionVectorsFromACheckpointSparkWroteInDeltaLake32sSchema() throws Exception {
    DeltaTableWriter t = io.sharestream.testkit.delta.DeletionVectorMatrix.write(tmp.resolve("dv-checkpoint"), false,
        false);
    io.sharestream.testkit.delta.Snapshot at5 = t.log().snapshot(5);
    List<String> lines = new ArrayList<>();
    lines.add(at5.protocol.toJson().toString());
    lines.add(at5.metadata.toJson().toString());
    for (io.sharestream.testkit.delta.DeltaAction.AddFile f : at5.files()) {
      com.fasterxml.jackson.databind.node.ObjectNode add = f.toJson();
      add.with("add").put("dataChange", false).put("baseRowId", 0).putObject("tags").put("INSERTION_TIME", "1");
      add.with("add").putObject("stats_parsed").put("numRecords", 3).putObject("minValues").put("id", 0)
          .put("ts", "2024-01-01T00:00:00Z");
      if (f.deletionVector != null) {
        add.with("add").with("deletionVector").put("maxRowIndex", 2);
      }
      lines.add(add.toString());
    }
    // a tombstone of the file the DELETE of version 4 replaced, with its DV
    lines.add(t.log().actions(4).stream().filter(a -> a instanceof io.sharestream.testkit.delta.DeltaAction.RemoveFile)
        .findFirst().get().toJson().toString());
    Path out = tmp.resolve("checkpoint-out");
    spark.read().schema(DELTA_32_CHECKPOINT).json(spark.createDataset(lines,
        org.apache.spark.sql.Encoders.STRING())).coalesce(1).write().parquet(out.toString());
    Path part;
    try (java.util.stream.Stream<Path> files = Files.list(out)) {
      part = files.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().get();
    }
    Files.copy(part, t.log().checkpointFile(5));
    for (long v = 0; v < 5; v++) {
      Files.delete(t.log().commitFile(v));
    }

    DeltaLog fresh = new DeltaLog(t.dir());
    assertThat(fresh.earliestVersion()).isEqualTo(5);
    assertThat(fresh.snapshot(5).files()).extracting(f -> f.path + "|" + f.deletionVector)
        .containsExactlyInAnyOrderElementsOf(at5.files().stream().map(f -> f.path + "|" + f.deletionVector)
            .collect(Collectors.toList()));
    DeltaTableWriter reopened = DeltaTableWriter.open(t.dir());
    assertThat(reopened.readAll(5)).extracting(r -> r.get("id") + "/" + r.get("name"))
        .containsExactlyInAnyOrderElementsOf(io.sharestream.testkit.delta.DeletionVectorMatrix.rowsAt(5));
    assertThat(reopened.readAll()).extracting(r -> r.get("id") + "/" + r.get("name"))
        .containsExactlyInAnyOrderElementsOf(io.sharestream.testkit.delta.DeletionVectorMatrix.rowsAt(8));
  }
}
