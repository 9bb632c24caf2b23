package io.sharestream.spark;

import java.time.ZoneId;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A variant column of a batch, read as its stored struct ({@link VariantText#STORED}), seen as a string column of
 * each value's JSON text, rendered as it is read. Only the string getter answers. Closing it leaves the wrapped
 * vector open (its batch owns it).
 */
final class VariantTextVector extends ColumnVector {
  private final ColumnVector in;
  private final ZoneId zone;
  private final String where;
  private final String column;

  VariantTextVector(ColumnVector in, ZoneId zone, String where, String column) {
    super(DataTypes.StringType);
    this.in = in;
    this.zone = zone;
    this.where = where;
    this.column = column;
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
  public UTF8String getUTF8String(int rowId) {
    if (in.isNullAt(rowId)) {
      return null;
    }
    ColumnVector value = in.getChild(0);
    ColumnVector metadata = in.getChild(1);
    return VariantText.json(value.isNullAt(rowId) ? null : value.getBinary(rowId),
        metadata.isNullAt(rowId) ? null : metadata.getBinary(rowId), zone, where, column);
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("a variant read as its JSON text is a string");
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
  public ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
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
