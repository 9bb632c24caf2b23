package io.sharestream.spark;

import io.sharestream.common.planner.ChangeTypes;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The {@code _change_type} column of a batch whose rows differ in change type: a re-added file's rows that its new
 * deletion vector marks ({@code delete}) and rows it no longer marks ({@code insert}).
 */
final class ChangeTypeVector extends ColumnVector {
  private static final UTF8String DELETE = UTF8String.fromString(ChangeTypes.DELETE);
  private static final UTF8String INSERT = UTF8String.fromString(ChangeTypes.INSERT);

  private final boolean[] deleted;

  /** {@code deleted[i]}: row {@code i} is a delete, else an insert. */
  ChangeTypeVector(boolean[] deleted) {
    super(DataTypes.StringType);
    this.deleted = deleted;
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return deleted[rowId] ? DELETE : INSERT;
  }

  @Override
  public void close() {
  }

  @Override
  public boolean hasNull() {
    return false;
  }

  @Override
  public int numNulls() {
    return 0;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return false;
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public byte getByte(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public short getShort(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public int getInt(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public long getLong(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public float getFloat(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public double getDouble(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw new UnsupportedOperationException("_change_type is a string");
  }

  @Override
  public byte[] getBinary(int rowId) {
    return getUTF8String(rowId).getBytes();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw new UnsupportedOperationException("_change_type is a string");
  }
}
