package io.sharestream.spark;

import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.DecimalType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import io.sharestream.common.types.TypeWidening;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.Type;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.catalyst.util.MapData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Delta's type widening on Spark's side: a column whose type was widened ({@code delta.typeChanges} in its field
 * metadata, or in a nested field's) is read from each file written before with the file's narrow type, which Spark's
 * Parquet reader reads exactly on every line, and the values are then widened as Spark's {@code CAST} does
 * (decimals rescaled exactly, a date to midnight): in rows here, in batches by {@link WideningVector}. A timestamp_ntz
 * reads as the timestamp of its UTC wall time ({@link SparkSchemas}), so a date becomes its UTC midnight.
 */
final class Widening {
  static final String TYPE_CHANGES = "delta.typeChanges";
  static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final long[] POW10 = new long[19];

  static {
    POW10[0] = 1;
    for (int i = 1; i < POW10.length; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private Widening() {}

  /** Whether {@code f} or a field nested in it carries type changes: only such columns may be narrower in a file. */
  static boolean widened(StructField f) {
    return f != null && (f.metadata().containsKey(TYPE_CHANGES) || carries(f.type()));
  }

  /**
   * The top-level columns a pushed filter's reference may name or lie in: the column called {@code a.b} itself, and
   * for a nested {@code a.b} the column {@code a}.
   */
  static List<StructField> columns(StructType table, String reference) {
    List<StructField> out = new ArrayList<>();
    StructField whole = field(table, reference);
    if (whole != null) {
      out.add(whole);
    }
    int dot = reference.indexOf('.');
    StructField top = dot > 0 ? field(table, reference.substring(0, dot).replace("`", "")) : null;
    if (top != null) {
      out.add(top);
    }
    return out;
  }

  /** The top-level field called {@code name} ignoring case, or null. */
  static StructField field(StructType table, String name) {
    return table.fields().stream().filter(f -> f.name().equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  private static boolean carries(DataType t) {
    if (t instanceof StructType) {
      return ((StructType) t).fields().stream().anyMatch(Widening::widened);
    }
    if (t instanceof ArrayType) {
      return carries(((ArrayType) t).elementType());
    }
    return t instanceof MapType && (carries(((MapType) t).keyType()) || carries(((MapType) t).valueType()));
  }

  /**
   * The type to ask Spark's reader for, for a column of Parquet type {@code file} whose table type is {@code delta}
   * ({@code spark} as the scan reads it: physical names, maybe pruned): {@code spark} where the file has the table's
   * type, else the file's own type (a byte, short or int as an int). Fails on a file type the table's type is not a
   * widening of.
   */
  static org.apache.spark.sql.types.DataType readType(Type file, org.apache.spark.sql.types.DataType spark,
      DataType delta, String column, String where) {
    if (spark instanceof org.apache.spark.sql.types.StructType && delta instanceof StructType && !file.isPrimitive()) {
      List<org.apache.spark.sql.types.StructField> out = new ArrayList<>();
      for (org.apache.spark.sql.types.StructField f : ((org.apache.spark.sql.types.StructType) spark).fields()) {
        StructField d = byPhysicalName((StructType) delta, f.name());
        Type q = child(file.asGroupType(), f.name());
        out.add(d == null || q == null ? f : new org.apache.spark.sql.types.StructField(f.name(),
            readType(q, f.dataType(), d.type(), column + "." + d.name(), where), f.nullable(), f.metadata()));
      }
      return DataTypes.createStructType(out);
    }
    if (spark instanceof org.apache.spark.sql.types.ArrayType && delta instanceof ArrayType && !file.isPrimitive()) {
      org.apache.spark.sql.types.ArrayType a = (org.apache.spark.sql.types.ArrayType) spark;
      return DataTypes.createArrayType(readType(element(file.asGroupType()), a.elementType(),
          ((ArrayType) delta).elementType(), column + ".element", where), a.containsNull());
    }
    if (spark instanceof org.apache.spark.sql.types.MapType && delta instanceof MapType && !file.isPrimitive()) {
      org.apache.spark.sql.types.MapType m = (org.apache.spark.sql.types.MapType) spark;
      GroupType kv = file.asGroupType().getType(0).asGroupType();
      return DataTypes.createMapType(
          readType(kv.getType(0), m.keyType(), ((MapType) delta).keyType(), column + ".key", where),
          readType(kv.getType(1), m.valueType(), ((MapType) delta).valueType(), column + ".value", where),
          m.valueContainsNull());
    }
    DataType written = file.isPrimitive() ? deltaType(file.asPrimitiveType()) : null;
    if (written == null || written.equals(delta)) {
      return spark; // the table's type, or one this class does not narrow (Spark's reader decides)
    }
    if (!TypeWidening.canWiden(written, delta)) {
      throw new IllegalStateException("Column '" + column + "' is " + written.simpleString() + " in " + where
          + ", which does not read as the table's type " + delta.simpleString());
    }
    if (written == PrimitiveType.BYTE || written == PrimitiveType.SHORT || written == PrimitiveType.INTEGER) {
      // Spark reads an INT32 as a short or int on every line, not as a long, double or decimal before Spark 4
      return spark instanceof org.apache.spark.sql.types.ShortType
          || spark instanceof org.apache.spark.sql.types.IntegerType ? spark : DataTypes.IntegerType;
    }
    return SparkSchemas.of(written); // long, float, date or decimal(p, s), as in the file
  }

  /** The Delta type a Parquet leaf was written for, or null for one not involved in a widening. */
  private static DataType deltaType(org.apache.parquet.schema.PrimitiveType p) {
    OriginalType a = p.getOriginalType(); // Spark 3.1's Parquet 1.10 has no LogicalTypeAnnotation
    if (a == OriginalType.DECIMAL) {
      return new DecimalType(p.getDecimalMetadata().getPrecision(), p.getDecimalMetadata().getScale());
    }
    switch (p.getPrimitiveTypeName()) {
      case INT32:
        return a == null || a == OriginalType.INT_32 ? PrimitiveType.INTEGER : a == OriginalType.INT_16
            ? PrimitiveType.SHORT : a == OriginalType.INT_8 ? PrimitiveType.BYTE : a == OriginalType.DATE
            ? PrimitiveType.DATE : null;
      case INT64:
        return a == null || a == OriginalType.INT_64 ? PrimitiveType.LONG : null;
      case FLOAT:
        return PrimitiveType.FLOAT;
      case DOUBLE:
        return PrimitiveType.DOUBLE;
      default:
        return null;
    }
  }

  private static StructField byPhysicalName(StructType delta, String name) {
    for (StructField f : delta.fields()) {
      if (ColumnMapping.physicalName(f).equalsIgnoreCase(name)) {
        return f;
      }
    }
    return null;
  }

  /** A field of a Parquet group by name (exact, else ignoring case, as Spark's reader matches), or null. */
  static Type child(GroupType g, String name) {
    if (g.containsField(name)) {
      return g.getType(name);
    }
    return g.getFields().stream().filter(t -> t.getName().equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  /** The element of a Parquet list: 3-level ({@code list.element}) or a legacy 2-level one. */
  static Type element(GroupType list) {
    Type repeated = list.getType(0);
    boolean legacy = repeated.isPrimitive() || repeated.asGroupType().getFieldCount() > 1
        || repeated.getName().equals("array") || repeated.getName().equals(list.getName() + "_tuple");
    return legacy ? repeated : repeated.asGroupType().getType(0);
  }

  /**
   * A Catalyst value read as {@code from} (a type {@link #readType} chose) as a value of the table's {@code to}; a
   * variant read as its stored struct, where the scan has a string, as {@code variant} renders it.
   */
  static Object value(Object v, org.apache.spark.sql.types.DataType from, org.apache.spark.sql.types.DataType to,
      Function<InternalRow, UTF8String> variant) {
    if (v == null || from.equals(to)) {
      return v;
    }
    if (to instanceof org.apache.spark.sql.types.StringType) {
      return variant.apply((InternalRow) v);
    }
    if (to instanceof org.apache.spark.sql.types.StructType) {
      org.apache.spark.sql.types.StructField[] f = ((org.apache.spark.sql.types.StructType) from).fields();
      org.apache.spark.sql.types.StructField[] t = ((org.apache.spark.sql.types.StructType) to).fields();
      InternalRow r = (InternalRow) v;
      Object[] out = new Object[t.length];
      for (int i = 0; i < t.length; i++) {
        out[i] = r.isNullAt(i) ? null
            : value(r.get(i, f[i].dataType()), f[i].dataType(), t[i].dataType(), variant);
      }
      return new GenericInternalRow(out);
    }
    if (to instanceof org.apache.spark.sql.types.ArrayType) {
      return array((ArrayData) v, ((org.apache.spark.sql.types.ArrayType) from).elementType(),
          ((org.apache.spark.sql.types.ArrayType) to).elementType(), variant);
    }
    if (to instanceof org.apache.spark.sql.types.MapType) {
      org.apache.spark.sql.types.MapType f = (org.apache.spark.sql.types.MapType) from;
      org.apache.spark.sql.types.MapType t = (org.apache.spark.sql.types.MapType) to;
      MapData m = (MapData) v;
      return new ArrayBasedMapData(array(m.keyArray(), f.keyType(), t.keyType(), variant),
          array(m.valueArray(), f.valueType(), t.valueType(), variant));
    }
    if (to instanceof org.apache.spark.sql.types.DecimalType) {
      org.apache.spark.sql.types.DecimalType d = (org.apache.spark.sql.types.DecimalType) to;
      return v instanceof Decimal ? decimal((Decimal) v, d.precision(), d.scale())
          : decimal(((Number) v).longValue(), 0, d.precision(), d.scale());
    }
    if (from instanceof org.apache.spark.sql.types.DateType) {
      return micros((Integer) v);
    }
    if (to instanceof org.apache.spark.sql.types.LongType) {
      return ((Number) v).longValue();
    }
    if (to instanceof org.apache.spark.sql.types.DoubleType) {
      return ((Number) v).doubleValue();
    }
    throw new IllegalArgumentException("no widening of " + from.simpleString() + " to " + to.simpleString());
  }

  private static ArrayData array(ArrayData a, org.apache.spark.sql.types.DataType from,
      org.apache.spark.sql.types.DataType to, Function<InternalRow, UTF8String> variant) {
    if (from.equals(to)) {
      return a;
    }
    Object[] out = new Object[a.numElements()];
    for (int i = 0; i < out.length; i++) {
      out[i] = a.isNullAt(i) ? null : value(a.get(i, from), from, to, variant);
    }
    return new GenericArrayData(out);
  }

  /** A date (days since the epoch) as the microseconds of its midnight in UTC, as Spark 4's reader widens it. */
  static long micros(int days) {
    return Math.multiplyExact((long) days, MICROS_PER_DAY);
  }

  /** {@code unscaled} at {@code scale} as a decimal(p, s), {@code s} no smaller: exact, as {@code CAST}. */
  static Decimal decimal(long unscaled, int scale, int p, int s) {
    if (p <= Decimal.MAX_LONG_DIGITS()) {
      return Decimal.createUnsafe(Math.multiplyExact(unscaled, POW10[s - scale]), p, s);
    }
    return Decimal.apply(BigDecimal.valueOf(unscaled, scale).setScale(s, RoundingMode.UNNECESSARY), p, s);
  }

  static Decimal decimal(Decimal d, int p, int s) {
    if (d.precision() <= Decimal.MAX_LONG_DIGITS()) {
      return decimal(d.toUnscaledLong(), d.scale(), p, s);
    }
    return Decimal.apply(d.toJavaBigDecimal().setScale(s, RoundingMode.UNNECESSARY), p, s);
  }
}
