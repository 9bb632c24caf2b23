package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaType.ArrayType;
import io.sharestream.testkit.delta.DeltaType.Decimal;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.MapType;
import io.sharestream.testkit.delta.DeltaType.Primitive;
import io.sharestream.testkit.delta.DeltaType.StructType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.example.GroupWriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Writes rows to Snappy Parquet files the way Spark lays them out, and reads Parquet files back into rows with
 * Parquet's own example Group API (so the kit proves files with plain Parquet tools, not with product code).
 *
 * <p>A row is a {@code Map<String, Object>} from column name to a Java value: Boolean, Byte, Short, Integer, Long,
 * Float, Double, String, byte[], LocalDate, Instant ({@code timestamp}), LocalDateTime ({@code timestamp_ntz}),
 * BigDecimal, Map (struct or map) and List (array); a {@code variant} column takes a {@link VariantValue} or any value
 * {@link VariantValue#of} encodes (and reads back as a {@link VariantValue}). Missing keys and nulls are SQL NULL.
 */
public final class ParquetRows {
  private static final long JULIAN_DAY_OF_EPOCH = 2440588L;
  private static final long SECONDS_PER_DAY = 86_400L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private ParquetRows() {}

  /** Writes {@code rows} (only the columns of {@code fileSchema}) to a new Snappy Parquet file. */
  public static void write(Path file, StructType fileSchema, List<Map<String, Object>> rows,
      TimestampEncoding timestamps, int rowGroupBytes) throws IOException {
    write(file, fileSchema, (Iterable<Map<String, Object>>) rows, timestamps, rowGroupBytes);
  }

  /** Writes {@code rows} as they are produced (a generator may stand behind them: files larger than memory). */
  public static void write(Path file, StructType fileSchema, Iterable<Map<String, Object>> rows,
      TimestampEncoding timestamps, int rowGroupBytes) throws IOException {
    MessageType parquet = ParquetSchemas.toParquet(fileSchema, timestamps);
    SimpleGroupFactory groups = new SimpleGroupFactory(parquet);
    try (ParquetWriter<Group> writer = new GroupWriterBuilder(new LocalOutputFile(file), parquet)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .withRowGroupSize(rowGroupBytes)
        .withPageSize(Math.min(rowGroupBytes, 1024 * 1024))
        .withConf(new Configuration(false))
        .build()) {
      for (Map<String, Object> row : rows) {
        Group g = groups.newGroup();
        fill(g, fileSchema, row);
        writer.write(g);
      }
    }
  }

  /** Reads every row of a Parquet file, typed by {@code schema}; columns absent from the file read as null. */
  public static List<Map<String, Object>> read(Path file, StructType schema) throws IOException {
    List<Map<String, Object>> rows = new ArrayList<>();
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(),
        new org.apache.hadoop.fs.Path(file.toUri())).withConf(new Configuration(false)).build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        rows.add(toRow(g, schema));
      }
    }
    return rows;
  }

  private static void fill(Group g, StructType struct, Map<?, ?> values) {
    for (Field f : struct.fields) {
      Object v = values.get(f.name);
      if (v == null) {
        if (!f.nullable) {
          throw new IllegalArgumentException("column " + f.name + " is not nullable but the row has no value");
        }
        continue;
      }
      add(g, f.name, f.type, v);
    }
  }

  private static void add(Group g, String name, DeltaType type, Object v) {
    int idx = g.getType().getFieldIndex(name);
    if (type instanceof StructType) {
      fill(g.addGroup(idx), (StructType) type, (Map<?, ?>) v);
    } else if (type instanceof ArrayType) {
      ArrayType a = (ArrayType) type;
      Group list = g.addGroup(idx);
      for (Object e : (List<?>) v) {
        Group entry = list.addGroup(0);
        if (e != null) {
          add(entry, "element", a.elementType, e);
        }
      }
    } else if (type instanceof MapType) {
      MapType m = (MapType) type;
      Group map = g.addGroup(idx);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        Group kv = map.addGroup(0);
        add(kv, "key", m.keyType, e.getKey());
        if (e.getValue() != null) {
          add(kv, "value", m.valueType, e.getValue());
        }
      }
    } else if (type == DeltaType.VARIANT) {
      VariantValue variant = v instanceof VariantValue ? (VariantValue) v : VariantValue.of(v);
      Group group = g.addGroup(idx);
      group.add("value", Binary.fromConstantByteArray(variant.value()));
      group.add("metadata", Binary.fromConstantByteArray(variant.metadata()));
    } else if (type instanceof Decimal) {
      Decimal d = (Decimal) type;
      BigInteger unscaled = toBigDecimal(v).setScale(d.scale, RoundingMode.UNNECESSARY).unscaledValue();
      if (d.precision <= 9) {
        g.add(idx, unscaled.intValueExact());
      } else if (d.precision <= 18) {
        g.add(idx, unscaled.longValueExact());
      } else {
        g.add(idx, Binary.fromConstantByteArray(fixedLength(unscaled, ParquetSchemas.decimalBytes(d.precision))));
      }
    } else {
      addPrimitive(g, idx, ((Primitive) type).name, v);
    }
  }

  private static void addPrimitive(Group g, int idx, String type, Object v) {
    switch (type) {
      case "boolean": g.add(idx, (Boolean) v); break;
      case "byte": case "short": case "integer": g.add(idx, ((Number) v).intValue()); break;
      case "long": g.add(idx, ((Number) v).longValue()); break;
      case "float": g.add(idx, ((Number) v).floatValue()); break;
      case "double": g.add(idx, ((Number) v).doubleValue()); break;
      case "string": g.add(idx, Binary.fromString((String) v)); break;
      case "binary": g.add(idx, Binary.fromConstantByteArray((byte[]) v)); break;
      case "date": g.add(idx, (int) ((LocalDate) v).toEpochDay()); break;
      case "timestamp": {
        Instant t = (Instant) v;
        PrimitiveType pt = g.getType().getType(idx).asPrimitiveType();
        if (pt.getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
          g.add(idx, int96(t));
        } else {
          g.add(idx, micros(t));
        }
        break;
      }
      case "timestamp_ntz":
        g.add(idx, micros(((LocalDateTime) v).toInstant(ZoneOffset.UTC)));
        break;
      default:
        throw new IllegalArgumentException("unsupported type " + type);
    }
  }

  private static Map<String, Object> toRow(Group g, StructType struct) {
    Map<String, Object> row = new LinkedHashMap<>();
    GroupType gt = g.getType();
    for (Field f : struct.fields) {
      Object v = null;
      if (gt.containsField(f.name)) {
        int idx = gt.getFieldIndex(f.name);
        if (g.getFieldRepetitionCount(idx) > 0) {
          v = value(g, idx, f.type);
        }
      }
      row.put(f.name, v);
    }
    return row;
  }

  private static Object value(Group g, int idx, DeltaType type) {
    if (type instanceof StructType) {
      return toRow(g.getGroup(idx, 0), (StructType) type);
    }
    if (type instanceof ArrayType) {
      Group list = g.getGroup(idx, 0);
      List<Object> out = new ArrayList<>();
      for (int i = 0; i < list.getFieldRepetitionCount(0); i++) {
        Group entry = list.getGroup(0, i);
        out.add(entry.getFieldRepetitionCount(0) == 0 ? null : value(entry, 0, ((ArrayType) type).elementType));
      }
      return out;
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      Group map = g.getGroup(idx, 0);
      Map<Object, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < map.getFieldRepetitionCount(0); i++) {
        Group kv = map.getGroup(0, i);
        Object value = kv.getFieldRepetitionCount(1) == 0 ? null : value(kv, 1, m.valueType);
        out.put(value(kv, 0, m.keyType), value);
      }
      return out;
    }
    if (type == DeltaType.VARIANT) {
      Group variant = g.getGroup(idx, 0);
      return VariantValue.raw(variant.getBinary("value", 0).getBytes(), variant.getBinary("metadata", 0).getBytes());
    }
    PrimitiveType pt = g.getType().getType(idx).asPrimitiveType();
    if (type instanceof Decimal) {
      int scale = ((Decimal) type).scale;
      switch (pt.getPrimitiveTypeName()) {
        case INT32: return BigDecimal.valueOf(g.getInteger(idx, 0), scale);
        case INT64: return BigDecimal.valueOf(g.getLong(idx, 0), scale);
        default: return new BigDecimal(new BigInteger(g.getBinary(idx, 0).getBytes()), scale);
      }
    }
    switch (((Primitive) type).name) {
      case "boolean": return g.getBoolean(idx, 0);
      case "byte": return (byte) g.getInteger(idx, 0);
      case "short": return (short) g.getInteger(idx, 0);
      case "integer": return g.getInteger(idx, 0);
      case "long": return g.getLong(idx, 0);
      case "float": return g.getFloat(idx, 0);
      case "double": return g.getDouble(idx, 0);
      case "string": return new String(g.getBinary(idx, 0).getBytes(), StandardCharsets.UTF_8);
      case "binary": return g.getBinary(idx, 0).getBytes();
      case "date": return LocalDate.ofEpochDay(g.getInteger(idx, 0));
      case "timestamp": return instant(g, idx, pt);
      case "timestamp_ntz": return LocalDateTime.ofInstant(instant(g, idx, pt), ZoneOffset.UTC);
      default: throw new IllegalArgumentException("unsupported type " + type);
    }
  }

  private static Instant instant(Group g, int idx, PrimitiveType pt) {
    if (pt.getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
      ByteBuffer buf = ByteBuffer.wrap(g.getInt96(idx, 0).getBytes()).order(ByteOrder.LITTLE_ENDIAN);
      long nanosOfDay = buf.getLong();
      long julianDay = buf.getInt();
      // day and nanosecond arithmetic: nanos since the epoch overflow a long outside 1677..2262
      return Instant.ofEpochSecond((julianDay - JULIAN_DAY_OF_EPOCH) * SECONDS_PER_DAY + nanosOfDay / NANOS_PER_SECOND,
          nanosOfDay % NANOS_PER_SECOND);
    }
    long raw = g.getLong(idx, 0);
    return pt.getOriginalType() == OriginalType.TIMESTAMP_MILLIS
        ? Instant.ofEpochMilli(raw)
        : Instant.EPOCH.plus(raw, ChronoUnit.MICROS);
  }

  /** Micros since the epoch (ChronoUnit.MICROS.between overflows: it counts in nanos). */
  private static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  static Binary int96(Instant t) {
    long days = Math.floorDiv(t.getEpochSecond(), SECONDS_PER_DAY);
    long nanosOfDay = Math.floorMod(t.getEpochSecond(), SECONDS_PER_DAY) * NANOS_PER_SECOND + t.getNano();
    ByteBuffer buf = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    buf.putLong(nanosOfDay).putInt((int) (days + JULIAN_DAY_OF_EPOCH));
    return Binary.fromConstantByteArray(buf.array());
  }

  private static byte[] fixedLength(BigInteger unscaled, int length) {
    byte[] raw = unscaled.toByteArray();
    byte[] out = new byte[length];
    Arrays.fill(out, unscaled.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(raw, 0, out, length - raw.length, raw.length);
    return out;
  }

  static BigDecimal toBigDecimal(Object v) {
    if (v instanceof BigDecimal) {
      return (BigDecimal) v;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    return new BigDecimal(v.toString());
  }

  /** Reads the Parquet footer's schema (for tests that inspect what was written). */
  public static MessageType fileSchema(Path file) throws IOException {
    try (org.apache.parquet.hadoop.ParquetFileReader r = org.apache.parquet.hadoop.ParquetFileReader.open(
        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()),
            new Configuration(false)))) {
      return r.getFooter().getFileMetaData().getSchema();
    }
  }

  /** Row groups in a Parquet file (for tests that need files with several). */
  public static int rowGroups(Path file) throws IOException {
    try (org.apache.parquet.hadoop.ParquetFileReader r = org.apache.parquet.hadoop.ParquetFileReader.open(
        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()),
            new Configuration(false)))) {
      return r.getRowGroups().size();
    }
  }


  /** ParquetWriter's builder over an {@link OutputFile}: 1.10.1's example writer only takes Hadoop paths. */
  private static final class GroupWriterBuilder extends ParquetWriter.Builder<Group, GroupWriterBuilder> {
    private final MessageType schema;

    GroupWriterBuilder(OutputFile file, MessageType schema) {
      super(file);
      this.schema = schema;
    }

    @Override
    protected GroupWriterBuilder self() {
      return this;
    }

    @Override
    protected WriteSupport<Group> getWriteSupport(Configuration conf) {
      GroupWriteSupport.setSchema(schema, conf);
      return new GroupWriteSupport();
    }
  }
}
