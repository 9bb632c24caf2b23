package io.sharestream.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * A column of a batch read with a file's narrow type (int, long, float, date or a decimal, as {@link Widening} chose)
 * seen as the table's wider type (long, double, a wider decimal, timestamp), each value widened as it is read, as
 * Spark's {@code CAST}.
 */
final class WideningVector extends ConvertedVector {
  private final DataType from;

  WideningVector(ColumnVector in, DataType to) {
    super(in, to);
    this.from = in.dataType();
  }

  @Override
  public long getLong(int rowId) {
    if (from instanceof DateType) { // to a timestamp; a null's slot may hold anything
      return in.isNullAt(rowId) ? 0L : Widening.micros(in.getInt(rowId));
    }
    return in.getInt(rowId);
  }

  @Override
  public double getDouble(int rowId) {
    return from instanceof FloatType ? in.getFloat(rowId) : in.getInt(rowId);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    if (in.isNullAt(rowId)) {
      return null;
    }
    if (from instanceof IntegerType) {
      return Widening.decimal(in.getInt(rowId), 0, precision, scale);
    }
    if (from instanceof LongType) {
      return Widening.decimal(in.getLong(rowId), 0, precision, scale);
    }
    DecimalType d = (DecimalType) from;
    return Widening.decimal(in.getDecimal(rowId, d.precision(), d.scale()), precision, scale);
  }
}
