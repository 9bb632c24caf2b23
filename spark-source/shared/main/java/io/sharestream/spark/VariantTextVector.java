package io.sharestream.spark;

import java.time.ZoneId;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A variant column of a batch, read as its stored struct ({@link VariantText#STORED}), seen as a string column of
 * each value's JSON text, rendered as it is read.
 */
final class VariantTextVector extends ConvertedVector {
  private final ZoneId zone;
  private final String where;
  private final String column;

  VariantTextVector(ColumnVector in, ZoneId zone, String where, String column) {
    super(in, DataTypes.StringType);
    this.zone = zone;
    this.where = where;
    this.column = column;
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
}
