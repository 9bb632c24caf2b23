package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta type widening read by Spark: a table written with narrow types, every column then widened as Delta allows
 * (byte→short, short→int, int→long, int→double, float→double, decimal(5,2)→decimal(10,4), int→decimal(12,2),
 * long→decimal(22,2), date→timestamp_ntz, and an int field of a struct to long), with rows appended before and after.
 * Batch reads (vectorized, Parquet's row reader, nested as rows) and a stream from version 0 give every row under the
 * wide types with the values of Spark's {@code CAST}; a widening committed while a stream runs stops it at that
 * version, and a restart goes on with the wide schema; filters on widened columns select the right rows.
 */
class TypeWideningReadTest {
  private static final DeltaType.StructType NARROW = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("b", DeltaType.BYTE), DeltaType.field("s", DeltaType.SHORT),
      DeltaType.field("i", DeltaType.INTEGER), DeltaType.field("i2d", DeltaType.INTEGER),
      DeltaType.field("f", DeltaType.FLOAT), DeltaType.field("d52", DeltaType.decimal(5, 2)),
      DeltaType.field("i2dec", DeltaType.INTEGER), DeltaType.field("l2dec", DeltaType.LONG),
      DeltaType.field("dt", DeltaType.DATE), DeltaType.field("st", DeltaType.struct(
          DeltaType.field("x", DeltaType.INTEGER), DeltaType.field("y", DeltaType.STRING))));
  /** The columns widened, in this order (one commit each). */
  private static final List<Map.Entry<String, DeltaType>> WIDENINGS = List.of(Map.entry("i", DeltaType.LONG),
      Map.entry("b", DeltaType.SHORT), Map.entry("s", DeltaType.INTEGER), Map.entry("i2d", DeltaType.DOUBLE),
      Map.entry("f", DeltaType.DOUBLE), Map.entry("d52", DeltaType.decimal(10, 4)),
      Map.entry("i2dec", DeltaType.decimal(12, 2)), Map.entry("l2dec", DeltaType.decimal(22, 2)),
      Map.entry("dt", DeltaType.TIMESTAMP_NTZ), Map.entry("st.x", DeltaType.LONG));
  /** The table's Spark schema once widened (timestamp_ntz reads as a timestamp of its UTC wall time). */
  private static final StructType WIDE = new StructType().add("id", DataTypes.LongType, false)
      .add("b", DataTypes.ShortType).add("s", DataTypes.IntegerType).add("i", DataTypes.LongType)
      .add("i2d", DataTypes.DoubleType).add("f", DataTypes.DoubleType).add("d52", DataTypes.createDecimalType(10, 4))
      .add("i2dec", DataTypes.createDecimalType(12, 2)).add("l2dec", DataTypes.createDecimalType(22, 2))
      .add("dt", DataTypes.TimestampType).add("st", new StructType().add("x", DataTypes.LongType)
          .add("y", DataTypes.StringType));
  private static final List<String> BATCHES = Collections.synchronizedList(new ArrayList<>());

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

  /** Row {@code id} written under the narrow types: the extremes of each type in turn, and every 7th all null. */
  private static Map<String, Object> narrow(long id) {
    int k = (int) (id % 4);
    Map<String, Object> r = new LinkedHashMap<>();
    for (String column : NARROW.fields.stream().map(f -> f.name).collect(Collectors.toList())) {
      r.put(column, null);
    }
    r.put("id", id);
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("x", null);
    st.put("y", "y" + id);
    r.put("st", st);
    if (id % 7 == 6) {
      return r;
    }
    int[] ints = {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, (int) id * 1_000_003};
    r.put("b", new byte[] {Byte.MIN_VALUE, Byte.MAX_VALUE, 0, (byte) id}[k]);
    r.put("s", new short[] {Short.MIN_VALUE, Short.MAX_VALUE, 0, (short) (id * 7)}[k]);
    r.put("i", ints[k]);
    r.put("i2d", ints[(k + 1) % 4]);
    r.put("f", new float[] {0.1f, -Float.MAX_VALUE, Float.MIN_VALUE, id / 3f}[k]);
    r.put("d52", new BigDecimal[] {new BigDecimal("-999.99"), new BigDecimal("999.99"), new BigDecimal("0.01"),
        BigDecimal.valueOf(id * 37 % 100_000, 2)}[k]);
    r.put("i2dec", ints[(k + 2) % 4]);
    r.put("l2dec", new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0L, id * 1_000_000_007L}[k]);
    r.put("dt", new LocalDate[] {LocalDate.of(1900, 1, 1), LocalDate.of(9999, 12, 31), LocalDate.of(1970, 1, 1),
        LocalDate.of(2024, 2, 29).plusDays(id)}[k]);
    st.put("x", ints[(k + 3) % 4]);
    return r;
  }

  /** Row {@code id} written under the wide types, with values the narrow ones cannot hold. */
  private static Map<String, Object> wide(long id) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    r.put("b", (short) (1000 + id));
    r.put("s", 100_000 + (int) id);
    r.put("i", 3_000_000_000L + id);
    r.put("i2d", 1.5 + id);
    r.put("f", 1e300);
    r.put("d52", new BigDecimal("123456.7891").add(BigDecimal.valueOf(id)));
    r.put("i2dec", new BigDecimal("1234567890.12"));
    r.put("l2dec", new BigDecimal("12345678901234567890.12"));
    r.put("dt", LocalDateTime.of(2024, 3, 1, 12, 34, 56, 789_000_000).plusDays(id));
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("x", 5_000_000_000L + id);
    st.put("y", "w" + id);
    r.put("st", st);
    return r;
  }

  /** A narrow row's values as Spark's CAST to the wide types gives them. */
  private static Map<String, Object> widened(Map<String, Object> n) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", n.get("id"));
    r.put("b", n.get("b") == null ? null : (short) (byte) n.get("b"));
    r.put("s", n.get("s") == null ? null : (int) (short) n.get("s"));
    r.put("i", n.get("i") == null ? null : (long) (int) n.get("i"));
    r.put("i2d", n.get("i2d") == null ? null : (double) (int) n.get("i2d"));
    r.put("f", n.get("f") == null ? null : (double) (float) n.get("f"));
    r.put("d52", n.get("d52") == null ? null : ((BigDecimal) n.get("d52")).setScale(4, RoundingMode.UNNECESSARY));
    r.put("i2dec", n.get("i2dec") == null ? null : BigDecimal.valueOf((int) n.get("i2dec"), 0).setScale(2));
    r.put("l2dec", n.get("l2dec") == null ? null : BigDecimal.valueOf((long) n.get("l2dec"), 0).setScale(2));
    r.put("dt", n.get("dt") == null ? null : ((LocalDate) n.get("dt")).atStartOfDay());
    Map<?, ?> st = (Map<?, ?>) n.get("st");
    Map<String, Object> wst = new LinkedHashMap<>();
    wst.put("x", st.get("x") == null ? null : (long) (int) st.get("x"));
    wst.put("y", st.get("y"));
    r.put("st", wst);
    return r;
  }

  /** A value as text with its class: what Spark returns for a row, and what a test expects. */
  private static String text(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Row) {
      Row r = (Row) v;
      List<String> parts = new ArrayList<>();
      for (int i = 0; i < r.size(); i++) {
        parts.add(r.schema().fieldNames()[i] + "=" + text(r.get(i)));
      }
      return "{" + String.join(", ", parts) + "}";
    }
    if (v instanceof Map) {
      return "{" + ((Map<?, ?>) v).entrySet().stream().map(e -> e.getKey() + "=" + text(e.getValue()))
          .collect(Collectors.joining(", ")) + "}";
    }
    if (v instanceof Timestamp) {
      return "ts:" + ((Timestamp) v).toInstant();
    }
    if (v instanceof LocalDateTime) {
      return "ts:" + ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
    }
    if (v instanceof java.sql.Date || v instanceof LocalDate) {
      return "date:" + (v instanceof LocalDate ? v : ((java.sql.Date) v).toLocalDate());
    }
    return v.getClass().getSimpleName() + ":" + v;
  }

  private static List<String> texts(List<Row> rows) {
    return rows.stream().sorted((a, b) -> Long.compare(a.getLong(0), b.getLong(0))).map(TypeWideningReadTest::text)
        .collect(Collectors.toList());
  }

  private static List<String> expectedTexts(List<Map<String, Object>> rows) {
    return rows.stream().sorted((a, b) -> Long.compare((Long) a.get("id"), (Long) b.get("id")))
        .map(TypeWideningReadTest::text).collect(Collectors.toList());
  }

  private static List<Map<String, Object>> rows(long from, long to, java.util.function.LongFunction<Map<String,
      Object>> row) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long id = from; id < to; id++) {
      out.add(row.apply(id));
    }
    return out;
  }

  private static void widenAll(DeltaTableWriter table) {
    for (Map.Entry<String, DeltaType> w : WIDENINGS) {
      table.widenColumn(w.getKey(), w.getValue());
    }
  }

  /** Narrow rows 0-5999 (two appends, 3 files), every column widened, then wide rows 6000-6009. */
  private DeltaTableWriter widenedTable(String name, String columnMapping) {
    DeltaTableWriter.Builder create = DeltaTableWriter.create(tmp.resolve(name), NARROW);
    DeltaTableWriter table = (columnMapping == null ? create : create.columnMapping(columnMapping)).commit();
    table.append(rows(0, 5000, TypeWideningReadTest::narrow), 2500); // 1: more than a batch of 4096 rows
    table.append(rows(5000, 6000, TypeWideningReadTest::narrow)); // 2
    widenAll(table); // 3-12
    table.append(rows(6000, 6010, TypeWideningReadTest::wide)); // 13
    return table;
  }

  private static List<Map<String, Object>> expectedRows() {
    List<Map<String, Object>> out = rows(0, 6000, id -> widened(narrow(id)));
    out.addAll(rows(6000, 6010, TypeWideningReadTest::wide));
    return out;
  }

  @Test
  void aBatchReadGivesEveryRowUnderTheWideTypesWithTheValuesOfCast() {
    batchReadGivesTheWideRows("batch", null);
  }

  @Test
  void aColumnMappedTableIsReadAlike() {
    batchReadGivesTheWideRows("mapped", "name"); // files name columns (nested ones too) by physical name
  }

  private void batchReadGivesTheWideRows(String name, String columnMapping) {
    String path = serve(name, widenedTable(name, columnMapping));
    List<Map<String, Object>> expected = expectedRows();
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    assertThat(df.schema()).isEqualTo(WIDE);
    assertThat(texts(df.collectAsList())).as("with the struct (rows)").isEqualTo(expectedTexts(expected));

    Dataset<Row> flat = df.drop("st");
    assertThat(flat.queryExecution().executedPlan().toString()).contains("ColumnarToRow");
    List<Map<String, Object>> expectedFlat = expected.stream().map(r -> {
      Map<String, Object> m = new LinkedHashMap<>(r);
      m.remove("st");
      return m;
    }).collect(Collectors.toList());
    assertThat(texts(flat.collectAsList())).as("flat (vectorized)").isEqualTo(expectedTexts(expectedFlat));
    spark.conf().set("spark.sql.parquet.enableVectorizedReader", "false");
    try {
      Dataset<Row> rowsRead = spark.read().format("deltaSharing").load(path).drop("st");
      assertThat(rowsRead.queryExecution().executedPlan().toString()).doesNotContain("ColumnarToRow");
      assertThat(texts(rowsRead.collectAsList())).as("flat (Parquet's rows)").isEqualTo(expectedTexts(expectedFlat));
    } finally {
      spark.conf().unset("spark.sql.parquet.enableVectorizedReader");
    }
    // the nested field alone, pruned from its struct
    List<Long> xs = df.select("st.x").collectAsList().stream().map(r -> r.isNullAt(0) ? null : r.getLong(0))
        .collect(Collectors.toList());
    assertThat(xs).containsExactlyInAnyOrderElementsOf(expected.stream()
        .map(r -> (Long) ((Map<?, ?>) r.get("st")).get("x")).collect(Collectors.toList()));
  }

  @Test
  void aStreamFromVersionZeroGivesEveryRowUnderTheWideTypes() throws Exception {
    String path = serve("stream", widenedTable("stream", null));
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(path)
        .writeStream().format("memory").queryName("widened_stream").trigger(Trigger.Once()).start();
    queries.add(q);
    assertThat(q.awaitTermination(180_000)).isTrue();
    Dataset<Row> out = spark.sql("SELECT * FROM widened_stream");
    assertThat(out.schema()).isEqualTo(WIDE);
    assertThat(texts(out.collectAsList())).isEqualTo(expectedTexts(expectedRows()));
  }

  @Test
  void aWideningWhileAStreamRunsStopsItAtThatVersionAndARestartReadsOnUnderTheWideTypes() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("running"), NARROW).commit();
    table.append(rows(0, 10, TypeWideningReadTest::narrow)); // 1
    String path = serve("running", table);
    String checkpoint = tmp.resolve("checkpoint").toString();
    BATCHES.clear();
    StreamingQuery q = collect(path, checkpoint);
    queries.add(q);
    q.processAllAvailable();
    table.append(rows(10, 20, TypeWideningReadTest::narrow)); // 2
    widenAll(table); // 3-12
    table.append(rows(20, 30, TypeWideningReadTest::wide)); // 13
    assertThatThrownBy(() -> q.awaitTermination(60_000)).isInstanceOf(StreamingQueryException.class)
        .hasMessageContaining("changed at version 3").hasMessageContaining("'i' widened from integer to long");
    List<String> first = new ArrayList<>(BATCHES);
    assertThat(first).isEqualTo(expectedTexts(rows(0, 20, TypeWideningReadTest::narrow)));

    BATCHES.clear();
    StreamingQuery again = collect(path, checkpoint);
    queries.add(again);
    again.processAllAvailable();
    assertThat(again.exception().isEmpty()).isTrue();
    assertThat(new ArrayList<>(BATCHES)).isEqualTo(expectedTexts(rows(20, 30, TypeWideningReadTest::wide)));
    table.append(rows(30, 32, TypeWideningReadTest::wide)); // 14
    again.processAllAvailable();
    assertThat(BATCHES.subList(10, BATCHES.size())).isEqualTo(expectedTexts(rows(30, 32,
        TypeWideningReadTest::wide)));
  }

  /** A stream whose batches' rows go to {@link #BATCHES} as text, in id order per batch. */
  private static StreamingQuery collect(String path, String checkpoint) throws Exception {
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> BATCHES.addAll(texts(batch.collectAsList()));
    return spark.readStream().format("deltaSharing").option("startingVersion", "1").load(path).writeStream()
        .foreachBatch(sink)
        .option("checkpointLocation", checkpoint).start();
  }

  @Test
  void filtersOnWidenedColumnsSelectTheRightRows() {
    String path = serve("filters", widenedTable("filters", null));
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    List<Map<String, Object>> expected = expectedRows();
    Map<Column, Predicate<Map<String, Object>>> filters = new LinkedHashMap<>();
    filters.put(functions.col("i").equalTo(3_000_006_005L), r -> Long.valueOf(3_000_006_005L).equals(r.get("i")));
    filters.put(functions.col("i").equalTo(Integer.MIN_VALUE), r -> Long.valueOf(Integer.MIN_VALUE).equals(r.get("i")));
    filters.put(functions.col("i").gt(Integer.MAX_VALUE - 1L), r -> r.get("i") != null
        && (Long) r.get("i") > Integer.MAX_VALUE - 1L);
    filters.put(functions.col("b").lt(-100), r -> r.get("b") != null && (Short) r.get("b") < -100);
    filters.put(functions.col("s").geq(32_767), r -> r.get("s") != null && (Integer) r.get("s") >= 32_767);
    filters.put(functions.col("i2d").equalTo(6001.5), r -> Double.valueOf(6001.5).equals(r.get("i2d")));
    filters.put(functions.col("f").equalTo((double) 0.1f), r -> Double.valueOf(0.1f).equals(r.get("f")));
    filters.put(functions.col("d52").equalTo(new BigDecimal("999.99")),
        r -> new BigDecimal("999.9900").equals(r.get("d52")));
    filters.put(functions.col("i2dec").lt(new BigDecimal("-2147483647.5")),
        r -> r.get("i2dec") != null && ((BigDecimal) r.get("i2dec")).compareTo(new BigDecimal("-2147483647.5")) < 0);
    filters.put(functions.col("l2dec").gt(new BigDecimal("9223372036854775806.99")), r -> r.get("l2dec") != null
        && ((BigDecimal) r.get("l2dec")).compareTo(new BigDecimal("9223372036854775806.99")) > 0);
    LocalDateTime epoch = LocalDateTime.of(1970, 1, 1, 0, 0);
    filters.put(functions.col("dt").equalTo(Timestamp.from(epoch.toInstant(ZoneOffset.UTC))),
        r -> epoch.equals(r.get("dt")));
    filters.put(functions.col("dt").gt(Timestamp.from(LocalDateTime.of(2024, 3, 1, 0, 0).toInstant(ZoneOffset.UTC))),
        r -> r.get("dt") != null && ((LocalDateTime) r.get("dt")).isAfter(LocalDateTime.of(2024, 3, 1, 0, 0)));
    filters.put(functions.col("st.x").equalTo(5_000_006_001L),
        r -> Long.valueOf(5_000_006_001L).equals(((Map<?, ?>) r.get("st")).get("x")));
    filters.put(functions.col("st.x").lt(0), r -> ((Map<?, ?>) r.get("st")).get("x") != null
        && (Long) ((Map<?, ?>) r.get("st")).get("x") < 0);
    for (Map.Entry<Column, Predicate<Map<String, Object>>> f : filters.entrySet()) {
      List<Long> ids = df.filter(f.getKey()).select("id").collectAsList().stream().map(r -> r.getLong(0)).sorted()
          .collect(Collectors.toList());
      List<Long> want = expected.stream().filter(f.getValue()).map(r -> (Long) r.get("id")).sorted()
          .collect(Collectors.toList());
      assertThat(want).as("rows the filter %s should select", f.getKey()).isNotEmpty();
      assertThat(ids).as(f.getKey().toString()).isEqualTo(want);
    }
  }
}
