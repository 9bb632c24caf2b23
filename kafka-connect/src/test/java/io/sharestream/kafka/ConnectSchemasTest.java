package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apicurio.registry.utils.converter.avro.AvroData;
import io.apicurio.registry.utils.converter.avro.AvroDataConfig;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.types.DecimalType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.SchemaJson;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.Samples;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every Delta type as a Connect schema and value, through Avro and back (Apicurio's AvroData, no registry); value
 * schemas across schema changes as a registry's Avro compatibility check sees them.
 */
class ConnectSchemasTest {
  @TempDir Path tmp;

  /** The kit's every-type rows, written to Parquet and read back by the core, as the task reads them. */
  private List<Row> rows(DeltaType.StructType schema, List<Map<String, Object>> values) throws IOException {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("t" + System.nanoTime()), schema).commit();
    w.append(values);
    Path file = w.log().resolve(w.snapshot().files().iterator().next().path);
    List<Row> out = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()), "f", SchemaJson.parse(
            schema.toSchemaString()), List.of(), Map.of(), ReadSettings.DEFAULT, 0)) {
      r.forEachRemaining(out::add);
    }
    return out;
  }

  private static AvroData avroData() {
    return new AvroData(new AvroDataConfig.Builder().with(AvroDataConfig.SCHEMAS_CACHE_SIZE_CONFIG, 100)
        .with(AvroDataConfig.ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG, true).build());
  }

  /** Connect value to Avro binary and back to a Connect value. */
  private static Object throughAvro(Schema schema, Object value) throws IOException {
    AvroData avro = avroData();
    org.apache.avro.Schema avroSchema = new org.apache.avro.Schema.Parser().parse(
        avro.fromConnectSchema(schema).toString());
    Object record = avro.fromConnectData(schema, value);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<Object>(avroSchema).write(record, enc);
    enc.flush();
    Object decoded = new GenericDatumReader<Object>(avroSchema).read(null,
        DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
    SchemaAndValue back = avro.toConnectData(avroSchema, decoded);
    return back.value();
  }

  @ParameterizedTest
  @EnumSource(TimePrecisionMode.class)
  void everyDeltaTypeConvertsToAValidStructThatSurvivesAvro(TimePrecisionMode mode) throws IOException {
    List<Row> rows = rows(Samples.ALL_TYPES, Samples.allTypeRows());
    StructType schema = rows.get(0).schema();
    ConnectSchemas.Conversion c = ConnectSchemas.struct(schema, "io.sharestream.s.sc.t.Value", schema.size(), false,
        mode, FieldNameAdjustmentMode.AVRO);
    assertThat(c.schema.version()).isEqualTo(schema.size());
    assertThat(c.schema.field("id").schema().isOptional()).isFalse();
    assertThat(c.schema.field("s").schema().isOptional()).isTrue();
    assertThat(c.schema.field("dec38").schema().name()).isEqualTo(Decimal.LOGICAL_NAME);
    assertThat(c.schema.field("dec38").schema().parameters()).containsEntry("connect.decimal.precision", "38");
    assertThat(c.schema.field("d").schema().name()).isEqualTo(org.apache.kafka.connect.data.Date.LOGICAL_NAME);
    assertThat(c.schema.field("arr").schema().valueSchema().isOptional()).as("array of nullable longs").isTrue();
    for (Row row : rows) {
      Struct s = (Struct) c.apply(row);
      s.validate();
      Struct back = (Struct) throughAvro(c.schema, s);
      assertThat(back.getInt64("id")).isEqualTo(s.getInt64("id"));
      for (org.apache.kafka.connect.data.Field f : c.schema.fields()) {
        Object original = s.get(f);
        Object roundTripped = back.get(f.name());
        if (original instanceof byte[]) {
          java.nio.ByteBuffer b = roundTripped instanceof byte[] ? java.nio.ByteBuffer.wrap((byte[]) roundTripped)
              : (java.nio.ByteBuffer) roundTripped;
          assertThat(b).as(f.name()).isEqualTo(java.nio.ByteBuffer.wrap((byte[]) original));
        } else {
          assertThat(String.valueOf(roundTripped)).as(f.name()).isEqualTo(String.valueOf(original));
        }
      }
    }
    Struct first = (Struct) c.apply(rows.get(0));
    assertThat(first.get("dec38")).isEqualTo(new BigDecimal("-12345678901234567890.123456789012345678"));
    assertThat(first.get("d")).isEqualTo(new java.util.Date(LocalDate.of(9999, 12, 31).toEpochDay() * 86_400_000L));
    assertThat(first.getStruct("st").getArray("y")).containsExactly("a", null, "");
    assertThat(first.getMap("m").get("k2")).isNull();
  }

  @Test
  void microsAndStringTimestampsAreLosslessAndConnectTimestampsKeepMilliseconds() throws IOException {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("ts", DeltaType.TIMESTAMP),
        DeltaType.field("ntz", DeltaType.TIMESTAMP_NTZ));
    Instant ts = Instant.parse("1969-07-20T20:17:40.123456Z");
    LocalDateTime ntz = LocalDateTime.parse("2262-04-12T00:00:00.000001");
    Row row = rows(schema, List.of(Samples.row("ts", ts, "ntz", ntz))).get(0);

    ConnectSchemas.Conversion micros = ConnectSchemas.struct(row.schema(), "v", 1, false, TimePrecisionMode.MICROS,
        FieldNameAdjustmentMode.AVRO);
    Struct m = (Struct) throughAvro(micros.schema, micros.apply(row));
    assertThat(micros.schema.field("ts").schema().name()).isEqualTo(ConnectSchemas.MICRO_TIMESTAMP);
    assertThat(Instant.EPOCH.plus(m.getInt64("ts"), java.time.temporal.ChronoUnit.MICROS)).isEqualTo(ts);
    assertThat(micros.schema.field("ntz").schema().name()).isEqualTo(ConnectSchemas.MICRO_LOCAL_TIMESTAMP);
    assertThat(LocalDateTime.ofEpochSecond(Math.floorDiv(m.getInt64("ntz"), 1_000_000L),
        (int) Math.floorMod(m.getInt64("ntz"), 1_000_000L) * 1000, java.time.ZoneOffset.UTC)).isEqualTo(ntz);

    ConnectSchemas.Conversion text = ConnectSchemas.struct(row.schema(), "v", 1, false, TimePrecisionMode.STRING,
        FieldNameAdjustmentMode.AVRO);
    Struct t = (Struct) throughAvro(text.schema, text.apply(row));
    assertThat(Instant.parse(t.getString("ts"))).isEqualTo(ts);
    assertThat(LocalDateTime.parse(t.getString("ntz"))).isEqualTo(ntz);

    ConnectSchemas.Conversion connect = ConnectSchemas.struct(row.schema(), "v", 1, false, TimePrecisionMode.CONNECT,
        FieldNameAdjustmentMode.AVRO);
    assertThat(connect.schema.field("ts").schema().name()).isEqualTo(Timestamp.LOGICAL_NAME);
    Struct c = (Struct) throughAvro(connect.schema, connect.apply(row));
    assertThat(((java.util.Date) c.get("ts")).toInstant()).isEqualTo(Instant.parse("1969-07-20T20:17:40.123Z"));
  }

  @Test
  void columnNamesAvroRefusesAreMadeValidDeterministicallyWithoutCollisions() throws IOException {
    assertThat(ConnectSchemas.avroNames(List.of("my col", "1st", "a-b", "a_b", "ok", "ünï", "my_col")))
        .containsExactly("my_col", "_1st", "a_b", "a_b_2", "ok", "_n_", "my_col_2");
    // names Delta allows without column mapping (spaces need it, and the delta response format)
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("my-col", DeltaType.LONG),
        DeltaType.field("1st", DeltaType.STRING), DeltaType.field("nested-struct", DeltaType.struct(
            DeltaType.field("inner.field", DeltaType.INTEGER))));
    Row row = rows(schema, List.of(Samples.row("my-col", 1L, "1st", "x", "nested-struct",
        Samples.row("inner.field", 5)))).get(0);
    ConnectSchemas.Conversion c = ConnectSchemas.struct(row.schema(),
        ConnectSchemas.recordName("my share", "1schema", "t-1", "Value"), 3, false, TimePrecisionMode.CONNECT,
        FieldNameAdjustmentMode.AVRO);
    assertThat(c.schema.name()).isEqualTo("io.sharestream.my_share._1schema.t_1.Value");
    Struct back = (Struct) throughAvro(c.schema, c.apply(row));
    assertThat(back.getInt64("my_col")).isEqualTo(1L);
    assertThat(back.getString("_1st")).isEqualTo("x");
    assertThat(back.getStruct("nested_struct").getInt32("inner_field")).isEqualTo(5);
  }

  @ParameterizedTest
  @EnumSource(FieldNameAdjustmentMode.class)
  void columnMappedNamesAreKeptExactlyOrMadeAvroSafeAsTheModeSays(FieldNameAdjustmentMode names) throws IOException {
    // names column mapping allows and Avro refuses, top-level and nested: the logical schema the core reads
    // a column-mapped table's files into (Parquet itself holds the physical names)
    StructType userInfo = new StructType(List.of(new StructField("first-name", PrimitiveType.STRING, true)));
    StructType schema = new StructType(List.of(new StructField("display name", PrimitiveType.STRING, true),
        new StructField("event-type", PrimitiveType.STRING, true), new StructField("user info", userInfo, true)));
    Row row = new Row(schema, new Object[] {"Ada", "click", new Row(userInfo, new Object[] {"A"})});
    ConnectSchemas.Conversion value = ConnectSchemas.struct(row.schema(),
        ConnectSchemas.recordName("s", "sc", "t", "Value"), 3, false, TimePrecisionMode.CONNECT, names);
    ConnectSchemas.Conversion key = ConnectSchemas.struct(row.schema(), List.of("event-type"),
        ConnectSchemas.recordName("s", "sc", "t", "Key"), null, false, TimePrecisionMode.CONNECT, names);
    boolean exact = names == FieldNameAdjustmentMode.NONE;
    String display = exact ? "display name" : "display_name";
    String eventType = exact ? "event-type" : "event_type";
    String info = exact ? "user info" : "user_info";
    String firstName = exact ? "first-name" : "first_name";

    Struct v = (Struct) value.apply(row);
    v.validate();
    assertThat(value.schema.fields()).extracting(org.apache.kafka.connect.data.Field::name)
        .containsExactly(display, eventType, info);
    assertThat(v.getString(display)).isEqualTo("Ada");
    assertThat(v.getStruct(info).getString(firstName)).isEqualTo("A");
    assertThat(((Struct) key.apply(row)).getString(eventType)).isEqualTo("click");
    assertThat(value.schema.field(info).schema().name()).as("record names stay valid Avro names")
        .isEqualTo("io.sharestream.s.sc.t.Value.user_info");
    if (exact) {
      assertThatThrownBy(() -> throughAvro(value.schema, v))
          .as("Avro refuses the exact names").hasMessageContaining("display name");
    } else {
      assertThat(((Struct) throughAvro(value.schema, v)).getStruct(info).getString(firstName)).isEqualTo("A");
    }
  }

  /** The Avro schema the Avro converter makes of a table's value schema at {@code version}. */
  private static org.apache.avro.Schema avroValue(StructType table, int version) {
    ConnectSchemas.Conversion c = ConnectSchemas.struct(table, ConnectSchemas.recordName("s", "sc", "t", "Value"),
        version, false, TimePrecisionMode.CONNECT, FieldNameAdjustmentMode.AVRO);
    return avroData().fromConnectSchema(c.schema);
  }

  /** "B" when {@code next} reads data written with {@code previous} (BACKWARD), "F" the other way (FORWARD). */
  private static String compatibility(org.apache.avro.Schema previous, org.apache.avro.Schema next) {
    return (compatible(next, previous) ? "B" : "") + (compatible(previous, next) ? "F" : "");
  }

  private static boolean compatible(org.apache.avro.Schema reader, org.apache.avro.Schema writer) {
    return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
        == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE;
  }

  private static StructField nullable(String name, io.sharestream.common.types.DataType type) {
    return new StructField(name, type, true);
  }

  @Test
  void valueSchemasAcrossAddWidenRenameAndDropAreBackwardCompatibleInAvroExceptForRequiredColumns() {
    StructField id = new StructField("id", PrimitiveType.LONG, false);
    StructField code = new StructField("code", PrimitiveType.STRING, false);
    StructType v1 = new StructType(List.of(id, code, nullable("qty", PrimitiveType.INTEGER),
        nullable("price", new DecimalType(10, 2))));
    StructType added = new StructType(List.of(id, code, nullable("qty", PrimitiveType.INTEGER),
        nullable("price", new DecimalType(10, 2)), nullable("note", PrimitiveType.STRING)));
    StructType longQty = new StructType(List.of(id, code, nullable("qty", PrimitiveType.LONG),
        nullable("price", new DecimalType(10, 2)), nullable("note", PrimitiveType.STRING)));
    StructType widePrice = new StructType(List.of(id, code, nullable("qty", PrimitiveType.LONG),
        nullable("price", new DecimalType(14, 2)), nullable("note", PrimitiveType.STRING)));
    StructType renamed = new StructType(List.of(id, code, nullable("qty", PrimitiveType.LONG),
        nullable("price", new DecimalType(14, 2)), nullable("comment", PrimitiveType.STRING)));
    StructType dropped = new StructType(List.of(id, code, nullable("price", new DecimalType(14, 2)),
        nullable("comment", PrimitiveType.STRING)));
    // versions as RecordConverter numbers them: the column count, or one more than the last
    List<org.apache.avro.Schema> history = List.of(avroValue(v1, 4), avroValue(added, 5), avroValue(longQty, 6),
        avroValue(widePrice, 7), avroValue(renamed, 8), avroValue(dropped, 9));
    assertThat(history.get(1).getField("note").defaultVal()).as("an added column: optional, null by default")
        .isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);

    List<String> steps = new ArrayList<>();
    for (int i = 1; i < history.size(); i++) {
      steps.add(compatibility(history.get(i - 1), history.get(i)));
    }
    // ADD COLUMN both ways; int -> long BACKWARD only (Avro promotes int to long, not back); a wider decimal both
    // (Avro compares the bytes, not the precision); RENAME and DROP of nullable columns both ways (a rename is a
    // drop and an add: the field's values do not carry over)
    assertThat(steps).containsExactly("BF", "B", "BF", "BF", "BF");
    for (org.apache.avro.Schema earlier : history) {
      assertThat(compatible(history.get(history.size() - 1), earlier)).as("BACKWARD_TRANSITIVE").isTrue();
    }

    // a NOT NULL column renamed: a required field without a default, which no registry check accepts; dropped:
    // BACKWARD only
    StructType codeRenamed = new StructType(List.of(id, new StructField("sku", PrimitiveType.STRING, false),
        nullable("price", new DecimalType(14, 2)), nullable("comment", PrimitiveType.STRING)));
    StructType codeDropped = new StructType(List.of(id, nullable("price", new DecimalType(14, 2)),
        nullable("comment", PrimitiveType.STRING)));
    assertThat(compatibility(history.get(5), avroValue(codeRenamed, 10))).isEmpty();
    assertThat(compatibility(history.get(5), avroValue(codeDropped, 10))).isEqualTo("B");
  }
}
