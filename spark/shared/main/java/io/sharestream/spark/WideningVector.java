package io.sharestream.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column of a batch read with a file's narrow type (int, long, float, date or a decimal, as {@link Widening} chose)
 * seen as the table's wider type (long, double, a wider decimal, timestamp), each value widened as it is read, as
 * Spark's {@code CAST}. Only the getters of the wide type answer. Closing it leaves the wrapped vector open (its
 * batch owns it).
 */
final class WideningVector extends ColumnVector {
  private final ColumnVector in;
  private final DataType from;

  WideningVector(ColumnVector in, DataType to) {
    super(to);
    this.in = in;
    this.from = in.dataType();
  }

  @Override
  public void close() {
    // the wrapped vector belongs to the reader's batch
  }

  @Override
  public boolean hasNull() {
    return in.hasNull();
  }

  @Override
  public int numNulls() {
    return in.numNulls();
  }

  @Override
  public boolean isNullAt(int rowId) {
    return in.isNullAt(rowId);
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

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(from.simpleString() + " read as " + dataType().simpleString());
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw unsupported();
  }

  @Override
  public byte getByte(int rowId) {
    throw unsupported();
  }

  @Override
  public short getShort(int rowId) {
    throw unsupported();
  }

  @Override
  public int getInt(int rowId) {
    throw unsupported();
  }

  @Override
  public float getFloat(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw unsupported();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported();
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported();
  }
}
