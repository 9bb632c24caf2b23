package io.sharestream.spark;

import static io.sharestream.testkit.delta.VariantValue.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.VariantValue;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Variant columns (Delta's {@code variantType}) read by Spark: on Spark 4 as Spark's own variant type (its functions
 * work on them), before it as their JSON text, exactly what Spark 4 renders ({@code to_json}, timestamps in the
 * session's time zone) — top-level (vectorized where Spark reads batches), in a struct and in an array (rows), in
 * batch reads and in a stream from version 0; filters on them are not pushed; a malformed variant fails (naming the
 * column and the file where this source renders it).
 */
class VariantReadTest {
  private static final DeltaType.StructType SCHEMA = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("v", DeltaType.VARIANT),
      DeltaType.field("s", DeltaType.struct(DeltaType.field("note", DeltaType.STRING),
          DeltaType.field("payload", DeltaType.VARIANT))),
      DeltaType.field("arr", DeltaType.array(DeltaType.VARIANT, true)));
  /** Values of every kind, and the JSON text each reads as in the session zone America/New_York (null: NULL). */
  private static final List<Object[]> CASES = List.of(
      new Object[] {object("name", "widget", "size", object("w", 2, "h", new BigDecimal("1.50")), "tags",
          List.of("a", "b"), "ok", true, "none", null), "{\"name\":\"widget\",\"none\":null,\"ok\":true,"
          + "\"size\":{\"h\":1.5,\"w\":2},\"tags\":[\"a\",\"b\"]}"},
      new Object[] {List.of(1, 300, 70000, 5_000_000_000L, 2.5, -0.25f), "[1,300,70000,5000000000,2.5,-0.25]"},
      new Object[] {"say \"hi\"\n\té😀", "\"say \\\"hi\\\"\\n\\té😀\""},
      new Object[] {VariantValue.NULL, "null"},
      new Object[] {null, null},
      new Object[] {new BigDecimal("12.3400"), "12.34"},
      new Object[] {Instant.parse("2024-03-01T10:15:30.000250Z"), "\"2024-03-01 05:15:30.00025-05:00\""},
      new Object[] {LocalDate.of(2024, 2, 29), "\"2024-02-29\""},
      new Object[] {new byte[] {0, 1, 2, (byte) 0xFF}, "\"AAEC/w==\""});

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
    if (zone != null) {
      TestSpark.sessionZone(zone);
    }
  }

  private String serve(String name, DeltaTableWriter table) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), true).start();
    servers.add(s);
    return s.writeProfile(tmp.resolve(name + ".share")) + "#s.sc." + name;
  }

  private void inNewYork() {
    zone = TestSpark.sessionZone("America/New_York");
  }

  private static Map<String, Object> row(long id) {
    Object v = CASES.get((int) (id % CASES.size()))[0];
    Map<String, Object> r = new HashMap<>();
    r.put("id", id);
    r.put("v", v);
    r.put("s", id % 3 == 2 ? null : object("note", "n" + id, "payload", v));
    List<Object> arr = new ArrayList<>();
    arr.add(v);
    arr.add(object("i", id));
    r.put("arr", id % 4 == 3 ? null : arr);
    return r;
  }

  private static String expected(long id) {
    return (String) CASES.get((int) (id % CASES.size()))[1];
  }

  /** A table of {@code n} rows over two versions and several files. */
  private DeltaTableWriter table(int n) {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), SCHEMA).commit(); // 0
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long id = 0; id < n; id++) {
      rows.add(row(id));
    }
    t.append(rows.subList(0, n / 2)); // 1
    t.append(rows.subList(n / 2, n), 3); // 2: three files
    return t;
  }

  /** A column's JSON text: the column itself before Spark 4, {@code to_json} of the variant on Spark 4. */
  private static String text(String column) {
    return VariantText.asText() ? column : "to_json(" + column + ")";
  }

  /** Each row's id and the JSON text of {@code variants} (the values of other string columns), by id. */
  private static Map<Long, List<String>> texts(Dataset<Row> df, String... variants) {
    List<String> select = new ArrayList<>(List.of("id"));
    for (String c : variants) {
      select.add(c.equals("s.note") ? c : text(c));
    }
    Map<Long, List<String>> out = new TreeMap<>();
    for (Row r : df.selectExpr(select.toArray(new String[0])).collectAsList()) {
      List<String> values = new ArrayList<>();
      for (int i = 1; i < r.size(); i++) {
        values.add(r.isNullAt(i) ? null : r.getString(i));
      }
      out.put(r.getLong(0), values);
    }
    return out;
  }

  @Test
  void variantColumnsReadAsSparkVariantsOnSpark4AndAsTheirJsonTextBefore() {
    inNewYork();
    int n = 36;
    String path = serve("t", table(n));
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    org.apache.spark.sql.types.DataType variant = VariantText.asText() ? DataTypes.StringType
        : org.apache.spark.sql.types.DataType.fromJson("\"variant\"");
    assertThat(df.schema().apply("v").dataType()).isEqualTo(variant);
    assertThat(df.schema().apply("arr").dataType()).isEqualTo(DataTypes.createArrayType(variant, true));

    Map<Long, List<String>> top = texts(df, "v"); // top-level only: batches where Spark reads them
    Map<Long, List<String>> all = texts(df, "v", "s.payload", "s.note", "arr[0]", "arr[1]");
    assertThat(top).hasSize(n);
    assertThat(all).hasSize(n);
    for (long id = 0; id < n; id++) {
      String v = expected(id);
      assertThat(top.get(id)).as("row %d", id).containsExactly(v);
      assertThat(all.get(id)).as("row %d", id).containsExactly(v, id % 3 == 2 ? null : v,
          id % 3 == 2 ? null : "n" + id, id % 4 == 3 ? null : v, id % 4 == 3 ? null : "{\"i\":" + id + "}");
    }
    if (!VariantText.asText()) { // Spark's own variant functions read the values
      assertThat(df.where("id = 0").selectExpr("variant_get(v, '$.size.w', 'int')").first().getInt(0))
          .isEqualTo(2);
    }
  }

  @Test
  void aStreamFromVersionZeroGivesEveryVariantAndAFilterOnOneIsNotPushed() throws Exception {
    inNewYork();
    int n = 18;
    String path = serve("t", table(n));
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(path)
        .writeStream().format("memory").queryName("variant_stream").trigger(Trigger.Once()).start();
    try {
      assertThat(q.awaitTermination(180_000)).isTrue();
    } finally {
      q.stop();
    }
    Map<Long, List<String>> streamed = texts(spark.table("variant_stream"), "v", "s.payload");
    assertThat(streamed).hasSize(n);
    for (long id = 0; id < n; id++) {
      assertThat(streamed.get(id)).as("row %d", id).containsExactly(expected(id), id % 3 == 2 ? null
          : expected(id));
    }
    // a filter on a variant's text selects by Spark's evaluation, never by file statistics of the stored binaries
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    String json = expected(1);
    assertThat(texts(df.where(text("v") + " = '" + json + "'"), "v").keySet())
        .containsExactly(1L, 10L);
  }

  @Test
  void aMalformedVariantFailsNamingTheColumnAndTheFile() {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("v", DeltaType.VARIANT));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("bad"), schema).commit();
    Map<String, Object> bad = new HashMap<>();
    bad.put("id", 1L);
    bad.put("v", VariantValue.raw(new byte[] {0x0C, 1}, new byte[] {0x02, 0, 0}));
    t.append(List.of(bad));
    String path = serve("bad", t);
    if (VariantText.asText()) {
      assertThatThrownBy(() -> texts(spark.read().format("deltaSharing").load(path), "v"))
          .satisfies(e -> assertThat(allMessages(e)).contains("Column 'v' of data file").contains("s.sc.bad")
              .contains("malformed variant"));
    } else { // Spark 4 reads the binaries as a variant, and checks them as it renders them
      assertThatThrownBy(() -> texts(spark.read().format("deltaSharing").load(path), "v"))
          .satisfies(e -> assertThat(allMessages(e)).contains("MALFORMED_VARIANT"));
    }
  }

  @Test
  void aShreddedVariantIsLeftToASparkThatReadsThemAndElsewhereRefusedLikeAFileWithNoVariantGroup() {
    io.sharestream.common.types.StructType table = io.sharestream.common.types.SchemaJson.parse(
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"s\",\"type\":{\"type\":\"struct\",\"fields\":["
        + "{\"name\":\"payload\",\"type\":\"variant\",\"nullable\":true,\"metadata\":{}}]},"
        + "\"nullable\":true,\"metadata\":{}}]}");
    io.sharestream.common.types.DataType s = table.field("s").type();
    org.apache.parquet.schema.MessageType plain = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional group s { optional group payload { required binary value; required binary metadata; "
        + "} } }");
    VariantText.checkFile(plain.getType("s"), s, "s", "file f.parquet of version 1 of s.sc.t");
    org.apache.parquet.schema.MessageType shredded = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional group s { optional group payload { required binary metadata; optional binary value; "
        + "optional int64 typed_value; } } }");
    boolean readsShredded = !VariantText.asText(); // the Spark 4 lines tested here (4.2) read them
    assertThat(VariantText.sparkReadsShredded()).isEqualTo(readsShredded);
    if (readsShredded) {
      VariantText.checkFile(shredded.getType("s"), s, "s", "file f.parquet of s.sc.t");
    } else {
      assertThatThrownBy(() -> VariantText.checkFile(shredded.getType("s"), s, "s", "file f.parquet of s.sc.t"))
          .hasMessageContaining("Column 's.payload' of data file file f.parquet of s.sc.t is a shredded variant")
          .hasMessageContaining("variantShredding").hasMessageContaining("which Spark "
              + org.apache.spark.package$.MODULE$.SPARK_VERSION() + " does not read");
    }
    org.apache.parquet.schema.MessageType text = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { optional group s { optional binary payload (UTF8); } }");
    assertThatThrownBy(() -> VariantText.checkFile(text.getType("s"), s, "s", "file f.parquet of s.sc.t"))
        .hasMessageContaining("Column 's.payload' of data file file f.parquet of s.sc.t holds a malformed variant");
  }

  private static String allMessages(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.append(t.getMessage()).append('\n');
    }
    return out.toString();
  }
}
