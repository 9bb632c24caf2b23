package io.sharestream.spark;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import io.sharestream.common.types.VariantJson;
import java.time.ZoneId;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Delta's variant columns on Spark's side. Spark 4 has a variant type, which its own Parquet reader reads; before
 * it, a variant column is a string column of the value's JSON text, exactly as Spark 4 renders it ({@code to_json},
 * timestamps in the session's time zone): its Parquet group is read as a struct of its {@code value} and
 * {@code metadata} binaries ({@link #STORED}) and rendered as rows or batches ({@link VariantTextVector}) are read.
 * A shredded variant ({@code typed_value}) is read where Spark's reader reads it ({@link #sparkReadsShredded}) and
 * refused by name elsewhere, as is a file whose variant is not a variant's group.
 */
final class VariantText {
  /** Spark's variant type, or null before Spark 4. */
  static final org.apache.spark.sql.types.DataType SPARK_TYPE = sparkType();
  /** How a variant is stored in Parquet, as Spark reads it when it has no variant type: value, then metadata. */
  static final org.apache.spark.sql.types.StructType STORED = DataTypes.createStructType(new
      org.apache.spark.sql.types.StructField[] {DataTypes.createStructField("value", DataTypes.BinaryType, true),
      DataTypes.createStructField("metadata", DataTypes.BinaryType, true)});

  private VariantText() {}

  private static org.apache.spark.sql.types.DataType sparkType() {
    try {
      return org.apache.spark.sql.types.DataType.fromJson("\"variant\"");
    } catch (RuntimeException beforeSpark4) {
      return null;
    }
  }

  /**
   * Whether this Spark's Parquet reader reads shredded variants: it has a variant type and the setting that allows
   * reading them shredded ({@code spark.sql.variant.allowReadingShredded}, on by default where it exists).
   */
  static boolean sparkReadsShredded() {
    if (asText()) {
      return false;
    }
    try {
      return Boolean.parseBoolean(org.apache.spark.sql.internal.SQLConf.get()
          .getConfString("spark.sql.variant.allowReadingShredded"));
    } catch (java.util.NoSuchElementException noSuchSetting) {
      return false;
    }
  }

  /** Whether variants read as their JSON text here (Spark before 4). */
  static boolean asText() {
    return SPARK_TYPE == null;
  }

  /** Whether {@code t} is or holds a variant. */
  static boolean holdsVariant(DataType t) {
    if (t == PrimitiveType.VARIANT) {
      return true;
    }
    if (t instanceof StructType) {
      return ((StructType) t).fields().stream().anyMatch(f -> holdsVariant(f.type()));
    }
    if (t instanceof ArrayType) {
      return holdsVariant(((ArrayType) t).elementType());
    }
    return t instanceof MapType && (holdsVariant(((MapType) t).keyType()) || holdsVariant(((MapType) t).valueType()));
  }

  /** The JSON text of a variant read as {@link #STORED}; a malformed one fails naming the file and column. */
  static UTF8String json(byte[] value, byte[] metadata, ZoneId zone, String where, String column) {
    try {
      return UTF8String.fromString(VariantJson.toJson(value, metadata, zone));
    } catch (VariantJson.MalformedVariantException e) {
      throw Errors.malformedVariant(where, column, e.getMessage());
    }
  }

  static UTF8String json(InternalRow stored, ZoneId zone, String where, String column) {
    return json(stored.isNullAt(0) ? null : stored.getBinary(0), stored.isNullAt(1) ? null : stored.getBinary(1),
        zone, where, column);
  }

  /**
   * Checks the variants of column {@code column} (table type {@code delta}, Parquet type {@code file} in the file
   * {@code where}): each a group of a binary {@code value} and {@code metadata}, not shredded.
   */
  static void checkFile(Type file, DataType delta, String column, String where) {
    if (delta == PrimitiveType.VARIANT) {
      if (file.isPrimitive()) {
        throw Errors.malformedVariant(where, column, "it is a Parquet "
            + file.asPrimitiveType().getPrimitiveTypeName());
      }
      GroupType g = file.asGroupType();
      if (g.containsField("typed_value")) {
        if (!sparkReadsShredded()) {
          throw Errors.shreddedVariant(where, column, org.apache.spark.package$.MODULE$.SPARK_VERSION());
        }
        return; // Spark's own reader puts it back together
      }
      for (String name : new String[] {"value", "metadata"}) {
        if (!g.containsField(name) || !g.getType(name).isPrimitive() || g.getType(name).asPrimitiveType()
            .getPrimitiveTypeName() != org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY) {
          throw Errors.malformedVariant(where, column, "its Parquet group has no binary '" + name + "' field");
        }
      }
    } else if (delta instanceof StructType && !file.isPrimitive()) {
      for (StructField f : ((StructType) delta).fields()) {
        Type q = Widening.child(file.asGroupType(), ColumnMapping.physicalName(f));
        if (q != null && holdsVariant(f.type())) {
          checkFile(q, f.type(), column + "." + f.name(), where);
        }
      }
    } else if (delta instanceof ArrayType && !file.isPrimitive()) {
      checkFile(Widening.element(file.asGroupType()), ((ArrayType) delta).elementType(), column + ".element", where);
    } else if (delta instanceof MapType && !file.isPrimitive()) {
      GroupType kv = file.asGroupType().getType(0).asGroupType();
      checkFile(kv.getType(0), ((MapType) delta).keyType(), column + ".key", where);
      checkFile(kv.getType(1), ((MapType) delta).valueType(), column + ".value", where);
    }
  }
}
