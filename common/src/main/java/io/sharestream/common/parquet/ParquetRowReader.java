package io.sharestream.common.parquet;

import io.sharestream.common.deletionvectors.RowSelection;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.PartitionValues;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads the rows of one data or change data file as {@link Row}s of a read schema: file columns are matched by name,
 * or by column id / physical name under column mapping (columns the file lacks read as null, as after an added
 * column), partition columns come from the file's partition values; a {@link RowSelection} leaves out deleted rows.
 * Row groups are read one at a time ({@link RowGroupPages}): up to {@link #STREAMED_ROW_GROUP_BYTES} of column
 * chunks at once, bigger ones page by page, so memory is bounded whatever the file. Starting at row N skips whole
 * row groups without reading their pages, then decodes and drops the rest of the skip inside the first row group
 * read. Before each row group, an input that takes {@link PlannedReads} hears which column chunks come next. Old
 * dates and timestamps are decoded as Spark 3.1 decodes them ({@link ReadSettings}).
 */
public final class ParquetRowReader implements Iterator<Row>, Closeable {
  /** Row groups whose read column chunks exceed this many bytes are streamed page by page. */
  public static final long STREAMED_ROW_GROUP_BYTES = 32L * 1024 * 1024;

  /** The file's row groups, from its footer. */
  private final List<BlockMetaData> groups;
  private final long streamAbove;
  private RowGroupPages pages;
  private final StructType readSchema;
  private final MessageType requested;
  private final MessageColumnIO columnIO;
  private final StructType fileColumns;
  private final int[] fileIndexOf;
  private final Object[] partitionValues;
  private final String file;
  private final RowSelection selection;
  private long rowIndex;
  private long nextIndex;
  private long rowsLeftInGroup;
  private RecordReader<Row> records;
  private Row next;
  private final RootConverter root;
  private final Map<ColumnPath, ValueConverters.DictionaryAware<?>> dictionaryReaders;
  private final InputFile input;
  private int group;

  private ParquetRowReader(InputFile input, String file, StructType readSchema, List<String> partitionColumns,
      Map<String, String> partitionValues, ReadSettings settings, long startRow, RowSelection selection,
      long streamAbove) throws IOException {
    this.file = file;
    this.selection = selection;
    this.readSchema = readSchema;
    this.input = input;
    this.streamAbove = streamAbove;
    ParquetMetadata footer = ParquetFooter.read(input);
    this.groups = footer.getBlocks();
    FileMetaData meta = footer.getFileMetaData();
    MessageType fileSchema = meta.getSchema();
    // the read schema's non-partition columns that the file has, in file order
    List<Type> kept = new ArrayList<>();
    List<StructField> keptFields = new ArrayList<>();
    this.fileIndexOf = new int[readSchema.size()];
    java.util.Arrays.fill(fileIndexOf, -1);
    for (Type t : fileSchema.getFields()) {
      int i = ValueConverters.indexOf(readSchema, t);
      if (i >= 0 && !partitionColumns.contains(readSchema.field(i).name())) {
        fileIndexOf[i] = kept.size();
        kept.add(t);
        keptFields.add(readSchema.field(i));
      }
    }
    checkMappedColumnsFound(fileSchema, readSchema, partitionColumns, kept);
    this.requested = new MessageType(fileSchema.getName(), kept);
    this.fileColumns = new StructType(keptFields);
    this.partitionValues = new Object[readSchema.size()];
    for (String p : partitionColumns) {
      int i = readSchema.indexOf(p);
      if (i >= 0) {
        this.partitionValues[i] = PartitionValues.decode(p, readSchema.field(i).type(),
            ColumnMapping.partitionValue(readSchema.field(i), partitionValues), settings.partitionZone());
      }
    }
    this.columnIO = new ColumnIOFactory(meta.getCreatedBy()).getColumnIO(requested, fileSchema, true);
    CalendarRebase calendar = CalendarRebase.forFile(meta.getKeyValueMetaData(), settings, file);
    this.root = new RootConverter(fileColumns, requested, calendar);
    this.dictionaryReaders = ValueConverters.dictionaryReaders(requested, root.getRootConverter());
    try {
      skipTo(startRow);
    } catch (IOException | RuntimeException e) {
      closePages();
      throw e;
    }
  }

  /**
   * Opens {@code input} (named {@code file} in messages) for rows of {@code readSchema}, starting at row
   * {@code startRow} of the file. Partition columns are filled from {@code partitionValues}; {@code settings} say
   * how partition timestamps and old dates and timestamps are decoded.
   */
  public static ParquetRowReader open(InputFile input, String file, StructType readSchema,
      List<String> partitionColumns, Map<String, String> partitionValues, ReadSettings settings, long startRow) {
    return open(input, file, readSchema, partitionColumns, partitionValues, settings, startRow, RowSelection.ALL);
  }

  /**
   * As above, returning only the rows {@code selection} selects (a deletion vector's rows left out): row groups
   * without a selected row are skipped unread; row indexes stay physical, counting every row of the file.
   */
  public static ParquetRowReader open(InputFile input, String file, StructType readSchema,
      List<String> partitionColumns, Map<String, String> partitionValues, ReadSettings settings, long startRow,
      RowSelection selection) {
    return open(input, file, readSchema, partitionColumns, partitionValues, settings, startRow, selection,
        STREAMED_ROW_GROUP_BYTES);
  }

  /** As above, streaming row groups above {@code streamAbove} bytes (tests stream small files this way). */
  static ParquetRowReader open(InputFile input, String file, StructType readSchema, List<String> partitionColumns,
      Map<String, String> partitionValues, ReadSettings settings, long startRow, RowSelection selection,
      long streamAbove) {
    try {
      return new ParquetRowReader(input, file, readSchema, partitionColumns, partitionValues, settings, startRow,
          selection, streamAbove);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open Parquet file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A file of a column-mapped table must hold its columns under their physical names (or ids): one that holds data
   * columns but none of the table's was not written for this table's mapping, and reading it would give nulls.
   */
  private void checkMappedColumnsFound(MessageType fileSchema, StructType readSchema, List<String> partitionColumns,
      List<Type> kept) {
    boolean readsData = readSchema.fields().stream().anyMatch(f -> !partitionColumns.contains(f.name()));
    if (ColumnMapping.isMapped(readSchema) && readsData && kept.isEmpty() && fileSchema.getFieldCount() > 0) {
      List<String> columns = new ArrayList<>();
      fileSchema.getFields().forEach(t -> columns.add(t.getName()));
      List<String> physical = new ArrayList<>();
      readSchema.fields().forEach(f -> physical.add(ColumnMapping.physicalName(f)));
      throw Errors.physicalColumnsMissing(file, physical, columns);
    }
  }

  /** Total rows in the file, from its footer. */
  public long rowCount() {
    long rows = 0;
    for (BlockMetaData g : groups) {
      rows += g.getRowCount();
    }
    return rows;
  }

  /** Row ordinal (0-based, in file order) of the row {@link #next()} returns next. */
  public long rowIndex() {
    return next != null ? nextIndex : rowIndex;
  }

  private void skipTo(long startRow) throws IOException {
    while (group < groups.size() && rowIndex + groups.get(group).getRowCount() <= startRow) {
      rowIndex += groups.get(group).getRowCount();
      group++;
    }
    while (rowIndex < startRow && advanceRecord() != null) {
      // decoded and dropped: rows before the start inside the first row group read
    }
  }

  private Row advanceRecord() throws IOException {
    while (rowsLeftInGroup == 0) {
      if (pages != null) { // every row of the group read: its pages can serve another
        pages.finish();
        pages = null;
      }
      if (group >= groups.size()) {
        return null;
      }
      BlockMetaData g = groups.get(group);
      if (selection.count(rowIndex, rowIndex + g.getRowCount()) == 0) { // every row deleted (or not asked for)
        rowIndex += g.getRowCount();
        group++;
        continue;
      }
      List<long[]> ranges = RowGroupPages.ranges(g, requested.getColumns());
      long bytes = 0;
      for (long[] r : ranges) {
        bytes += r[1] - r[0];
      }
      if (bytes > streamAbove) {
        announce(ranges, false);
        pages = RowGroupPages.streamed(input, file, g, dictionaryReaders);
      } else {
        announce(ranges, true);
        pages = RowGroupPages.loaded(input, file, g, requested.getColumns(), dictionaryReaders);
      }
      group++;
      rowsLeftInGroup = pages.getRowCount();
      records = columnIO.getRecordReader(pages, root, FilterCompat.NOOP);
    }
    rowsLeftInGroup--;
    rowIndex++;
    return records.read();
  }

  /** Tells a {@link PlannedReads} input the column chunks of the next row group. */
  private void announce(List<long[]> ranges, boolean oneStream) {
    if (input instanceof PlannedReads) {
      ((PlannedReads) input).willRead(ranges, oneStream);
    }
  }

  private void closePages() {
    if (pages != null) {
      pages.close();
      pages = null;
    }
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      Row fileValues;
      do {
        try {
          fileValues = advanceRecord();
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read Parquet file " + file + ": " + e.getMessage(), e);
        }
        if (fileValues == null) {
          return false;
        }
      } while (!selection.selects(rowIndex - 1));
      nextIndex = rowIndex - 1;
      Object[] values = partitionValues.clone();
      for (int i = 0; i < values.length; i++) {
        if (fileIndexOf[i] >= 0) {
          values[i] = fileValues.get(fileIndexOf[i]);
        }
      }
      next = new Row(readSchema, values);
    }
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row r = next;
    next = null;
    return r;
  }

  @Override
  public void close() {
    closePages();
  }

  /** Materializes each record as a row of the requested file columns. */
  private static final class RootConverter extends RecordMaterializer<Row> {
    private final ValueConverters.StructConverter struct;
    private Row current;

    RootConverter(StructType columns, MessageType requested, CalendarRebase calendar) {
      this.struct = new ValueConverters.StructConverter(columns, requested, "", calendar, v -> current = (Row) v);
    }

    @Override
    public Row getCurrentRecord() {
      return current;
    }

    @Override
    public GroupConverter getRootConverter() {
      return struct;
    }
  }
}
