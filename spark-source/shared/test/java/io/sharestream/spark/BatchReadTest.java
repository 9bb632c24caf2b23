package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batch reads: snapshots (latest, at a version, as of an instant), change ranges, filters passed to the server as
 * hints (Spark still filters), every Delta type including nested and partitioned ones with null and escaped values,
 * a log cleaned up to a checkpoint, and the errors a user can act on.
 */
class BatchReadTest {
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

  private DeltaSharingServer server(String name, DeltaTableWriter table, boolean history) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), history).start();
    servers.add(s);
    return s;
  }

  private String serve(String name, DeltaTableWriter table) {
    return server(name, table, true).writeProfile(tmp.resolve(name + ".share")) + "#s.sc." + name;
  }

  private static List<Long> ids(Dataset<Row> df) {
    return df.select("id").collectAsList().stream().map(r -> r.getLong(0)).sorted().collect(Collectors.toList());
  }

  @Test
  void snapshotsAreReadLatestAtAVersionOrAsOfAnInstant() {
    DeltaTableWriter t = ChangeMatrix.write(tmp.resolve("t"), true);
    String path = serve("t", t);
    assertThat(ids(spark.read().format("deltaSharing").load(path))).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L,
        9L, 10L);
    Dataset<Row> v2 = spark.read().format("deltaSharing").option("versionAsOf", "2").load(path);
    assertThat(ids(v2)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
    assertThat(v2.schema().fieldNames()).as("the schema of version 2").containsExactly("id", "name");
    Instant at3 = Instant.ofEpochMilli(t.log().timestamp(3));
    Dataset<Row> asOf = spark.read().format("deltaSharing").option("timestampAsOf", at3.toString()).load(path);
    assertThat(asOf.filter("id = 4").first().<String>getAs("name")).isEqualTo("x4");
  }

  @Test
  void changeRangesReadAsBatchesCarryTheChangeColumns() {
    DeltaTableWriter t = ChangeMatrix.write(tmp.resolve("t"), true);
    String path = serve("t", t);
    Dataset<Row> all = spark.read().format("deltaSharing").option("readChangeFeed", "true")
        .option("startingVersion", "0").load(path);
    List<String> flow = all.collectAsList().stream().map(r -> r.getLong(0) + ":" + r.getString(3) + "@"
        + r.getLong(4) + "/" + r.getString(1)).collect(Collectors.toList());
    flow.sort(java.util.Comparator.comparingLong(f -> Long.parseLong(f.replaceAll(".*@(\\d+).*", "$1"))));
    assertThat(ChangeMatrix.canonical(flow)).isEqualTo(ChangeMatrix.canonical(
        ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true)));
    Dataset<Row> middle = spark.read().format("deltaSharing").option("readChangeFeed", "true")
        .option("startingVersion", "3").option("endingVersion", "4").load(path);
    assertThat(middle.select("_change_type").collectAsList().stream().map(r -> r.getString(0)).sorted()
        .collect(Collectors.toList())).containsExactly("delete", "update_postimage", "update_preimage");
    Instant t3 = Instant.ofEpochMilli(t.log().timestamp(3));
    Instant t4 = Instant.ofEpochMilli(t.log().timestamp(4));
    Dataset<Row> byTime = spark.read().format("deltaSharing").option("readChangeFeed", "true")
        .option("startingTimestamp", t3.toString()).option("endingTimestamp", t4.toString()).load(path);
    assertThat(byTime.count()).isEqualTo(3);
  }

  @Test
  void filtersReachTheServerAsHintsAndSparkStillAppliesThem() {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("region", DeltaType.STRING));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("p"), schema).partitionedBy("region").commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 30; i++) {
      rows.add(Samples.row("id", i, "region", i < 10 ? "eu" : i < 20 ? "us" : "apac"));
    }
    t.append(rows, 5);
    DeltaSharingServer s = server("p", t, true);
    String path = s.writeProfile(tmp.resolve("p.share")) + "#s.sc.p";
    Dataset<Row> eu = spark.read().format("deltaSharing").load(path).filter("region = 'eu' AND id > 6");
    assertThat(ids(eu)).containsExactly(7L, 8L, 9L);
    // the listing carried the hints: of 6 files, only the 'eu' one with ids above 6 (by its stats) is downloaded
    long downloaded = s.requests().entries(Endpoint.STORAGE).stream().map(e -> e.path).distinct().count();
    assertThat(downloaded).isEqualTo(1);
    assertThat(eu.queryExecution().executedPlan().toString()).contains("PushedFilters");
  }

  @Test
  void aLimitOverTheScanBecomesTheServersLimitHint() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("l"), ChangeMatrix.SCHEMA).commit();
    t.append(ChangeMatrix.rows(0, 40), 10); // 4 files of 10 rows
    String path = serve("l", t);
    Dataset<Row> limited = spark.read().format("deltaSharing").load(path).limit(15);
    assertThat(limited.collectAsList()).hasSize(15);
    SharingScan scan = (SharingScan) ((org.apache.spark.sql.execution.datasources.v2.BatchScanExec)
        limited.queryExecution().executedPlan().collectLeaves().head()).scan();
    assertThat(scan.limitHint()).isEqualTo(15);
    Dataset<Row> filtered = spark.read().format("deltaSharing").load(path).filter("id > 35").limit(2);
    assertThat(filtered.collectAsList()).hasSize(2);
    SharingScan unhinted = (SharingScan) ((org.apache.spark.sql.execution.datasources.v2.BatchScanExec)
        filtered.queryExecution().executedPlan().collectLeaves().head()).scan();
    assertThat(unhinted.limitHint()).as("a filter between the limit and the scan: no hint").isNull();
  }

  @Test
  void everyDeltaTypeNestedAndPartitionedWithNullAndEscapedValuesReadsAsWritten() {
    DeltaType.StructType schema = Samples.ALL_TYPES.add(DeltaType.field("part", DeltaType.STRING))
        .add(DeltaType.field("pday", DeltaType.DATE));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("all"), schema).partitionedBy("part", "pday").commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    String[] parts = {"a/b=c%d", null, "plain"};
    LocalDate[] days = {LocalDate.of(2024, 2, 29), LocalDate.of(1999, 12, 31), null};
    for (int i = 0; i < 3; i++) {
      Map<String, Object> r = new HashMap<>(Samples.allTypeRows().get(i));
      r.put("part", parts[i]);
      r.put("pday", days[i]);
      rows.add(r);
    }
    t.append(rows);
    String path = serve("all", t);
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    assertThat(df.schema().apply("m").dataType()).isEqualTo(DataTypes.createMapType(DataTypes.StringType,
        DataTypes.createStructType(List.of(DataTypes.createStructField("v", DataTypes.DoubleType, true))), true));
    assertThat(df.schema().apply("id").nullable()).isFalse();
    Map<Long, Row> byId = df.collectAsList().stream().collect(Collectors.toMap(r -> r.getLong(0), r -> r));
    Row one = byId.get(1L);
    assertThat(one.<String>getAs("s")).isEqualTo("quote\" newline\n ünïcødé ✓");
    assertThat(one.<BigDecimal>getAs("dec38")).isEqualByComparingTo("-12345678901234567890.123456789012345678");
    assertThat(one.<java.sql.Timestamp>getAs("ts").toInstant()).isEqualTo(Instant.parse("1969-07-20T20:17:40.123456Z"));
    assertThat(one.<java.sql.Date>getAs("d").toLocalDate()).isEqualTo(LocalDate.of(9999, 12, 31));
    assertThat(one.<byte[]>getAs("bin")).containsExactly(0, 1, 0xFF);
    assertThat(one.<Row>getAs("st").getList(1)).containsExactly("a", null, "");
    assertThat(one.getList(one.fieldIndex("nested"))).hasSize(3);
    assertThat(one.getJavaMap(one.fieldIndex("m"))).containsKey("k2");
    assertThat(one.<String>getAs("part")).isEqualTo("a/b=c%d");
    assertThat(one.<java.sql.Date>getAs("pday").toLocalDate()).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(byId.get(2L).<String>getAs("part")).isNull();
    assertThat(byId.get(3L).<java.sql.Date>getAs("pday")).isNull();
    assertThat(byId.get(3L).<String>getAs("s")).isNull();
    // flat columns: vectorized; nested ones: Spark 3.1's row reader, the vectorized one of later Sparks
    assertThat(df.select("id", "s", "part").queryExecution().executedPlan().toString()).contains("ColumnarToRow");
    boolean nestedVectorized = !spark.version().startsWith("3.1");
    assertThat(df.queryExecution().executedPlan().toString().contains("ColumnarToRow")).isEqualTo(nestedVectorized);
  }

  @Test
  void aLogCleanedUpToACheckpointIsReadFromItsFirstRemainingVersion() throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("cleaned"), ChangeMatrix.SCHEMA).commit();
    for (int v = 1; v <= 5; v++) {
      t.append(ChangeMatrix.rows(v * 10L, v * 10L + 10));
    }
    t.checkpoint(); // 5
    t.append(ChangeMatrix.rows(100, 105)); // 6
    t.cleanUpLogBefore(5);
    String path = serve("cleaned", t);
    assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(55);
    assertThat(spark.read().format("deltaSharing").option("versionAsOf", "5").load(path).count()).isEqualTo(50);
    Dataset<Row> stream = spark.readStream().format("deltaSharing").option("startingVersion", "5").load(path);
    org.apache.spark.sql.streaming.StreamingQuery q = stream.writeStream().format("memory").queryName("cleaned")
        .start();
    try {
      q.processAllAvailable();
      assertThat(spark.sql("SELECT * FROM cleaned").count()).isEqualTo(15);
    } finally {
      q.stop();
    }
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("versionAsOf", "2").load(path).count())
        .hasMessageContaining("no longer available");
  }

  @Test
  void errorsNameTheProblemAndTheFix() {
    DeltaTableWriter t = ChangeMatrix.write(tmp.resolve("t"), false);
    DeltaSharingServer nohistory = server("nohistory", t, false);
    String noHistoryPath = nohistory.writeProfile(tmp.resolve("nh.share")) + "#s.sc.nohistory";
    assertThatThrownBy(() -> spark.readStream().format("deltaSharing").load(noHistoryPath).writeStream()
        .format("memory").queryName("nh").start().processAllAvailable()).hasMessageContaining("WITH HISTORY");
    assertThat(spark.read().format("deltaSharing").load(noHistoryPath).count()).as("a snapshot needs no history")
        .isEqualTo(10);

    String path = serve("t", t);
    String unknown = path.replace("#s.sc.t", "#s.sc.nope");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").load(unknown)).hasMessageContaining("HTTP 404")
        .hasMessageContaining("check the share, schema and table names");
    // change data never recorded is no error: the changes are derived from added and removed files (SPEC §6)
    assertThat(spark.read().format("deltaSharing").option("readChangeFeed", "true").option("startingVersion", "0")
        .load(path).count()).isEqualTo(ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, false).size());
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("startingVersion", "x").load(path))
        .hasMessageContaining("'startingVersion' must be");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("startingVersoin", "1").load(path))
        .hasMessageContaining("Unknown option [startingVersoin]");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").schema("id long").load(path))
        .hasMessageContaining("takes no other: remove .schema(...)");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").load(tmp.resolve("none.share") + "#s.sc.t"))
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").load("s.sc.t"))
        .hasMessageContaining("<profile-file>#<share>.<schema>.<table>");

    // a table that needs the delta format, asked for parquet only; one that needs a reader feature not read here
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .commit();
    String dvPath = serve("dv", dv);
    assertThat(spark.read().format("deltaSharing").load(dvPath).count()).isZero();
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("responseFormat", "parquet").load(dvPath))
        .hasMessageContaining("'delta' response format").hasMessageContaining("set responseFormat=auto");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("responseFormat", "xml").load(dvPath))
        .hasMessageContaining("'responseFormat' must be auto, parquet or delta");
    DeltaTableWriter variant = DeltaTableWriter.create(tmp.resolve("variant"), ChangeMatrix.SCHEMA)
        .protocol(3, 7, List.of("variantType", "catalogOwned-preview"), List.of("variantType", "catalogOwned-preview")).commit();
    String variantPath = serve("variant", variant);
    assertThatThrownBy(() -> spark.read().format("deltaSharing").load(variantPath))
        .hasMessageContaining("reader feature catalogOwned-preview").hasMessageContaining("s.sc.variant");
  }

  @Test
  void theProfileMayComeFromOptions() {
    DeltaTableWriter t = ChangeMatrix.write(tmp.resolve("t"), false);
    DeltaSharingServer s = server("t", t, true);
    Dataset<Row> df = spark.read().format("deltaSharing").option("shareCredentialsVersion", "1")
        .option("endpoint", s.endpoint()).option("bearerToken", s.bearerToken()).load("s.sc.t");
    assertThat(df.count()).isEqualTo(10);
    s.enableOAuth("client", "secret", java.time.Duration.ofMinutes(10));
    Dataset<Row> oauth = spark.read().format("deltaSharing").option("shareCredentialsVersion", "2")
        .option("type", "oauth_client_credentials").option("endpoint", s.endpoint())
        .option("tokenEndpoint", s.tokenEndpoint()).option("clientId", "client").option("clientSecret", "secret")
        .load("s.sc.t");
    assertThat(oauth.count()).isEqualTo(10);
  }
}
