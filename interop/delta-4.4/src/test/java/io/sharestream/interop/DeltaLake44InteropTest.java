package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.BatchPlanner;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.Row;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta Lake 4.4 (delta-spark 4.4.0 on Spark 4.2.0) writes a table of geometries and geographies (reader feature
 * {@code geospatial}), read as their WKB by the core and as Spark's own types by the source on Spark 4.2; and a table
 * whose variants it stores shredded
 * ({@code delta.enableVariantShredding}: typed columns for what most rows share, the rest in the variant binary,
 * objects partially shredded, over several files with different shredding), top-level and in a struct, then updates
 * and deletes; the kit serves it. The core (what the connector and the CLI read with) gives Delta's rows at every
 * version as the JSON text of Spark's {@code to_json}, and the Spark source on Spark 4.2 gives them as variants, and
 * its change feed, exactly as Delta reads the table.
 */
class DeltaLake44InteropTest {
  static final TableRef T = new TableRef("s", "sc", "t");
  static SparkSession spark;
  @TempDir static Path tmp;
  static Path table;
  static Map<Long, List<String>> truth;
  static DeltaSharingServer server;
  /** POINT (1 2) and LINESTRING (0 0, 1 1) in ISO WKB, little-endian. */
  static final String POINT = "0101000000000000000000F03F0000000000000040";
  static final String LINE = "0102000000020000000000000000000000000000000000000000000000000000000000F03F000000000000F03F";
  static Path geo;
  static Map<Long, List<String>> geoTruth;

  @BeforeAll
  static void write() throws Exception {
    spark = SparkSession.builder().master("local[2]").appName("delta-4.4-interop")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate();
    table = tmp.resolve("shredded");
    String t = "delta.`" + table + "`";
    spark.sql("CREATE TABLE " + t + " (id BIGINT, v VARIANT, s STRUCT<note: STRING, payload: VARIANT>) USING delta "
        + "TBLPROPERTIES ('delta.enableVariantShredding' = 'true', 'delta.enableChangeDataFeed' = 'true')"); // 0
    List<String> values = List.of(
        "parse_json('{\"name\":\"widget\",\"size\":{\"w\":2,\"h\":1.50},\"tags\":[\"a\",\"b\"],\"ok\":true}')",
        "parse_json('{\"name\":\"gadget\",\"size\":{\"w\":3,\"h\":2.25},\"tags\":[\"c\"],\"ok\":false,"
            + "\"extra\":{\"deep\":[1,2,{\"x\":null}]}}')",
        "parse_json('{\"name\":\"gizmo\",\"size\":{\"w\":4,\"h\":0.5},\"tags\":[],\"ok\":true,\"note\":\"é \\\\\"q\\\\\"\"}')",
        "parse_json('{\"name\":7,\"size\":\"big\",\"tags\":null,\"ok\":\"yes\"}')",
        "parse_json('{\"name\":\"w\",\"size\":{\"w\":1e300,\"h\":-0.5,\"d\":3},\"tags\":[\"x\",1,null]}')",
        "parse_json('\"just a string\"')",
        "parse_json('[1, 300, 70000, 5000000000, 2.5, -0.25]')",
        "parse_json('null')",
        "CAST(NULL AS VARIANT)",
        "CAST(TIMESTAMP'2024-03-01 10:15:30.00025' AS VARIANT)",
        "CAST(12.3400BD AS VARIANT)",
        "parse_json('{\"name\":\"last\",\"size\":{\"w\":9,\"h\":9.99},\"tags\":[\"z\"],\"ok\":false}')");
    StringBuilder rows = new StringBuilder();
    for (int id = 0; id < values.size(); id++) {
      String v = values.get(id);
      rows.append(id == 0 ? "" : ", ").append("(").append(id).append(", ").append(v).append(", ")
          .append(id % 4 == 3 ? "NULL" : "named_struct('note', 'n" + id + "', 'payload', " + v + ")").append(")");
    }
    spark.sql("INSERT INTO " + t + " VALUES " + rows); // 1
    spark.sql("UPDATE " + t + " SET v = parse_json('{\"name\":\"updated\",\"tags\":[\"u\"],\"size\":{\"w\":1}}') "
        + "WHERE id = 1"); // 2
    spark.sql("DELETE FROM " + t + " WHERE id = 3"); // 3
    spark.sql("INSERT INTO " + t + " SELECT 100 + id, parse_json('[{\"a\":' || id || '},{\"a\":2,\"b\":\"x\"}]'), "
        + "named_struct('note', 'later', 'payload', parse_json('{\"k\":' || id || '}')) FROM range(3)"); // 4
    truth = new TreeMap<>();
    for (long version = 0; version <= 4; version++) {
      truth.put(version, sorted(spark.read().format("delta").option("versionAsOf", version).load(table.toString())
          .selectExpr("CAST(id AS STRING)", "to_json(v)", "s.note", "to_json(s.payload)")));
    }
    geo = tmp.resolve("geo");
    String g = "delta.`" + geo + "`";
    spark.conf().set("spark.databricks.delta.geo.preview.enabled", "true"); // Delta 4.4's gate for geospatial
    spark.sql("CREATE TABLE " + g + " (id INT, shape GEOMETRY(4326), place GEOGRAPHY(4326)) USING delta"); // 0
    spark.sql("INSERT INTO " + g + " VALUES "
        + "(1, ST_GeomFromWKB(X'" + POINT + "', 4326), ST_GeogFromWKB(X'" + POINT + "')), "
        + "(2, ST_GeomFromWKB(X'" + LINE + "', 4326), NULL), (3, NULL, ST_GeogFromWKB(X'" + LINE + "'))"); // 1
    spark.sql("DELETE FROM " + g + " WHERE id = 2"); // 2
    geoTruth = new TreeMap<>();
    for (long version = 0; version <= 2; version++) {
      geoTruth.put(version, sorted(spark.read().format("delta").option("versionAsOf", version).load(geo.toString())
          .selectExpr("CAST(id AS STRING)", "hex(ST_AsBinary(shape))", "hex(ST_AsBinary(place))")));
    }
    server = DeltaSharingServer.builder().table("s", "sc", "t", table, true).table("s", "sc", "geo", geo, true)
        .start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void deltaStoredTheVariantsShreddedOverSeveralFiles() throws Exception {
    List<Path> files;
    try (Stream<Path> all = Files.list(table)) {
      files = all.filter(p -> p.toString().endsWith(".parquet")).collect(Collectors.toList());
    }
    int shredded = 0;
    for (Path f : files) {
      try (org.apache.parquet.hadoop.ParquetFileReader r = org.apache.parquet.hadoop.ParquetFileReader.open(
          org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(f.toUri()),
              new org.apache.hadoop.conf.Configuration()))) {
        String schema = r.getFooter().getFileMetaData().getSchema().toString();
        shredded += schema.contains("typed_value") ? 1 : 0;
      }
    }
    assertThat(shredded).as("data files with shredded variants, of %s", files).isGreaterThanOrEqualTo(2);
    assertThat(spark.sql("DESCRIBE DETAIL delta.`" + table + "`").selectExpr("array_join(tableFeatures, ',')")
        .first().getString(0)).contains("variantShredding");
  }

  @Test
  void theCoreReadsEveryVersionAsDeltaDoes() {
    DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
        ClientSettings.DEFAULT);
    for (long version : truth.keySet()) {
      List<String> rows = new ArrayList<>();
      for (WorkUnit u : BatchPlanner.snapshot(client, T, version, null, null, null, null).units()) {
        try (UnitReader r = UnitReader.open(client, u, new UnitUrls(new FileLister(client, T, null), u), u.schema(),
            ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> rows.add(line(c.row())));
        }
      }
      rows.sort(null);
      assertThat(rows).as("version %d", version).isEqualTo(truth.get(version));
    }
  }

  @Test
  void theSparkSourceOnSpark42ReadsEveryVersionAndTheChangeFeedAsDeltaDoes() throws Exception {
    String path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
    for (long version : truth.keySet()) {
      Dataset<org.apache.spark.sql.Row> df = spark.read().format("deltaSharing").option("versionAsOf", version)
          .load(path);
      assertThat(df.schema().apply("v").dataType().typeName()).isEqualTo("variant");
      assertThat(sorted(df.selectExpr("CAST(id AS STRING)", "to_json(v)", "s.note", "to_json(s.payload)")))
          .as("version %d", version).isEqualTo(truth.get(version));
    }
    String[] columns = {"CAST(id AS STRING)", "to_json(v)", "s.note", "to_json(s.payload)", "_change_type",
        "CAST(_commit_version AS STRING)"};
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "1")
        .option("readChangeFeed", "true").load(path).selectExpr(columns).writeStream().format("memory")
        .queryName("shredded_feed").trigger(Trigger.AvailableNow())
        .option("checkpointLocation", tmp.resolve("checkpoint").toString()).start();
    assertThat(q.awaitTermination(180_000)).isTrue();
    List<String> expected = sorted(spark.read().format("delta").option("readChangeFeed", "true")
        .option("startingVersion", "1").load(table.toString()).selectExpr(columns));
    assertThat(sorted(spark.table("shredded_feed"))).isEqualTo(expected).hasSizeGreaterThan(10);
  }

  @Test
  void geometriesAndGeographiesReadAsTheirWkbInTheCoreAndAsSparksTypesOnSpark42() throws Exception {
    DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
        ClientSettings.DEFAULT);
    TableRef ref = new TableRef("s", "sc", "geo");
    for (long version : geoTruth.keySet()) {
      List<String> rows = new ArrayList<>();
      for (WorkUnit u : BatchPlanner.snapshot(client, ref, version, null, null, null, null).units()) {
        assertThat(u.schema().field("shape").type().simpleString()).isEqualTo("geometry(OGC:CRS84)");
        try (UnitReader r = UnitReader.open(client, u, new UnitUrls(new FileLister(client, ref, null), u),
            u.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> rows.add(String.join(" | ", String.valueOf(c.row().get("id")),
              hex((byte[]) c.row().get("shape")), hex((byte[]) c.row().get("place")))));
        }
      }
      rows.sort(null);
      assertThat(rows).as("version %d", version).isEqualTo(geoTruth.get(version));
    }
    assertThat(geoTruth.get(1L)).contains("1 | " + POINT + " | " + POINT);

    String path = server.writeProfile(tmp.resolve("geo.share")) + "#s.sc.geo";
    for (long version : geoTruth.keySet()) {
      Dataset<org.apache.spark.sql.Row> df = spark.read().format("deltaSharing").option("versionAsOf", version)
          .load(path);
      assertThat(df.schema().apply("shape").dataType().typeName()).startsWith("geometry");
      assertThat(df.schema().apply("place").dataType().typeName()).startsWith("geography");
      assertThat(sorted(df.selectExpr("CAST(id AS STRING)", "hex(ST_AsBinary(shape))", "hex(ST_AsBinary(place))")))
          .as("version %d", version).isEqualTo(geoTruth.get(version));
    }
  }

  private static String hex(byte[] b) {
    if (b == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder();
    for (byte x : b) {
      out.append(String.format("%02X", x));
    }
    return out.toString();
  }

  /** A core row as the truth records it: id, v, s.note, s.payload. */
  private static String line(Row r) {
    Row s = (Row) r.get("s");
    return String.join(" | ", String.valueOf(r.get("id")), String.valueOf(r.get("v")),
        String.valueOf(s == null ? null : s.get("note")), String.valueOf(s == null ? null : s.get("payload")));
  }

  private static List<String> sorted(Dataset<org.apache.spark.sql.Row> df) {
    return df.collectAsList().stream().map(r -> {
      List<String> values = new ArrayList<>();
      for (int i = 0; i < r.size(); i++) {
        values.add(r.isNullAt(i) ? "null" : r.get(i).toString());
      }
      return String.join(" | ", values);
    }).sorted().collect(Collectors.toList());
  }
}
