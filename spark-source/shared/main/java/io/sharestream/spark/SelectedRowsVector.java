package io.sharestream.spark;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A column of a batch with some rows left out (deleted by a deletion vector): row {@code i} of this vector is row
 * {@code rows[i]} of the vector it wraps, so no value is copied. Struct children are wrapped alike. Closing it
 * leaves the wrapped vector open (its batch owns it).
 */
final class SelectedRowsVector extends ColumnVector {
  private final ColumnVector in;
  private final int[] rows;
  private final int count;
  private SelectedRowsVector[] children;

  SelectedRowsVector(ColumnVector in, int[] rows, int count) {
    super(in.dataType());
    this.in = in;
    this.rows = rows;
    this.count = count;
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
    if (!in.hasNull()) {
      return 0;
    }
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (in.isNullAt(rows[i])) {
        n++;
      }
    }
    return n;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return in.isNullAt(rows[rowId]);
  }

  @Override
  public boolean getBoolean(int rowId) {
    return in.getBoolean(rows[rowId]);
  }

  @Override
  public byte getByte(int rowId) {
    return in.getByte(rows[rowId]);
  }

  @Override
  public short getShort(int rowId) {
    return in.getShort(rows[rowId]);
  }

  @Override
  public int getInt(int rowId) {
    return in.getInt(rows[rowId]);
  }

  @Override
  public long getLong(int rowId) {
    return in.getLong(rows[rowId]);
  }

  @Override
  public float getFloat(int rowId) {
    return in.getFloat(rows[rowId]);
  }

  @Override
  public double getDouble(int rowId) {
    return in.getDouble(rows[rowId]);
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return in.getArray(rows[rowId]);
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    return in.getMap(rows[ordinal]);
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return in.getDecimal(rows[rowId], precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return in.getUTF8String(rows[rowId]);
  }

  @Override
  public byte[] getBinary(int rowId) {
    return in.getBinary(rows[rowId]);
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    if (children == null) {
      children = new SelectedRowsVector[((org.apache.spark.sql.types.StructType) dataType()).size()];
    }
    if (children[ordinal] == null) {
      children[ordinal] = new SelectedRowsVector(in.getChild(ordinal), rows, count);
    }
    return children[ordinal];
  }
}
