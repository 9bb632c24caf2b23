package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.io.Closeable;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.parquet.io.InputFile;

/**
 * Reads a {@link WorkUnit}'s rows as {@link ChangeRow}s: the file over HTTP, partition values filled, rows its
 * deletion vectors leave out skipped ({@link UnitRows}), each row labelled (insert for added files, delete for
 * removed ones, the file's own {@code _change_type} for change data, per row for a re-added file), pre-images and
 * deletes dropped where only new images flow, starting at a given row for resumed streams. Row indexes are physical
 * positions in the file, deleted rows counted, so a resume point stays valid when a deletion vector grows.
 */
public final class UnitReader implements Iterator<ChangeRow>, Closeable {
  private final WorkUnit unit;
  private final UnitRows rows;
  private final ParquetRowReader reader;
  private final StructType readSchema;
  private final int changeTypeIndex;
  private ChangeRow next;

  private UnitReader(WorkUnit unit, UnitRows rows, ParquetRowReader reader, StructType readSchema,
      int changeTypeIndex) {
    this.unit = unit;
    this.rows = rows;
    this.reader = reader;
    this.readSchema = readSchema;
    this.changeTypeIndex = changeTypeIndex;
  }

  /** The input {@code unit}'s file is read through (see {@link StreamPlanner#urls}). */
  public static HttpInputFile input(DeltaSharingClient client, WorkUnit unit, UnitUrls urls) {
    return new HttpInputFile(client, urls.data(), unit.file().size(), unit.describe());
  }

  /**
   * Opens {@code unit} for rows of {@code readSchema} (table columns; its partition columns filled from the file's
   * partition values), from row {@code startRow} of its file, over a new {@link #input}.
   */
  public static UnitReader open(DeltaSharingClient client, WorkUnit unit, UnitUrls urls, StructType readSchema,
      ReadSettings settings, long startRow) {
    return open(client, input(client, unit, urls), unit, urls, readSchema, settings, startRow);
  }

  /**
   * Opens {@code unit} over {@code input} (which may have been opened ahead, e.g. to prefetch its footer); its
   * deletion vectors are fetched first, and a file none of whose rows are selected is not opened at all.
   */
  public static UnitReader open(DeltaSharingClient client, InputFile input, WorkUnit unit, UnitUrls urls,
      StructType readSchema, ReadSettings settings, long startRow) {
    UnitRows rows = UnitRows.load(client, unit, urls);
    StructType fileSchema = readSchema;
    int changeTypeIndex = -1;
    if (unit.source() == WorkUnit.RowSource.CHANGE_DATA) {
      fileSchema = readSchema.add(new StructField(ChangeTypes.CHANGE_TYPE_COLUMN, PrimitiveType.STRING, true));
      changeTypeIndex = fileSchema.size() - 1;
    }
    ParquetRowReader reader = rows.selection().selectsNothing() ? null : ParquetRowReader.open(input,
        unit.describe(), fileSchema, unit.partitionColumns(), unit.file().partitionValues(), settings, startRow,
        rows.selection());
    return new UnitReader(unit, rows, reader, readSchema, changeTypeIndex);
  }

  /** Rows in the file, from its footer (0 when no row is selected and the file was not opened). */
  public long rowCount() {
    return reader == null ? 0 : reader.rowCount();
  }

  @Override
  public boolean hasNext() {
    while (next == null && reader != null && reader.hasNext()) {
      long index = reader.rowIndex();
      Row r = reader.next();
      String changeType;
      Row values = r;
      if (changeTypeIndex >= 0) {
        Object ct = r.get(changeTypeIndex);
        if (ct == null) {
          throw Errors.protocol("reading change data " + unit.describe(), "a row without _change_type");
        }
        changeType = ct.toString();
        Object[] v = new Object[readSchema.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = r.get(i);
        }
        values = new Row(readSchema, v);
      } else {
        changeType = rows.changeType(index, null);
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
    if (reader != null) {
      reader.close();
    }
  }
}
