package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaLake4Fixtures;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tables Delta Lake 4.0 wrote (a type-widened table and a variant table, {@link DeltaLake4Fixtures}), read by
 * Spark as Delta reads them: every version in batch ({@code versionAsOf}), and the change feed of a stream from
 * version 1 — through every widening — where Delta answers it. Columns are compared as Spark's {@code CAST} to
 * string renders them in UTC; a variant as the JSON text of {@code to_json} (Spark 4) or as read (before it).
 */
class DeltaLake4TablesReadTest {
  private static final List<String> CHANGES = Collections.synchronizedList(new ArrayList<>());
  static SparkSession spark;
  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();
  String zone;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() {
    servers.forEach(DeltaSharingServer::close);
    TestSpark.sessionZone(zone);
  }

  private String serve(String name) {
    zone = TestSpark.sessionZone("UTC");
    Path dir = DeltaLake4Fixtures.copy(name, tmp.resolve(name));
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", dir, true).start();
    servers.add(s);
    return s.writeProfile(tmp.resolve(name + ".share")) + "#s.sc.t";
  }

  /** The truth's columns of {@code df} as text: a Spark variant by {@code to_json}, all else by {@code CAST}. */
  private static String[] texts(Dataset<Row> df, List<String> columns) {
    return columns.stream().map(c -> df.selectExpr(c).schema().fields()[0].dataType().typeName().equals("variant")
        ? "to_json(" + c + ")" : "CAST(" + c + " AS STRING)").toArray(String[]::new);
  }

  private static String row(Row r, int columns) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      values.add(r.isNullAt(i) ? null : r.getString(i));
    }
    return DeltaLake4Fixtures.row(values);
  }

  private void readsAsDelta(String name) throws Exception {
    String path = serve(name);
    DeltaLake4Fixtures.Truth truth = DeltaLake4Fixtures.truth(name);
    NavigableMap<Long, List<String>> snapshots = new TreeMap<>();
    for (long v : truth.snapshots.keySet()) {
      Dataset<Row> df = spark.read().format("deltaSharing").option("versionAsOf", v).load(path);
      snapshots.put(v, df.selectExpr(texts(df, truth.columns)).collectAsList().stream()
          .map(r -> row(r, truth.columns.size())).sorted().collect(Collectors.toList()));
    }
    assertThat(snapshots).as("%s: every version", name).isEqualTo(truth.snapshots);

    CHANGES.clear();
    Dataset<Row> stream = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("readChangeFeed", "true").option("maxFilesPerTrigger", "2").load(path);
    List<String> columns = new ArrayList<>(List.of(texts(stream, truth.columns)));
    columns.add("_change_type");
    columns.add("CAST(_commit_version AS STRING)");
    int n = truth.columns.size() + 1;
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> batch.selectExpr(columns.toArray(new String[0]))
        .collectAsList().forEach(r -> CHANGES.add(r.getString(n) + "#" + row(r, n)));
    StreamingQuery q = stream.writeStream().foreachBatch(sink)
        .option("checkpointLocation", tmp.resolve(name + "-checkpoint").toString()).start();
    try {
      q.processAllAvailable();
    } finally {
      q.stop();
    }
    NavigableMap<Long, List<String>> changes = new TreeMap<>();
    for (String c : CHANGES) {
      changes.computeIfAbsent(Long.parseLong(c.substring(0, c.indexOf('#'))), v -> new ArrayList<>())
          .add(c.substring(c.indexOf('#') + 1));
    }
    changes.values().forEach(Collections::sort);
    assertThat(changes.tailMap(truth.changesFrom(), true)).as("%s: change feed from version 1", name)
        .isEqualTo(truth.changeRows());
  }

  @Test
  void aTypeWidenedTableDeltaLake4WroteReadsAsDeltaReadsIt() throws Exception {
    readsAsDelta(DeltaLake4Fixtures.TYPE_WIDENING);
  }

  @Test
  void aVariantTableDeltaLake4WroteReadsAsDeltaReadsIt() throws Exception {
    readsAsDelta(DeltaLake4Fixtures.VARIANT);
  }
}
