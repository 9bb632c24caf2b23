package io.sharestream.spark;

import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.DecimalType;
import io.sharestream.common.types.GeoType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Delta types as Spark SQL types, nullability kept (Spark 3.1 has no timestamp without time zone: timestamp_ntz
 * reads as a timestamp of its UTC wall time; before Spark 4 a variant reads as its JSON text, {@link VariantText}),
 * the change feed's columns, and partition values as Catalyst values.
 */
final class SparkSchemas {
  static final String CHANGE_TYPE = "_change_type";
  static final String COMMIT_VERSION = "_commit_version";
  static final String COMMIT_TIMESTAMP = "_commit_timestamp";

  /** How Delta's column types read in Spark, for the generated options reference. */
  static final String TYPES_DOC = "Delta's types read as Spark's of the same name, except: timestamp_ntz reads as a "
      + "timestamp of its UTC wall time; a variant (Delta's variantType) is Spark's variant on Spark 4 (read by "
      + "Spark's own Parquet reader) and, on Spark 3.x, a string holding the value's JSON text exactly as Spark 4's "
      + "to_json renders it (timestamps in the session time zone); a shredded variant (variantShredding) is read by "
      + "Spark 4.1 and later and refused on older Sparks. A geometry or geography (geospatial) is Spark's "
      + "GeometryType or GeographyType on Spark 4.1 and later and, before, a binary holding its WKB. "
      + "A column whose type the provider widened (type widening) has its wide type in every file, old files' "
      + "values cast as Delta casts them; a widening while a stream runs stops it at that version (restart it). "
      + "Filters on widened or variant columns are applied by Spark, never pushed to Parquet or the server.";

  private SparkSchemas() {}

  static org.apache.spark.sql.types.StructType of(StructType delta) {
    List<org.apache.spark.sql.types.StructField> fields = new ArrayList<>();
    for (StructField f : delta.fields()) {
      Metadata m = f.comment() == null ? Metadata.empty()
          : new org.apache.spark.sql.types.MetadataBuilder().putString("comment", f.comment()).build();
      fields.add(DataTypes.createStructField(f.name(), of(f.type()), f.nullable(), m));
    }
    return DataTypes.createStructType(fields);
  }

  static org.apache.spark.sql.types.DataType of(DataType t) {
    if (t instanceof StructType) {
      return of((StructType) t);
    }
    if (t instanceof ArrayType) {
      return DataTypes.createArrayType(of(((ArrayType) t).elementType()), ((ArrayType) t).containsNull());
    }
    if (t instanceof MapType) {
      MapType m = (MapType) t;
      return DataTypes.createMapType(of(m.keyType()), of(m.valueType()), m.valueContainsNull());
    }
    if (t instanceof DecimalType) {
      return DataTypes.createDecimalType(((DecimalType) t).precision(), ((DecimalType) t).scale());
    }
    if (t instanceof GeoType) { // Spark's own type where it has one (4.1 on), else the WKB as binary
      return geoType((GeoType) t);
    }
    switch ((PrimitiveType) t) {
      case BOOLEAN: return DataTypes.BooleanType;
      case BYTE: return DataTypes.ByteType;
      case SHORT: return DataTypes.ShortType;
      case INTEGER: return DataTypes.IntegerType;
      case LONG: return DataTypes.LongType;
      case FLOAT: return DataTypes.FloatType;
      case DOUBLE: return DataTypes.DoubleType;
      case STRING: return DataTypes.StringType;
      case BINARY: return DataTypes.BinaryType;
      case DATE: return DataTypes.DateType;
      case TIMESTAMP:
      case TIMESTAMP_NTZ:
        return DataTypes.TimestampType;
      case VARIANT:
        return VariantText.asText() ? DataTypes.StringType : VariantText.SPARK_TYPE;
      default:
        throw new IllegalArgumentException("no Spark type for " + t.simpleString());
    }
  }

  /** Spark's geometry or geography type for {@code t} (Spark 4.1 on), else binary: the shape's WKB. */
  static org.apache.spark.sql.types.DataType geoType(GeoType t) {
    try {
      return org.apache.spark.sql.types.DataType.fromJson("\"" + t.simpleString() + "\"");
    } catch (RuntimeException beforeSpark41) {
      return DataTypes.BinaryType;
    }
  }

  /**
   * {@code spark} (the table's columns, or a pruned selection of them) as the data files hold it: every struct field
   * under its physical name (column mapping, nested fields too), a variant read as text as its stored struct.
   */
  static org.apache.spark.sql.types.StructType physical(org.apache.spark.sql.types.StructType spark,
      StructType delta) {
    List<org.apache.spark.sql.types.StructField> fields = new ArrayList<>();
    for (org.apache.spark.sql.types.StructField f : spark.fields()) {
      StructField d = field(delta, f.name());
      fields.add(d == null ? f : new org.apache.spark.sql.types.StructField(ColumnMapping.physicalName(d),
          physical(f.dataType(), d.type()), f.nullable(), f.metadata()));
    }
    return DataTypes.createStructType(fields);
  }

  private static org.apache.spark.sql.types.DataType physical(org.apache.spark.sql.types.DataType spark,
      DataType delta) {
    if (delta == PrimitiveType.VARIANT && VariantText.asText()) {
      return VariantText.STORED;
    }
    if (spark instanceof org.apache.spark.sql.types.StructType && delta instanceof StructType) {
      return physical((org.apache.spark.sql.types.StructType) spark, (StructType) delta);
    }
    if (spark instanceof org.apache.spark.sql.types.ArrayType && delta instanceof ArrayType) {
      org.apache.spark.sql.types.ArrayType a = (org.apache.spark.sql.types.ArrayType) spark;
      return DataTypes.createArrayType(physical(a.elementType(), ((ArrayType) delta).elementType()),
          a.containsNull());
    }
    if (spark instanceof org.apache.spark.sql.types.MapType && delta instanceof MapType) {
      org.apache.spark.sql.types.MapType m = (org.apache.spark.sql.types.MapType) spark;
      return DataTypes.createMapType(physical(m.keyType(), ((MapType) delta).keyType()),
          physical(m.valueType(), ((MapType) delta).valueType()), m.valueContainsNull());
    }
    return spark;
  }

  private static StructField field(StructType delta, String name) {
    for (StructField f : delta.fields()) {
      if (f.name().equalsIgnoreCase(name)) {
        return f;
      }
    }
    return null;
  }

  /** The table's columns plus, with readChangeFeed, the change type, version and commit time of each row. */
  static org.apache.spark.sql.types.StructType withChangeColumns(org.apache.spark.sql.types.StructType table) {
    return table.add(CHANGE_TYPE, DataTypes.StringType, false)
        .add(COMMIT_VERSION, DataTypes.LongType, false)
        .add(COMMIT_TIMESTAMP, DataTypes.TimestampType, false);
  }

  static boolean isChangeColumn(String name) {
    return name.equals(CHANGE_TYPE) || name.equals(COMMIT_VERSION) || name.equals(COMMIT_TIMESTAMP);
  }

  /** A value the core decoded (partition value) as the Catalyst value of its Spark type. */
  static Object catalyst(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof String) {
      return UTF8String.fromString((String) v);
    }
    if (v instanceof BigDecimal) {
      return Decimal.apply((BigDecimal) v);
    }
    if (v instanceof LocalDate) {
      return (int) ((LocalDate) v).toEpochDay();
    }
    if (v instanceof Instant) {
      return micros((Instant) v);
    }
    if (v instanceof LocalDateTime) {
      return micros(((LocalDateTime) v).toInstant(ZoneOffset.UTC));
    }
    return v; // booleans, numbers and byte arrays are their own Catalyst values
  }

  static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }
}
