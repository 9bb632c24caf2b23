package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.client.SignedUrl;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.io.Closeable;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.parquet.io.InputFile;

/**
 * Reads a {@link WorkUnit}'s rows as {@link ChangeRow}s: the file over HTTP, partition values filled, each row
 * labelled (insert for added files, delete for removed ones, the file's own {@code _change_type} for change data),
 * pre-images and deletes dropped where only new images flow, starting after a given row for resumed streams.
 */
public final class UnitReader implements Iterator<ChangeRow>, Closeable {
  private final WorkUnit unit;
  private final ParquetRowReader reader;
  private final StructType readSchema;
  private final int changeTypeIndex;
  private ChangeRow next;

  private UnitReader(WorkUnit unit, ParquetRowReader reader, StructType readSchema, int changeTypeIndex) {
    this.unit = unit;
    this.reader = reader;
    this.readSchema = readSchema;
    this.changeTypeIndex = changeTypeIndex;
  }

  /** The input {@code unit}'s file is read through ({@code url}: see {@link StreamPlanner#signedUrl}). */
  public static HttpInputFile input(DeltaSharingClient client, WorkUnit unit, SignedUrl url) {
    return new HttpInputFile(client, url, unit.file().size(), name(unit));
  }

  /**
   * Opens {@code unit} for rows of {@code readSchema} (table columns), from row {@code startRow} of its file, over
   * a new {@link #input}.
   */
  public static UnitReader open(DeltaSharingClient client, WorkUnit unit, SignedUrl url, StructType readSchema,
      List<String> partitionColumns, ReadSettings settings, long startRow) {
    return open(input(client, unit, url), unit, readSchema, partitionColumns, settings, startRow);
  }

  /** Opens {@code unit} over {@code input} (which may have been opened ahead, e.g. to prefetch its footer). */
  public static UnitReader open(InputFile input, WorkUnit unit, StructType readSchema, List<String> partitionColumns,
      ReadSettings settings, long startRow) {
    StructType fileSchema = readSchema;
    int changeTypeIndex = -1;
    if (unit.source() == WorkUnit.RowSource.CHANGE_DATA) {
      fileSchema = readSchema.add(new StructField(ChangeTypes.CHANGE_TYPE_COLUMN, PrimitiveType.STRING, true));
      changeTypeIndex = fileSchema.size() - 1;
    }
    ParquetRowReader reader = ParquetRowReader.open(input, name(unit), fileSchema, partitionColumns,
        unit.file().partitionValues(), settings, startRow);
    return new UnitReader(unit, reader, readSchema, changeTypeIndex);
  }

  private static String name(WorkUnit unit) {
    return "v" + unit.version() + "/" + unit.file().id();
  }

  /** Rows in the file, from its footer. */
  public long rowCount() {
    return reader.rowCount();
  }

  @Override
  public boolean hasNext() {
    while (next == null && reader.hasNext()) {
      long index = reader.rowIndex();
      Row r = reader.next();
      String changeType;
      Row values = r;
      if (changeTypeIndex >= 0) {
        Object ct = r.get(changeTypeIndex);
        if (ct == null) {
          throw Errors.protocol("reading change data file " + unit.file().id(), "a row without _change_type");
        }
        changeType = ct.toString();
        Object[] v = new Object[readSchema.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = r.get(i);
        }
        values = new Row(readSchema, v);
      } else {
        changeType = unit.changeType(null);
      }
      if (unit.newImagesOnly() && !ChangeTypes.isNewImage(changeType)) {
        continue;
      }
      next = new ChangeRow(values, changeType, index);
    }
    return next != null;
  }

  @Override
  public ChangeRow next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ChangeRow r = next;
    next = null;
    return r;
  }

  @Override
  public void close() {
    reader.close();
  }
}
