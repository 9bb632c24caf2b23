package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.AccessSettings;
import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.BatchPlanner;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.storage.StorageSettings;
import io.sharestream.common.types.Row;
import io.sharestream.testkit.delta.DeltaLake4Fixtures;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables Delta Lake 4.0 (delta-spark 4.0.0 on Spark 4.0.0) wrote, kept in the kit ({@link DeltaLake4Fixtures}, what the
 * engines' tests read): a type-widened table (every widening it allows, one ALTER per version, with rows before and
 * after, an UPDATE and a DELETE) and a variant table (values of every kind, top-level and in a struct). Delta still
 * reads them as recorded; the kit serves them; the core's snapshot at every version and its streams from version 1
 * (change feed and default), and the Spark source's (built for Spark 4.2, run on 4.0), give exactly those rows
 * (variants as the JSON text of Spark's {@code to_json}, all else as Spark's {@code CAST} to string renders it).
 * {@code -Dfixtures.write=true} has Delta write them anew ({@link #write}) and records its reads.
 */
class DeltaLake4InteropTest {
  static final TableRef T = new TableRef("s", "sc", "t");
  static SparkSession spark;
  @TempDir static Path tmp;

  @BeforeAll
  static void session() {
    spark = SparkSession.builder().master("local[2]").appName("delta-4.0-interop")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate();
  }

  /** The columns each table's rows are read as (cast to string), as the fixtures record them. */
  static final Map<String, List<String>> COLUMNS = Map.of(
      DeltaLake4Fixtures.TYPE_WIDENING, List.of("id", "b", "s", "i", "i2d", "f", "d", "i2dec", "dt", "st.x", "st.y"),
      DeltaLake4Fixtures.VARIANT, List.of("id", "v", "s.note", "s.payload"));

  /** Writes table {@code name} with Delta Lake 4.0 into {@code dir}. */
  static void write(String name, Path dir) {
    String t = "delta.`" + dir + "`";
    if (name.equals(DeltaLake4Fixtures.TYPE_WIDENING)) {
      spark.sql("CREATE TABLE " + t + " (id BIGINT, b BYTE, s SHORT, i INT, i2d INT, f FLOAT, d DECIMAL(5,2), "
          + "i2dec INT, dt DATE, st STRUCT<x: INT, y: STRING>) USING delta TBLPROPERTIES ("
          + "'delta.enableTypeWidening' = 'true', 'delta.enableChangeDataFeed' = 'true', "
          + "'delta.feature.timestampNtz' = 'supported')"); // 0
      spark.sql("INSERT INTO " + t + " VALUES "
          + "(0, 1, 2, 3, 4, 0.1, 1.25, 5, DATE'2024-02-29', named_struct('x', 7, 'y', 'a')), "
          + "(1, -128, -32768, -2147483648, 2147483647, -3.4028235E38, -999.99, -2147483648, DATE'1900-01-01', "
          + "named_struct('x', -2147483648, 'y', 'b')), "
          + "(2, 127, 32767, 2147483647, -7, 1.5, 999.99, 2147483647, DATE'9999-12-31', named_struct('x', 0, "
          + "'y', NULL)), "
          + "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"); // 1
      for (String widening : List.of("b TYPE SHORT", "s TYPE INT", "i TYPE BIGINT", "i2d TYPE DOUBLE",
          "f TYPE DOUBLE", "d TYPE DECIMAL(10,4)", "i2dec TYPE DECIMAL(12,2)", "dt TYPE TIMESTAMP_NTZ",
          "st.x TYPE BIGINT")) {
        spark.sql("ALTER TABLE " + t + " ALTER COLUMN " + widening); // 2..10
      }
      spark.sql("INSERT INTO " + t + " VALUES (4, 1000, 100000, 3000000000, 1.5, 1e300, 123456.7891, "
          + "1234567890.12, TIMESTAMP_NTZ'2024-03-01 12:34:56.789', named_struct('x', 5000000000, 'y', 'c'))"); // 11
      spark.sql("UPDATE " + t + " SET i = i + 1, st.y = 'updated' WHERE id = 0"); // 12
      spark.sql("DELETE FROM " + t + " WHERE id = 1"); // 13
    } else {
      spark.sql("CREATE TABLE " + t + " (id BIGINT, v VARIANT, s STRUCT<note: STRING, payload: VARIANT>) USING "
          + "delta TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')"); // 0
      List<String> values = List.of(
          "parse_json('{\"name\":\"widget\",\"size\":{\"w\":2,\"h\":1.50},\"tags\":[\"a\",\"b\"],\"ok\":true,"
              + "\"none\":null}')",
          "parse_json('[1, 300, 70000, 5000000000, 2.5, -0.25, 1e300]')",
          "parse_json('\"say \\\\\"hi\\\\\"\\\\n é\"')",
          "parse_json('null')",
          "CAST(NULL AS VARIANT)",
          "CAST(12.3400BD AS VARIANT)",
          "CAST(TIMESTAMP'2024-03-01 10:15:30.00025' AS VARIANT)",
          "CAST(TIMESTAMP_NTZ'2024-03-01 10:15:30' AS VARIANT)",
          "CAST(DATE'2024-02-29' AS VARIANT)",
          "CAST(X'000102FF' AS VARIANT)",
          "CAST(CAST(1.5 AS FLOAT) AS VARIANT)");
      StringBuilder rows = new StringBuilder();
      for (int id = 0; id < values.size(); id++) {
        String v = values.get(id);
        rows.append(id == 0 ? "" : ", ").append("(").append(id).append(", ").append(v).append(", ")
            .append(id % 3 == 2 ? "NULL" : "named_struct('note', 'n" + id + "', 'payload', " + v + ")").append(")");
      }
      spark.sql("INSERT INTO " + t + " VALUES " + rows); // 1
      spark.sql("UPDATE " + t + " SET v = parse_json('{\"updated\":[true]}') WHERE id = 1"); // 2
      spark.sql("DELETE FROM " + t + " WHERE id = 2"); // 3
      spark.sql("INSERT INTO " + t + " SELECT 100, parse_json('{\"b\":1,\"a\":{\"z\":null}}'), NULL"); // 4
    }
  }

  /** Delta's reads of the table at {@code dir}: every version's rows and the change data feed from version 1. */
  static DeltaLake4Fixtures.Truth read(String name, Path dir) {
    List<String> columns = COLUMNS.get(name);
    Dataset<org.apache.spark.sql.Row> latestRows = spark.read().format("delta").load(dir.toString());
    String[] casts = columns.stream().map(c -> text(latestRows, c)).toArray(String[]::new);
    long latest = spark.sql("DESCRIBE HISTORY delta.`" + dir + "`").selectExpr("max(version)").first().getLong(0);
    Map<Long, List<String>> snapshots = new TreeMap<>();
    for (long v = 0; v <= latest; v++) {
      snapshots.put(v, rows(spark.read().format("delta").option("versionAsOf", v).load(dir.toString())
          .selectExpr(casts)));
    }
    String[] withChange = Stream.concat(Stream.of(casts), Stream.of("_change_type", "_commit_version"))
        .toArray(String[]::new);
    Map<Long, List<String>> changes = new TreeMap<>();
    for (long v = 1; v <= latest; v++) {
      List<org.apache.spark.sql.Row> feed;
      try {
        feed = spark.read().format("delta").option("readChangeFeed", "true").option("startingVersion", v)
            .option("endingVersion", v).load(dir.toString()).selectExpr(withChange).collectAsList();
      } catch (RuntimeException e) {
        if (!String.valueOf(e.getMessage()).contains("DELTA_CHANGE_DATA_FEED_INCOMPATIBLE")) {
          throw e;
        }
        System.out.println("Delta refuses the change feed of version " + v + " of " + name);
        changes.clear(); // Delta reads no change feed across a type change: the truth's starts after it
        continue;
      }
      List<String> rows = new ArrayList<>();
      for (org.apache.spark.sql.Row r : feed) {
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < casts.length + 1; i++) {
          values.add(r.isNullAt(i) ? null : r.getString(i));
        }
        rows.add(DeltaLake4Fixtures.row(values));
      }
      changes.put(v, rows);
    }
    return new DeltaLake4Fixtures.Truth(columns, snapshots, changes);
  }

  /** Column {@code c} of {@code df} as text: a variant's JSON ({@code to_json}), else {@code CAST(c AS STRING)}. */
  static String text(Dataset<org.apache.spark.sql.Row> df, String c) {
    boolean variant = df.selectExpr(c).schema().fields()[0].dataType().typeName().equals("variant");
    return variant ? "to_json(" + c + ")" : "CAST(" + c + " AS STRING)";
  }

  private static List<String> rows(Dataset<org.apache.spark.sql.Row> df) {
    return df.collectAsList().stream().map(r -> {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < r.size(); i++) {
        values.add(r.isNullAt(i) ? null : r.getString(i));
      }
      return DeltaLake4Fixtures.row(values);
    }).sorted().collect(Collectors.toList());
  }

  /** A core row's {@code columns} as the truth records them. */
  static String text(Row row, List<String> columns) {
    List<Object> values = new ArrayList<>();
    for (String c : columns) {
      Object v = row;
      for (String part : c.split("\\.")) {
        v = v == null ? null : ((Row) v).get(part);
      }
      values.add(v);
    }
    return DeltaLake4Fixtures.row(values);
  }

  /** A client of {@code server}, reaching its object store for tables shared for directory access. */
  private static DeltaSharingClient client(DeltaSharingServer server) {
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT
        .withAccess(AccessSettings.DEFAULT.withStorage(StorageSettings.defaults().withS3Endpoint(
            server.objectStore().endpoint()).withS3PathStyle(true).withS3Region(server.objectStore().region()))));
  }

  /** The core's snapshot at every version of the truth. */
  static NavigableMap<Long, List<String>> coreSnapshots(DeltaSharingClient client, DeltaLake4Fixtures.Truth truth) {
    NavigableMap<Long, List<String>> out = new TreeMap<>();
    for (long v : truth.snapshots.keySet()) {
      List<String> rows = new ArrayList<>();
      for (WorkUnit u : BatchPlanner.snapshot(client, T, v, null, null, null, null).units()) {
        try (UnitReader r = UnitReader.open(client, u, new UnitUrls(new FileLister(client, T, null), u),
            u.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> rows.add(text(c.row(), truth.columns)));
        }
      }
      rows.sort(Comparator.naturalOrder());
      out.put(v, rows);
    }
    return out;
  }

  /** The core's stream from version 1 with {@code options}: rows per version (with change types in the feed). */
  static NavigableMap<Long, List<String>> coreStream(DeltaSharingClient client, List<String> columns,
      Map<String, String> options) {
    Map<String, String> all = new LinkedHashMap<>(options);
    all.put("startingVersion", "1");
    boolean feed = all.containsKey("readChangeFeed");
    NavigableMap<Long, List<String>> out = new TreeMap<>();
    try (SharingStreamPlanner p = new SharingStreamPlanner(client, T, StreamOptions.parse(all), Duration.ZERO,
        Clock.systemUTC())) {
      Position pos = p.initialPosition();
      for (int guard = 0; guard < 1000; guard++) {
        StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.files(2));
        for (WorkUnit u : plan.units()) {
          try (UnitReader r = UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0)) {
            r.forEachRemaining(c -> out.computeIfAbsent(u.version(), x -> new ArrayList<>())
                .add(text(c.row(), columns) + (feed ? " | " + c.changeType() : "")));
          }
        }
        if (plan.end().equals(pos)) {
          break;
        }
        pos = plan.end();
      }
    }
    out.values().forEach(l -> l.sort(Comparator.naturalOrder()));
    return out;
  }

  /** Each kept table, copied into {@code kept-<name>}, and Delta's reads of it as recorded. */
  private static final Map<String, DeltaLake4Fixtures.Truth> KEPT = new LinkedHashMap<>();

  private static synchronized Map<String, DeltaLake4Fixtures.Truth> kept() {
    if (KEPT.isEmpty()) {
      for (String name : DeltaLake4Fixtures.NAMES) {
        DeltaLake4Fixtures.copy(name, tmp.resolve("kept-" + name));
        KEPT.put(name, DeltaLake4Fixtures.truth(name));
      }
    }
    return KEPT;
  }

  @Test
  void theCoreReadsTablesDeltaLake4WritesAsDeltaReadsThem() {
    kept().forEach((name, truth) -> {
      assertThat(truth.latestVersion()).isGreaterThanOrEqualTo(4);
      for (boolean directory : new boolean[] {false, true}) { // by URL, and from the store (directory access)
        DeltaSharingServer.Builder b = DeltaSharingServer.builder().table("s", "sc", "t", tmp.resolve("kept-" + name),
            true);
        if (directory) {
          b.accessModes("s.sc.t", AccessMode.DIR);
        }
        try (DeltaSharingServer server = b.start()) {
          DeltaSharingClient client = client(server);
          String as = name + (directory ? " from the store" : "");
          assertThat(coreSnapshots(client, truth)).as("%s: every version", as).isEqualTo(truth.snapshots);
          // streams from version 1 (through every widening) give Delta's changes where Delta reads them
          assertThat(coreStream(client, truth.columns, Map.of("readChangeFeed", "true"))
              .tailMap(truth.changesFrom(), true)).as("%s: change feed from version 1", as)
              .isEqualTo(truth.changeRows());
          assertThat(coreStream(client, truth.columns, Map.of()).tailMap(truth.changesFrom(), true))
              .as("%s: default stream from version 1", as).isEqualTo(truth.newImages());
          assertThat(server.requests().count(Endpoint.OBJECT_STORE) > 0).as(as).isEqualTo(directory);
        }
      }
    });
  }

  @Test
  void theSparkSourceOnSpark40ReadsThemAsDeltaDoes() throws Exception {
    for (Map.Entry<String, DeltaLake4Fixtures.Truth> e : kept().entrySet()) {
      String name = e.getKey();
      DeltaLake4Fixtures.Truth truth = e.getValue();
      try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t",
          tmp.resolve("kept-" + name), true).start()) {
        String path = server.writeProfile(tmp.resolve(name + ".share")) + "#s.sc.t";
        NavigableMap<Long, List<String>> snapshots = new TreeMap<>();
        for (long v : truth.snapshots.keySet()) {
          Dataset<org.apache.spark.sql.Row> df = spark.read().format("deltaSharing").option("versionAsOf", v)
              .load(path);
          snapshots.put(v, rows(df.selectExpr(truth.columns.stream().map(c -> text(df, c))
              .toArray(String[]::new))));
        }
        assertThat(snapshots).as("%s: every version", name).isEqualTo(truth.snapshots);
        Dataset<org.apache.spark.sql.Row> stream = spark.readStream().format("deltaSharing")
            .option("startingVersion", "1").option("readChangeFeed", "true").load(path);
        List<String> columns = truth.columns.stream().map(c -> text(stream, c)).collect(Collectors.toList());
        columns.add("_change_type");
        columns.add("CAST(_commit_version AS STRING)");
        String table = "lake4_" + name.replace('-', '_');
        StreamingQuery q = stream.selectExpr(columns.toArray(new String[0])).writeStream().format("memory")
            .queryName(table).trigger(Trigger.AvailableNow())
            .option("checkpointLocation", tmp.resolve(name + "-checkpoint").toString()).start();
        assertThat(q.awaitTermination(180_000)).isTrue();
        NavigableMap<Long, List<String>> changes = new TreeMap<>();
        int n = truth.columns.size() + 1;
        for (org.apache.spark.sql.Row r : spark.table(table).collectAsList()) {
          List<Object> values = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            values.add(r.isNullAt(i) ? null : r.getString(i));
          }
          changes.computeIfAbsent(Long.parseLong(r.getString(n)), x -> new ArrayList<>())
              .add(DeltaLake4Fixtures.row(values));
        }
        changes.values().forEach(l -> l.sort(Comparator.naturalOrder()));
        assertThat(changes.tailMap(truth.changesFrom(), true)).as("%s: change feed from version 1", name)
            .isEqualTo(truth.changeRows());
      }
    }
  }

  @Test
  void theKitsDeltaLake4TablesStillReadAsRecorded() throws IOException {
    boolean rewrite = Boolean.getBoolean("fixtures.write");
    for (String name : DeltaLake4Fixtures.NAMES) {
      if (rewrite) { // checked by the next build, whose kit holds them
        rewrite(name, Paths.get(System.getProperty("fixtures.dir")).resolve(name));
        continue;
      }
      assertThat(read(name, tmp.resolve("kept-" + name))).as(name).isEqualTo(kept().get(name));
    }
  }

  /** Writes table {@code name} anew into {@code fixture}: its files, their list and Delta's reads. */
  private static void rewrite(String name, Path fixture) throws IOException {
    Path table = fixture.resolve("table");
    if (Files.exists(fixture)) {
      try (Stream<Path> all = Files.walk(fixture)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    write(name, table);
    List<String> files;
    try (Stream<Path> all = Files.walk(table)) {
      files = all.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
          .map(p -> table.relativize(p).toString()).sorted().collect(Collectors.toList());
    }
    try (Stream<Path> all = Files.walk(table)) { // Hadoop's checksum files: not part of the table
      all.filter(p -> p.getFileName().toString().startsWith(".") && p.toString().endsWith(".crc"))
          .forEach(p -> p.toFile().delete());
    }
    Files.writeString(fixture.resolve("files.txt"), String.join("\n", files) + "\n", StandardCharsets.UTF_8);
    Files.writeString(fixture.resolve("truth.json"), read(name, table).toJson(), StandardCharsets.UTF_8);
  }
}
