package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeletionVectorDescriptor;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables shared in the delta format (SPEC §4b) read by Spark: deletion vector tables in every stream mode (from a
 * server that answers history in the delta format, one that refuses it, and the store of a table shared for directory
 * access only) and in batch reads at every version, deleted rows left out of vectorized batches (flat schemas) and
 * rows (nested), per-row change types of a re-added file; column-mapped tables (by URL, from S3 and GCS) read by
 * physical name with logical names out, nested fields pruned, and a stream stopped by a rename committed while it
 * runs.
 */
class DeltaFormatReadTest {
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

  private String serve(String name, DeltaTableWriter table, boolean history) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), true)
        .historyInDeltaFormat(history).start();
    servers.add(s);
    return s.writeProfile(tmp.resolve(name + history + ".share")) + "#s.sc." + name;
  }

  private static List<String> flows(Dataset<Row> df) {
    return df.collectAsList().stream().map(r -> r.getLong(0) + ":" + r.getString(2) + "@" + r.getLong(3) + "/"
        + r.getString(1)).collect(Collectors.toList());
  }

  /** {@code table} shared as {@code s.sc.<name>} for directory access only, by a server of its own: from S3. */
  private DeltaSharingServer serveFromStore(String name, DeltaTableWriter table) {
    return serveFromStore(name, table, false);
  }

  /** As above, the table's files read through the server's S3 or (with {@code gcs}) GCS API. */
  private DeltaSharingServer serveFromStore(String name, DeltaTableWriter table, boolean gcs) {
    DeltaSharingServer.Builder b = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), true)
        .accessModes("s.sc." + name, AccessMode.DIR);
    if (gcs) {
      b.storedInGcs("s.sc." + name);
    }
    DeltaSharingServer s = b.start();
    servers.add(s);
    return s;
  }

  /** The options that reach the object store of server {@code s}. */
  private static Map<String, String> store(DeltaSharingServer s) {
    return Map.of("s3Endpoint", s.objectStore().endpoint(), "s3Region", s.objectStore().region(),
        "s3PathStyleAccess", "true");
  }

  @Test
  void deletionVectorStreamsEmitTheMatrixRowsInEveryMode() throws Exception {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), true, false);
    // history answered in the delta format, refused (snapshots carry no change data), and the log read from the store
    DeltaSharingServer store = serveFromStore("dv", table);
    for (String served : List.of("history", "snapshots", "directory")) {
      String path = served.equals("directory") ? store.writeProfile(tmp.resolve("dv-dir.share")) + "#s.sc.dv"
          : serve("dv", table, served.equals("history"));
      boolean history = !served.equals("snapshots");
      for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
        String name = "dv_" + mode.name().toLowerCase() + "_" + served;
        org.apache.spark.sql.streaming.DataStreamReader reader = spark.readStream().format("deltaSharing")
            .option("startingVersion", "1").option("maxFilesPerTrigger", "2");
        if (served.equals("directory")) {
          reader = reader.options(store(store));
        }
        for (Map.Entry<String, String> o : mode.options.entrySet()) {
          reader = reader.option(o.getKey(), o.getValue());
        }
        Dataset<Row> df = reader.load(path);
        boolean changeColumns = mode == ChangeMatrix.Mode.READ_CHANGE_FEED;
        StreamingQuery q = (changeColumns ? df : df.selectExpr("*", "'insert' AS _change_type",
            "0L AS _commit_version")).writeStream().format("memory").queryName(name).start();
        queries.add(q);
        q.processAllAvailable();
        List<String> flow = flows(spark.sql("SELECT id, name, _change_type, _commit_version FROM " + name));
        List<String> expected = DeletionVectorMatrix.expected(mode, history);
        if (changeColumns) {
          flow.sort(java.util.Comparator.comparingLong(f -> Long.parseLong(f.replaceAll(".*@(\\d+).*", "$1"))));
          assertThat(ChangeMatrix.canonical(flow)).as(name).isEqualTo(ChangeMatrix.canonical(expected));
        } else {
          assertThat(flow.stream().map(f -> f.replaceAll(":.*@\\d+", "")).sorted().collect(Collectors.toList()))
              .as(name).isEqualTo(expected.stream().map(f -> f.replaceAll(":.*@\\d+", "")).sorted()
                  .collect(Collectors.toList()));
        }
      }
    }
    assertThat(store.requests().count(Endpoint.QUERY) + store.requests().count(Endpoint.CHANGES))
        .as("no URL was asked for").isZero();
    assertThat(store.requests().count(Endpoint.OBJECT_STORE)).isPositive();
  }

  @Test
  void aTableSharedForDirectoryAccessOnlyStreamsFromItsStoreAndGoesOnFromTheCheckpoint() throws Exception {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dir"), true, false);
    DeltaSharingServer s = serveFromStore("dir", table);
    String path = s.writeProfile(tmp.resolve("dir.share")) + "#s.sc.dir";
    String out = tmp.resolve("dir-out").toString();
    String checkpoint = tmp.resolve("dir-checkpoint").toString();
    java.util.function.Supplier<StreamingQuery> start = () -> {
      try {
        return spark.readStream().format("deltaSharing").option("startingVersion", "1")
            .option("readChangeFeed", "true").option("maxFilesPerTrigger", "2").options(store(s)).load(path)
            .writeStream().format("parquet").option("checkpointLocation", checkpoint).start(out);
      } catch (Exception e) { // Spark 3.5+ declares a TimeoutException
        throw new IllegalStateException(e);
      }
    };
    StreamingQuery q = start.get();
    queries.add(q);
    q.processAllAvailable();
    q.stop();
    Map<String, Object> row = new java.util.HashMap<>();
    row.put("id", 100L);
    row.put("name", "after the restart");
    long v = table.append(List.of(row));
    StreamingQuery again = start.get();
    queries.add(again);
    again.processAllAvailable();
    List<String> flow = flows(spark.read().parquet(out).selectExpr("id", "name", "_change_type", "_commit_version"));
    flow.sort(java.util.Comparator.comparingLong(f -> Long.parseLong(f.replaceAll(".*@(\\d+).*", "$1"))));
    List<String> expected = new ArrayList<>(DeletionVectorMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true));
    expected.add("100:insert@" + v + "/after the restart");
    assertThat(ChangeMatrix.canonical(flow)).isEqualTo(ChangeMatrix.canonical(expected));
    assertThat(s.requests().count(Endpoint.QUERY) + s.requests().count(Endpoint.CHANGES))
        .as("no URL was asked for").isZero();
    assertThat(s.requests().count(Endpoint.OBJECT_STORE)).isPositive();
  }

  @Test
  void batchReadsOfADeletionVectorTableHoldTheLiveRowsAtEveryVersionAndItsChangeFeed() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("batch"), false, true);
    String path = serve("batch", table, true);
    for (long v = 1; v <= DeletionVectorMatrix.LATEST; v++) {
      List<String> rows = spark.read().format("deltaSharing").option("versionAsOf", v).load(path)
          .collectAsList().stream().map(r -> r.getLong(0) + "/" + r.getString(1)).sorted()
          .collect(Collectors.toList());
      assertThat(rows).as("version %d", v).isEqualTo(DeletionVectorMatrix.rowsAt(v).stream().sorted()
          .collect(Collectors.toList()));
    }
    List<String> changes = flows(spark.read().format("deltaSharing").option("readChangeFeed", "true")
        .option("startingVersion", "3").option("endingVersion", "6").load(path)
        .select("id", "name", "_change_type", "_commit_version"));
    List<String> expected = DeletionVectorMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, false).stream()
        .filter(f -> f.matches(".*@[3-6]/.*")).collect(Collectors.toList());
    assertThat(changes).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void deletedRowsAreLeftOutOfVectorizedBatchesAndOfRowsForNestedSchemas() {
    DeltaTableWriter flat = DeltaTableWriter.create(tmp.resolve("flat"), ChangeMatrix.SCHEMA)
        .deletionVectors(true).commit();
    Random random = new Random(7);
    List<Map<String, Object>> rows = ChangeMatrix.rows(0, 30_000);
    rows.forEach(r -> r.put("name", Long.toHexString(random.nextLong())));
    flat.append(rows, 10_000); // 3 files, several batches each
    flat.deleteWhere(r -> (Long) r.get("id") % 10 == 3 || (Long) r.get("id") >= 25_000); // 10%, and a tail
    String path = serve("flat", flat, true);
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    assertThat(df.queryExecution().executedPlan().toString()).contains("ColumnarToRow");
    Row agg = df.agg(functions.count("id"), functions.sum("id"), functions.count("name")).first();
    long expectedSum = 0;
    long expectedCount = 0;
    for (long i = 0; i < 25_000; i++) {
      if (i % 10 != 3) {
        expectedSum += i;
        expectedCount++;
      }
    }
    assertThat(agg.getLong(0)).isEqualTo(expectedCount);
    assertThat(agg.getLong(1)).isEqualTo(expectedSum);
    assertThat(agg.getLong(2)).isEqualTo(expectedCount);
    assertThat(df.filter("id % 10 = 3").count()).isZero();
    assertThat(df.filter("id = 24999").select("name").first().getString(0)).isEqualTo(rows.get(24_999).get("name"));

    DeltaType.StructType nestedSchema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
        DeltaType.field("tags", DeltaType.array(DeltaType.STRING, true)));
    DeltaTableWriter nested = DeltaTableWriter.create(tmp.resolve("nested"), nestedSchema).deletionVectors(true)
        .commit();
    List<Map<String, Object>> nestedRows = new ArrayList<>();
    for (long i = 0; i < 5_000; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", i);
      r.put("tags", List.of("t" + i));
      nestedRows.add(r);
    }
    nested.append(nestedRows);
    nested.deleteWhere(r -> (Long) r.get("id") % 2 == 0);
    Dataset<Row> n = spark.read().format("deltaSharing").load(serve("nested", nested, true));
    assertThat(n.count()).isEqualTo(2_500);
    assertThat(n.filter("id % 2 = 0").count()).isZero();
    assertThat(n.filter("id = 4999").select(functions.element_at(functions.col("tags"), 1)).first().getString(0))
        .isEqualTo("t4999");
  }

  @Test
  void aReaddedFileWhoseVectorBothGrewAndShrankLabelsEachRowInTheChangeFeed() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("restore"), ChangeMatrix.SCHEMA)
        .deletionVectors(true).commit();
    table.append(ChangeMatrix.rows(0, 8)); // 1
    table.deleteWhere(r -> r.get("id").equals(1L) || r.get("id").equals(2L)); // 2: DV {1, 2}
    DeltaAction.AddFile add = table.snapshot().files().iterator().next();
    // 3: the file re-added with DV {2, 5}: row 1 comes back (insert), row 5 goes (delete)
    table.commitActions("RESTORE", List.of(add.remove(System.currentTimeMillis(), true),
        new DeltaAction.AddFile(add.path, add.partitionValues, add.size, add.modificationTime, true, add.stats,
            DeletionVectorDescriptor.inline(List.of(2L, 5L)))));
    String path = serve("restore", table, true);
    for (String columns : List.of("id, name, _change_type, _commit_version", "*")) { // vectorized and rows
      List<String> changes = spark.read().format("deltaSharing").option("readChangeFeed", "true")
          .option("startingVersion", "3").option("endingVersion", "3").load(path).selectExpr(columns.split(", "))
          .collectAsList().stream().map(r -> r.getLong(0) + ":" + r.getString(r.fieldIndex("_change_type")))
          .sorted().collect(Collectors.toList());
      assertThat(changes).as(columns).containsExactly("1:insert", "5:delete");
    }
    // the default mode: only the row that came back, as an insert
    Dataset<Row> stream = spark.readStream().format("deltaSharing").option("startingVersion", "3").load(path);
    StreamingQuery q = stream.writeStream().format("memory").queryName("restored").start();
    queries.add(q);
    q.processAllAvailable();
    assertThat(spark.sql("SELECT id FROM restored").collectAsList()).extracting(r -> r.getLong(0))
        .containsExactly(1L);
  }

  @Test
  void columnMappedTablesAreReadByPhysicalNameWithLogicalNamesOut() {
    for (String mode : List.of("name", "id")) {
      DeltaTableWriter table = ColumnMappingMatrix.write(tmp.resolve("cm-" + mode), mode, true);
      DeltaSharingServer store = serveFromStore("cm" + mode, table);
      DeltaSharingServer gcs = serveFromStore("cm" + mode, table, true);
      // by URL, and shared for directory access only: from an S3 store, and from GCS (its token in a header)
      for (String path : List.of(serve("cm" + mode, table, true),
          store.writeProfile(tmp.resolve("cm" + mode + "-dir.share")) + "#s.sc.cm" + mode,
          gcs.writeProfile(tmp.resolve("cm" + mode + "-gcs.share")) + "#s.sc.cm" + mode)) {
        Map<String, String> options = path.contains("-dir.share") ? store(store)
            : path.contains("-gcs.share") ? Map.of("gcsEndpoint", gcs.objectStore().endpoint()) : Map.of();
        assertColumnMappedTableReads(spark.read().format("deltaSharing").options(options).load(path));
        assertThat(spark.read().format("deltaSharing").options(options).option("versionAsOf", "3").load(path)
            .count()).as("an older version, under the latest schema").isEqualTo(4);
      }
      assertThat(store.requests().count(Endpoint.OBJECT_STORE)).isPositive();
      assertThat(gcs.requests().entries(Endpoint.OBJECT_STORE)).extracting(e -> e.path)
          .anyMatch(p -> p.startsWith("/storage/v1/b/kit/o/") && p.endsWith(".parquet"));
    }
  }

  /** The latest rows of the column-mapping matrix, by logical name, pruned as asked. */
  private static void assertColumnMappedTableReads(Dataset<Row> df) {
    assertThat(df.schema().fieldNames()).containsExactly("id", "full_name", "info", "items", "attrs", "area",
        "note"); // note was dropped, then added again at the end
    List<Row> rows = df.orderBy("id").collectAsList();
    List<Map<String, Object>> expected = ColumnMappingMatrix.rowsAt(ColumnMappingMatrix.LATEST);
    assertThat(rows).hasSize(expected.size());
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      Map<String, Object> e = expected.get(i);
      assertThat(r.getLong(0)).isEqualTo(e.get("id"));
      assertThat(r.getString(1)).isEqualTo(e.get("full_name"));
      assertThat(r.getStruct(2).getString(0)).isEqualTo(((Map<?, ?>) e.get("info")).get("town"));
      assertThat(r.<Row>getList(3).get(0).getString(0)).isEqualTo("s" + e.get("id"));
      assertThat(r.getJavaMap(4)).isEqualTo(e.get("attrs"));
      assertThat(r.getString(5)).isEqualTo(e.get("area"));
      assertThat(r.getString(6)).isEqualTo(e.get("note"));
    }
    // a nested field, a partition column and a filter on a renamed column, pruned to what is read
    List<String> pruned = df.filter("full_name = 'n3'").select("info.town", "area").collectAsList().stream()
        .map(r -> r.getString(0) + "/" + r.getString(1)).collect(Collectors.toList());
    assertThat(pruned).containsExactly("c3/EU");
  }

  @Test
  void aRenameCommittedWhileAStreamRunsStopsItAtThatVersionAndARestartGoesOn() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("rename"), ChangeMatrix.SCHEMA)
        .columnMapping("name").commit();
    table.append(ChangeMatrix.rows(0, 3)); // 1
    String path = serve("rename", table, true);
    String checkpoint = tmp.resolve("checkpoint").toString();
    String out = tmp.resolve("out").toString();
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "1").load(path)
        .writeStream().format("parquet").option("path", out).option("checkpointLocation", checkpoint).start();
    queries.add(q);
    q.processAllAvailable();
    table.renameColumn("name", "label"); // 2
    List<Map<String, Object>> more = ChangeMatrix.rows(3, 5);
    more.forEach(r -> r.put("label", r.remove("name")));
    table.append(more); // 3
    assertThatThrownBy(() -> q.awaitTermination(60_000)).isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("changed at version 2").hasMessageContaining("'name' was renamed to 'label'");
    StreamingQuery again = spark.readStream().format("deltaSharing").load(path).writeStream().format("parquet")
        .option("path", out).option("checkpointLocation", checkpoint).start();
    queries.add(again);
    again.processAllAvailable();
    // the file sink holds the rows before the rename under the old name, those after it under the new one
    List<String> rows = spark.read().option("mergeSchema", "true").parquet(out).collectAsList().stream()
        .map(r -> r.getLong(r.fieldIndex("id")) + "/" + r.getString(r.fieldIndex("name")) + "/"
            + r.getString(r.fieldIndex("label"))).sorted().collect(Collectors.toList());
    assertThat(rows).containsExactly("0/u0/null", "1/u1/null", "2/u2/null", "3/null/u3", "4/null/u4");
    assertThat(servers.get(0).requests().entries(Endpoint.QUERY)).isNotEmpty();
  }
}
