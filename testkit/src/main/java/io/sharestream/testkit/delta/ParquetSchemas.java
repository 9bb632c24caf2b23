package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaType.ArrayType;
import io.sharestream.testkit.delta.DeltaType.Decimal;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.MapType;
import io.sharestream.testkit.delta.DeltaType.Primitive;
import io.sharestream.testkit.delta.DeltaType.StructType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Maps a Delta schema to the Parquet schema Spark writes for it: 3-level LIST and MAP groups, decimals by
 * precision (INT32, INT64, FIXED_LEN_BYTE_ARRAY), dates as INT32 DATE, timestamps as INT96 (Spark's default) or
 * INT64 TIMESTAMP_MICROS, variants as Spark 4.0's unannotated {@code group {required binary value; required binary
 * metadata}}; column mapping ids become Parquet field ids. Written against Parquet 1.10.1's API
 * ({@link OriginalType}) so it runs inside Spark 3.1.
 */
public final class ParquetSchemas {
  private ParquetSchemas() {}

  /** How {@code timestamp} columns are stored. */
  public enum TimestampEncoding {
    /** 12-byte Julian day + nanos of day, Spark's default. */
    INT96,
    /** INT64 microseconds since the epoch, annotated TIMESTAMP_MICROS. */
    INT64_MICROS
  }

  public static MessageType toParquet(StructType schema, TimestampEncoding timestamps) {
    Types.MessageTypeBuilder b = Types.buildMessage();
    for (Field f : schema.fields) {
      b.addField(convert(f, timestamps));
    }
    return b.named("spark_schema");
  }

  /** A struct field, with its column mapping id (if any) as the Parquet field id, as Delta writes it. */
  private static Type convert(Field f, TimestampEncoding timestamps) {
    Type t = convert(f.name, f.type, f.nullable, timestamps);
    Object id = f.metadata.get(ColumnMapping.ID);
    return id instanceof Number ? t.withId(((Number) id).intValue()) : t;
  }

  static Type convert(String name, DeltaType type, boolean nullable, TimestampEncoding timestamps) {
    Repetition rep = nullable ? Repetition.OPTIONAL : Repetition.REQUIRED;
    if (type instanceof Primitive) {
      switch (((Primitive) type).name) {
        case "boolean": return Types.primitive(PrimitiveTypeName.BOOLEAN, rep).named(name);
        case "byte": return Types.primitive(PrimitiveTypeName.INT32, rep).as(OriginalType.INT_8).named(name);
        case "short": return Types.primitive(PrimitiveTypeName.INT32, rep).as(OriginalType.INT_16).named(name);
        case "integer": return Types.primitive(PrimitiveTypeName.INT32, rep).named(name);
        case "long": return Types.primitive(PrimitiveTypeName.INT64, rep).named(name);
        case "float": return Types.primitive(PrimitiveTypeName.FLOAT, rep).named(name);
        case "double": return Types.primitive(PrimitiveTypeName.DOUBLE, rep).named(name);
        case "string": return Types.primitive(PrimitiveTypeName.BINARY, rep).as(OriginalType.UTF8).named(name);
        case "binary": return Types.primitive(PrimitiveTypeName.BINARY, rep).named(name);
        case "date": return Types.primitive(PrimitiveTypeName.INT32, rep).as(OriginalType.DATE).named(name);
        case "timestamp":
          return timestamps == TimestampEncoding.INT96
              ? Types.primitive(PrimitiveTypeName.INT96, rep).named(name)
              : Types.primitive(PrimitiveTypeName.INT64, rep).as(OriginalType.TIMESTAMP_MICROS).named(name);
        case "timestamp_ntz":
          return Types.primitive(PrimitiveTypeName.INT64, rep).as(OriginalType.TIMESTAMP_MICROS).named(name);
        case "variant":
          // as Spark 4.0 writes it: an unannotated group, value then metadata, both required
          return Types.buildGroup(rep).required(PrimitiveTypeName.BINARY).named("value")
              .required(PrimitiveTypeName.BINARY).named("metadata").named(name);
        default:
          throw new IllegalArgumentException("unsupported type " + type);
      }
    }
    if (type instanceof Decimal) {
      Decimal d = (Decimal) type;
      if (d.precision <= 9) {
        return Types.primitive(PrimitiveTypeName.INT32, rep).as(OriginalType.DECIMAL)
            .precision(d.precision).scale(d.scale).named(name);
      }
      if (d.precision <= 18) {
        return Types.primitive(PrimitiveTypeName.INT64, rep).as(OriginalType.DECIMAL)
            .precision(d.precision).scale(d.scale).named(name);
      }
      return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, rep).length(decimalBytes(d.precision))
          .as(OriginalType.DECIMAL).precision(d.precision).scale(d.scale).named(name);
    }
    if (type instanceof StructType) {
      Types.GroupBuilder<org.apache.parquet.schema.GroupType> g = Types.buildGroup(rep);
      for (Field f : ((StructType) type).fields) {
        g.addField(convert(f, timestamps));
      }
      return g.named(name);
    }
    if (type instanceof ArrayType) {
      ArrayType a = (ArrayType) type;
      return Types.buildGroup(rep).as(OriginalType.LIST)
          .addField(Types.repeatedGroup().addField(convert("element", a.elementType, a.containsNull, timestamps)).named("list"))
          .named(name);
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      return Types.buildGroup(rep).as(OriginalType.MAP)
          .addField(Types.repeatedGroup()
              .addField(convert("key", m.keyType, false, timestamps))
              .addField(convert("value", m.valueType, m.valueContainsNull, timestamps))
              .named("key_value"))
          .named(name);
    }
    throw new IllegalArgumentException("unsupported type " + type);
  }

  /** Bytes of the smallest two's-complement array holding any unscaled value of this precision (Spark's rule). */
  static int decimalBytes(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }
}
