package io.sharestream.kafka;

import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.DecimalType;
import io.sharestream.common.types.GeoType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Delta types as Connect schemas, and the conversion of the core's row values to Connect values: every type, with
 * {@code Decimal}, {@code Date} and timestamp representations per {@link TimePrecisionMode}, variants as their JSON
 * text (a string schema named {@value #VARIANT_JSON}), arrays, maps and structs, optional where Delta allows null.
 * Field names are the columns' as {@link FieldNameAdjustmentMode} says; record names are derived from the table and
 * the field path, always valid Avro names.
 */
final class ConnectSchemas {
  /** int64 microseconds since the epoch (timestamp, {@code time.precision.mode=micros}). */
  static final String MICRO_TIMESTAMP = "io.sharestream.time.MicroTimestamp";
  /** int64 microseconds of a UTC wall time (timestamp_ntz, {@code micros}). */
  static final String MICRO_LOCAL_TIMESTAMP = "io.sharestream.time.MicroLocalTimestamp";
  /** ISO-8601 instant text (timestamp, {@code string}). */
  static final String ISO_TIMESTAMP = "io.sharestream.time.IsoTimestamp";
  /** ISO-8601 local date-time text (timestamp_ntz, {@code string}). */
  static final String ISO_LOCAL_TIMESTAMP = "io.sharestream.time.IsoLocalTimestamp";
  /** A variant's JSON text, as Spark renders it (variant; a string schema of this name). */
  static final String VARIANT_JSON = "io.sharestream.data.VariantJson";
  /** A geometry's WKB (bytes of this name, parameter {@code crs}). */
  static final String GEOMETRY_WKB = "io.sharestream.data.GeometryWkb";
  /** A geography's WKB (bytes of this name, parameters {@code crs} and {@code algorithm}). */
  static final String GEOGRAPHY_WKB = "io.sharestream.data.GeographyWkb";
  /** How Delta's column types become Connect's, for the generated configuration reference. */
  static final String TYPES_DOC = "Record values are structs of the table's columns (named as "
      + "field.name.adjustment.mode says). "
      + "Integers, floating point, booleans, strings and binaries are Connect's types of the same width; a decimal is "
      + "Connect's Decimal; a date Connect's Date; timestamps and timestamp_ntz as time.precision.mode says; arrays, "
      + "maps and structs nest. A variant (Delta's variantType) is a string (schema name " + VARIANT_JSON
      + ") holding the value's JSON text exactly as Spark's to_json renders it, timestamps in UTC, whether stored "
      + "shredded (variantShredding) or not. A geometry or geography (Delta's geospatial) is bytes holding its WKB "
      + "(schema name " + GEOMETRY_WKB + " or " + GEOGRAPHY_WKB + ", the reference system in the parameter crs, a "
      + "geography's edges in algorithm). A column whose type the provider widened (type widening) "
      + "has its wide type in every record; a widening while streaming gives the records a new value schema version "
      + "from that version.";
  /** Parameter carrying a decimal's precision (the Avro converter's convention). */
  static final String DECIMAL_PRECISION = "connect.decimal.precision";

  private ConnectSchemas() {}

  /** A Connect schema and the function turning a core value of its Delta type into a Connect value. */
  static final class Conversion {
    final Schema schema;
    final Function<Object, Object> convert;

    Conversion(Schema schema, Function<Object, Object> convert) {
      this.schema = schema;
      this.convert = convert;
    }

    Object apply(Object value) {
      return value == null ? null : convert.apply(value);
    }
  }

  /**
   * The struct schema named {@code name} (version {@code version}) of {@code columns} out of {@code type}, its fields
   * (nested ones too) named as {@code names} says.
   */
  static Conversion struct(StructType type, List<String> columns, String name, Integer version, boolean optional,
      TimePrecisionMode mode, FieldNameAdjustmentMode names) {
    List<String> fieldNames = names.adjust(columns);
    SchemaBuilder b = SchemaBuilder.struct().name(name);
    if (version != null) {
      b.version(version);
    }
    if (optional) {
      b.optional();
    }
    int[] indexes = new int[columns.size()];
    List<Conversion> fields = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      indexes[i] = type.indexOf(columns.get(i));
      StructField f = type.field(indexes[i]);
      Conversion c = of(f.type(), f.nullable(), name + "." + avroName(fieldNames.get(i)), mode, names);
      b.field(fieldNames.get(i), c.schema);
      fields.add(c);
    }
    Schema schema = b.build();
    return new Conversion(schema, v -> {
      Row row = (Row) v;
      Struct s = new Struct(schema);
      for (int i = 0; i < indexes.length; i++) {
        Object x = row.get(indexes[i]);
        if (x != null) {
          s.put(schema.fields().get(i), fields.get(i).convert.apply(x));
        }
      }
      return s;
    });
  }

  /** The whole struct {@code type}. */
  static Conversion struct(StructType type, String name, Integer version, boolean optional, TimePrecisionMode mode,
      FieldNameAdjustmentMode names) {
    return struct(type, type.fieldNames(), name, version, optional, mode, names);
  }

  private static Conversion of(DataType type, boolean optional, String path, TimePrecisionMode mode,
      FieldNameAdjustmentMode names) {
    if (type instanceof StructType) {
      return struct((StructType) type, path, null, optional, mode, names);
    }
    if (type instanceof ArrayType) {
      ArrayType a = (ArrayType) type;
      Conversion element = of(a.elementType(), a.containsNull(), path, mode, names);
      SchemaBuilder b = SchemaBuilder.array(element.schema);
      return new Conversion(optional(b, optional), v -> {
        List<?> in = (List<?>) v;
        List<Object> out = new ArrayList<>(in.size());
        for (Object e : in) {
          out.add(element.apply(e));
        }
        return out;
      });
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      Conversion key = of(m.keyType(), false, path + "_key", mode, names);
      Conversion value = of(m.valueType(), m.valueContainsNull(), path + "_value", mode, names);
      SchemaBuilder b = SchemaBuilder.map(key.schema, value.schema);
      return new Conversion(optional(b, optional), v -> {
        Map<?, ?> in = (Map<?, ?>) v;
        Map<Object, Object> out = new LinkedHashMap<>();
        in.forEach((k, x) -> out.put(key.apply(k), value.apply(x)));
        return out;
      });
    }
    if (type instanceof GeoType) { // its WKB, the reference system as parameters
      GeoType g = (GeoType) type;
      SchemaBuilder b = SchemaBuilder.bytes().name(g.geography() ? GEOGRAPHY_WKB : GEOMETRY_WKB).version(1)
          .parameter("crs", g.crs());
      if (g.geography()) {
        b.parameter("algorithm", g.algorithm());
      }
      return identity(b, optional);
    }
    if (type instanceof DecimalType) {
      DecimalType d = (DecimalType) type;
      SchemaBuilder b = Decimal.builder(d.scale()).parameter(DECIMAL_PRECISION, Integer.toString(d.precision()));
      return new Conversion(optional(b, optional), v -> (BigDecimal) v);
    }
    switch ((PrimitiveType) type) {
      case BOOLEAN: return identity(SchemaBuilder.bool(), optional);
      case BYTE: return identity(SchemaBuilder.int8(), optional);
      case SHORT: return identity(SchemaBuilder.int16(), optional);
      case INTEGER: return identity(SchemaBuilder.int32(), optional);
      case LONG: return identity(SchemaBuilder.int64(), optional);
      case FLOAT: return identity(SchemaBuilder.float32(), optional);
      case DOUBLE: return identity(SchemaBuilder.float64(), optional);
      case STRING: return identity(SchemaBuilder.string(), optional);
      case BINARY: return identity(SchemaBuilder.bytes(), optional);
      case DATE:
        return new Conversion(optional(Date.builder(), optional),
            v -> new java.util.Date(((LocalDate) v).toEpochDay() * 86_400_000L));
      case TIMESTAMP:
        return timestamp(mode, optional, false);
      case TIMESTAMP_NTZ:
        return timestamp(mode, optional, true);
      case VARIANT: // the core renders it as JSON text
        return identity(SchemaBuilder.string().name(VARIANT_JSON).version(1), optional);
      default:
        throw new IllegalArgumentException("no Connect type for " + type.simpleString() + " at " + path);
    }
  }

  private static Conversion timestamp(TimePrecisionMode mode, boolean optional, boolean local) {
    Function<Object, Instant> instant = local ? v -> ((LocalDateTime) v).toInstant(ZoneOffset.UTC) : v -> (Instant) v;
    switch (mode) {
      case MICROS:
        return new Conversion(optional(SchemaBuilder.int64().name(local ? MICRO_LOCAL_TIMESTAMP : MICRO_TIMESTAMP)
            .version(1), optional), v -> micros(instant.apply(v)));
      case STRING:
        return new Conversion(optional(SchemaBuilder.string().name(local ? ISO_LOCAL_TIMESTAMP : ISO_TIMESTAMP)
            .version(1), optional), v -> v.toString());
      case CONNECT:
      default:
        return new Conversion(optional(Timestamp.builder(), optional),
            v -> new java.util.Date(instant.apply(v).toEpochMilli()));
    }
  }

  static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  private static Conversion identity(SchemaBuilder b, boolean optional) {
    return new Conversion(optional(b, optional), v -> v);
  }

  private static Schema optional(SchemaBuilder b, boolean optional) {
    return (optional ? b.optional() : b).build();
  }

  // ------------------------------------------------------------------ names

  /** Valid, unique Avro field names for {@code names}, in order and deterministic. */
  static List<String> avroNames(List<String> names) {
    List<String> out = new ArrayList<>(names.size());
    Set<String> taken = new HashSet<>();
    Set<String> lowerTaken = new HashSet<>();
    for (String n : names) {
      String base = avroName(n);
      String candidate = base;
      for (int i = 2; taken.contains(candidate) || lowerTaken.contains(candidate.toLowerCase(Locale.ROOT)); i++) {
        candidate = base + "_" + i;
      }
      taken.add(candidate);
      lowerTaken.add(candidate.toLowerCase(Locale.ROOT));
      out.add(candidate);
    }
    return out;
  }

  /** {@code name} with characters outside {@code [A-Za-z0-9_]} replaced by {@code _} and no leading digit. */
  static String avroName(String name) {
    StringBuilder b = new StringBuilder(name.length() + 1);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c >= '0' && c <= '9');
      b.append(ok ? c : '_');
    }
    if (b.length() == 0 || Character.isDigit(b.charAt(0))) {
      b.insert(0, '_');
    }
    return b.toString();
  }

  /** A full record name for a table's {@code kind} ("Value", "Key"): namespace from the three-part name. */
  static String recordName(String share, String schema, String table, String kind) {
    return "io.sharestream." + avroName(share) + "." + avroName(schema) + "." + avroName(table) + "." + kind;
  }
}
