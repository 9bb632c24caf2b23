package io.sharestream.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column of a batch read as one type and seen as another, its values converted as they are read: nulls are the
 * wrapped column's, and only the getters a subclass overrides answer (the others fail naming both types). Closing it
 * leaves the wrapped vector open (its batch owns it).
 */
abstract class ConvertedVector extends ColumnVector {
  final ColumnVector in;

  ConvertedVector(ColumnVector in, DataType to) {
    super(to);
    this.in = in;
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

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException(in.dataType().simpleString() + " read as "
        + dataType().simpleString());
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
  public long getLong(int rowId) {
    throw unsupported();
  }

  @Override
  public float getFloat(int rowId) {
    throw unsupported();
  }

  @Override
  public double getDouble(int rowId) {
    throw unsupported();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
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
  public ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw unsupported();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported();
  }
}
