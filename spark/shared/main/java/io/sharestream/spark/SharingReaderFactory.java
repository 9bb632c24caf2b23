package io.sharestream.spark;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.deletionvectors.RowSelection;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.ChangeTypes;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitRows;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.PartitionValues;
import io.sharestream.common.types.StructType;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.TaskContext;
import org.apache.spark.TaskContext$;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.rdd.InputFileBlockHolder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.FilePartition;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Reads a partition's files with Spark's own Parquet readers (vectorized, or row-based for nested types) through
 * {@link SharingFileSystem}: each file opened in turn by this class (not by Spark's file loop, which would skip a
 * failing file under {@code spark.sql.files.ignoreCorruptFiles}), the next files' footers fetched ahead. Partition
 * values, and the change feed's version, commit time and (for added or removed files) change type, are constant
 * columns. Columns come out in the scan's order, under their logical names (column mapping: Spark reads the
 * physical ones); rows deletion vectors mark are left out of rows and vectorized batches alike; in default mode a
 * change data file yields only its new row images.
 */
final class SharingReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 2L;
  /** Footers fetched ahead of the file being read. */
  private static final int PREFETCH = 4;
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final ExecutorService FOOTERS = Executors.newFixedThreadPool(PREFETCH, r -> {
    Thread t = new Thread(r, "sharestream-spark-footers-" + THREADS.incrementAndGet());
    t.setDaemon(true);
    return t;
  });

  private final ClientSpec client;
  private final TableRef table;
  private final Integer filesPerRequest;
  private final StructType tableSchema;
  private final List<String> partitionColumns;
  private final ReadSettings read;
  private final Layout constant;
  private final Layout changeData;
  private final Layout unfiltered;

  /**
   * {@code output}: the scan's columns (table columns, then requested change-feed columns). Spark's reader reads
   * the files' physical columns (column mapping) with {@code dataFilters} pruning row groups, except in files with
   * deletion vectors, whose rows are counted from the first to the last to know which are deleted.
   */
  SharingReaderFactory(ClientSpec client, TableRef table, Integer filesPerRequest, StructType tableSchema,
      List<String> partitionColumns, ReadSettings read, org.apache.spark.sql.types.StructType output,
      Filter[] dataFilters, SQLConf conf, Function<org.apache.spark.sql.types.StructType,
      Broadcast<SerializableConfiguration>> hadoopConf) {
    this.client = client;
    this.table = table;
    this.filesPerRequest = filesPerRequest;
    this.tableSchema = tableSchema;
    this.partitionColumns = partitionColumns;
    this.read = read;
    org.apache.spark.sql.types.StructType fileData = SparkSchemas.of(tableSchema);
    for (String p : partitionColumns) {
      fileData = drop(fileData, p);
    }
    Filter[] filters = ColumnMapping.isMapped(tableSchema) ? new Filter[0] : dataFilters;
    this.constant = new Layout(output, partitionColumns, tableSchema, fileData, false, filters, conf, hadoopConf);
    this.changeData = new Layout(output, partitionColumns, tableSchema, fileData, true, filters, conf, hadoopConf);
    this.unfiltered = filters.length == 0 ? constant
        : new Layout(output, partitionColumns, tableSchema, fileData, false, new Filter[0], conf, hadoopConf);
  }

  private static org.apache.spark.sql.types.StructType drop(org.apache.spark.sql.types.StructType s, String name) {
    List<org.apache.spark.sql.types.StructField> kept = new ArrayList<>();
    for (org.apache.spark.sql.types.StructField f : s.fields()) {
      if (!f.name().equalsIgnoreCase(name)) {
        kept.add(f);
      }
    }
    return DataTypes.createStructType(kept);
  }

  /**
   * How one kind of file is read: what Spark's reader reads from it (data columns, under their physical names; plus
   * {@code _change_type} from a change data file), the constant columns appended, and where each output column
   * comes from.
   */
  private static final class Layout implements Serializable {
    private static final long serialVersionUID = 2L;
    final ParquetPartitionReaderFactory inner;
    final org.apache.spark.sql.types.StructType partitionSchema;
    final DataType[] innerTypes;
    final int[] toOutput;
    final int changeTypeIndex;
    final int changeTypeOutput;
    final boolean identity;

    Layout(org.apache.spark.sql.types.StructType output, List<String> partitionColumns, StructType tableSchema,
        org.apache.spark.sql.types.StructType fileData, boolean changeData, Filter[] filters, SQLConf conf,
        Function<org.apache.spark.sql.types.StructType, Broadcast<SerializableConfiguration>> hadoopConf) {
      List<org.apache.spark.sql.types.StructField> data = new ArrayList<>();
      List<org.apache.spark.sql.types.StructField> constants = new ArrayList<>();
      for (org.apache.spark.sql.types.StructField f : output.fields()) {
        boolean partition = partitionColumns.stream().anyMatch(f.name()::equalsIgnoreCase);
        boolean change = SparkSchemas.isChangeColumn(f.name());
        if (change && changeData && f.name().equals(SparkSchemas.CHANGE_TYPE)) {
          continue; // read from the file below
        }
        (partition || change ? constants : data).add(f);
      }
      org.apache.spark.sql.types.StructType dataSchema = SparkSchemas.physical(fileData, tableSchema);
      if (changeData) {
        data.add(DataTypes.createStructField(SparkSchemas.CHANGE_TYPE, DataTypes.StringType, true));
        dataSchema = dataSchema.add(SparkSchemas.CHANGE_TYPE, DataTypes.StringType, true);
      }
      org.apache.spark.sql.types.StructType readData = DataTypes.createStructType(data);
      // constants in output order, except partition columns first (as the partition values row holds them)
      List<org.apache.spark.sql.types.StructField> ordered = new ArrayList<>();
      constants.stream().filter(f -> !SparkSchemas.isChangeColumn(f.name())).forEach(ordered::add);
      constants.stream().filter(f -> SparkSchemas.isChangeColumn(f.name())).forEach(ordered::add);
      this.partitionSchema = DataTypes.createStructType(ordered);
      // Spark's reader takes the columns to read from the Hadoop conf: one conf per layout
      org.apache.spark.sql.types.StructType physicalRead = SparkSchemas.physical(readData, tableSchema);
      this.inner = SparkApi.parquetReaders(conf, hadoopConf.apply(physicalRead), dataSchema, physicalRead,
          partitionSchema, filters);
      List<String> innerNames = new ArrayList<>();
      List<DataType> types = new ArrayList<>();
      for (org.apache.spark.sql.types.StructField f : readData.fields()) {
        innerNames.add(f.name().toLowerCase(Locale.ROOT));
        types.add(f.dataType());
      }
      for (org.apache.spark.sql.types.StructField f : partitionSchema.fields()) {
        innerNames.add(f.name().toLowerCase(Locale.ROOT));
        types.add(f.dataType());
      }
      this.innerTypes = types.toArray(new DataType[0]);
      this.toOutput = new int[output.size()];
      boolean same = innerNames.size() == output.size();
      int changeTypeOut = -1;
      for (int j = 0; j < output.size(); j++) {
        toOutput[j] = innerNames.indexOf(output.fields()[j].name().toLowerCase(Locale.ROOT));
        same &= toOutput[j] == j;
        if (output.fields()[j].name().equals(SparkSchemas.CHANGE_TYPE)) {
          changeTypeOut = j;
        }
      }
      this.identity = same;
      this.changeTypeIndex = changeData ? innerNames.indexOf(SparkSchemas.CHANGE_TYPE) : -1;
      this.changeTypeOutput = changeTypeOut;
    }
  }

  /** Change data files read {@code _change_type}; files with deletion vectors are read without row-group pruning. */
  private Layout layout(WorkUnit u) {
    if (u.source() == WorkUnit.RowSource.CHANGE_DATA) {
      return changeData;
    }
    return u.hasDeletionVectors() ? unfiltered : constant;
  }

  @Override
  public boolean supportColumnarReads(InputPartition partition) {
    FilePartition any = new FilePartition(0, new PartitionedFile[0]);
    return !((SharingInputPartition) partition).rowsOnly() && constant.inner.supportColumnarReads(any)
        && changeData.inner.supportColumnarReads(any);
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    return new FileLoop<>((SharingInputPartition) partition, (layout, file) -> layout.inner.buildReader(file),
        this::rows);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new FileLoop<>((SharingInputPartition) partition,
        (layout, file) -> layout.inner.buildColumnarReader(file), this::batches);
  }

  /**
   * Rows of one file in output order: rows its deletion vectors leave out skipped (rows come in file order, so
   * their count is their index), per-row change types of a re-added file set; change data in default mode keeps only
   * new row images.
   */
  private PartitionReader<InternalRow> rows(Layout layout, WorkUnit unit, UnitRows selected,
      PartitionReader<InternalRow> in) {
    boolean newImagesOnly = unit.newImagesOnly() && unit.source() == WorkUnit.RowSource.CHANGE_DATA;
    RowSelection selection = selected.selection();
    boolean perRow = selected.labelsPerRow() && layout.changeTypeOutput >= 0;
    return new PartitionReader<InternalRow>() {
      private InternalRow current;
      private long index = -1;

      @Override
      public boolean next() throws IOException {
        while (in.next()) {
          index++;
          if (!selection.selectsAll() && !selection.selects(index)) {
            continue;
          }
          InternalRow r = in.get();
          if (newImagesOnly && !ChangeTypes.isNewImage(r.isNullAt(layout.changeTypeIndex) ? null
              : r.getUTF8String(layout.changeTypeIndex).toString())) {
            continue;
          }
          current = layout.identity && !perRow ? r : project(layout, r);
          if (perRow) {
            current.update(layout.changeTypeOutput, UTF8String.fromString(selected.changeType(index, null)));
          }
          return true;
        }
        return false;
      }

      @Override
      public InternalRow get() {
        return current;
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  private static InternalRow project(Layout layout, InternalRow r) {
    Object[] values = new Object[layout.toOutput.length];
    for (int j = 0; j < values.length; j++) {
      int i = layout.toOutput[j];
      values[j] = r.isNullAt(i) ? null : r.get(i, layout.innerTypes[i]);
    }
    return new GenericInternalRow(values);
  }

  /**
   * Batches of one file with their columns in output order; where a deletion vector leaves rows of a batch out,
   * its columns are views of the selected rows (no value copied), and a re-added file's rows get their own change
   * types.
   */
  private PartitionReader<ColumnarBatch> batches(Layout layout, WorkUnit unit, UnitRows selected,
      PartitionReader<ColumnarBatch> in) {
    RowSelection selection = selected.selection();
    if (layout.identity && selection.selectsAll()) {
      return in;
    }
    boolean perRow = selected.labelsPerRow() && layout.changeTypeOutput >= 0;
    return new PartitionReader<ColumnarBatch>() {
      private long base;
      private ColumnarBatch current;
      private int[] selectedRows = new int[0]; // reused: a batch is valid until the next call of next()

      @Override
      public boolean next() throws IOException {
        while (in.next()) {
          ColumnarBatch b = in.get();
          int n = b.numRows();
          long first = base;
          base += n;
          int[] rows = null;
          int count = n;
          if (!selection.selectsAll()) {
            if (selectedRows.length < n) {
              selectedRows = new int[n];
            }
            count = selection.selected(first, n, selectedRows);
            if (count == 0) {
              continue;
            }
            rows = count < n ? selectedRows : null;
          }
          ColumnVector[] columns = new ColumnVector[layout.toOutput.length];
          for (int j = 0; j < columns.length; j++) {
            ColumnVector c = b.column(layout.toOutput[j]);
            columns[j] = rows == null ? c : new SelectedRowsVector(c, rows, count);
          }
          if (perRow) {
            boolean[] deleted = new boolean[count];
            for (int i = 0; i < count; i++) {
              deleted[i] = ChangeTypes.DELETE.equals(selected.changeType(first + (rows == null ? i : rows[i]),
                  null));
            }
            columns[layout.changeTypeOutput] = new ChangeTypeVector(deleted);
          }
          current = new ColumnarBatch(columns, count);
          return true;
        }
        return false;
      }

      @Override
      public ColumnarBatch get() {
        return current;
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  /** The constant columns of a file: its partition values, then its change type, version and commit time. */
  private InternalRow constants(Layout layout, WorkUnit unit, UnitRows selected) {
    org.apache.spark.sql.types.StructField[] fields = layout.partitionSchema.fields();
    Object[] values = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      String name = fields[i].name();
      if (name.equals(SparkSchemas.CHANGE_TYPE)) {
        values[i] = UTF8String.fromString(selected.constantChangeType());
      } else if (name.equals(SparkSchemas.COMMIT_VERSION)) {
        values[i] = unit.version();
      } else if (name.equals(SparkSchemas.COMMIT_TIMESTAMP)) {
        values[i] = unit.commitTimestamp() * 1000L;
      } else {
        String column = partitionColumns.stream().filter(name::equalsIgnoreCase).findFirst().orElse(name);
        io.sharestream.common.types.StructField field = tableSchema.field(column);
        values[i] = SparkSchemas.catalyst(PartitionValues.decode(column, field.type(),
            ColumnMapping.partitionValue(field, unit.file().partitionValues()), read.partitionZone()));
      }
    }
    return new GenericInternalRow(values);
  }

  /** The key a unit's file is registered under: unique per table, kind, file and version. */
  private static String key(WorkUnit u) {
    return u.tableId() + "-" + u.file().kind().name().toLowerCase(Locale.ROOT) + "-" + u.file().id() + "-v"
        + u.version() + (u.isStartingVersion() ? "-s" : "");
  }

  private interface Open<T> {
    PartitionReader<T> open(Layout layout, PartitionedFile file);
  }

  private interface Adapt<T> {
    PartitionReader<T> adapt(Layout layout, WorkUnit unit, UnitRows rows, PartitionReader<T> in);
  }

  /**
   * Reads a partition's files one after another: each registered for the file system (all at once, so footers can
   * be fetched ahead), named for {@code input_file_name()}, released as soon as it is read (with its cached footer:
   * what a partition holds does not grow with its files). A file's deletion vectors are fetched just before it is
   * read; a file none of whose rows are selected is not opened.
   */
  private final class FileLoop<T> implements PartitionReader<T> {
    private final DeltaSharingClient c;
    private final List<WorkUnit> units;
    private final List<UnitUrls> urls = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private final List<String> paths = new ArrayList<>();
    private final List<HttpInputFile> inputs = new ArrayList<>();
    private final Open<T> open;
    private final Adapt<T> adapt;
    private int next;
    private PartitionReader<T> current;
    private int reading = -1;

    FileLoop(SharingInputPartition partition, Open<T> open, Adapt<T> adapt) {
      this.units = partition.units();
      this.open = open;
      this.adapt = adapt;
      this.c = client.client();
      FileLister lister = new FileLister(c, table, filesPerRequest);
      for (WorkUnit u : units) {
        String key = key(u);
        UnitUrls unitUrls = new UnitUrls(lister, u);
        HttpInputFile[] made = {null};
        paths.add(FileRegistry.register(key, () -> made[0] = UnitReader.input(c, u, unitUrls)));
        urls.add(unitUrls);
        keys.add(key);
        inputs.add(inputOf(key, made[0]));
      }
    }

    private HttpInputFile inputOf(String key, HttpInputFile made) {
      if (made != null) {
        return made;
      }
      try {
        return FileRegistry.input(key);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public boolean next() throws IOException {
      while (true) {
        if (current != null && current.next()) {
          return true;
        }
        closeCurrent();
        if (next == units.size()) {
          return false;
        }
        for (int i = next + 1; i < Math.min(units.size(), next + 1 + PREFETCH); i++) {
          inputs.get(i).prefetchFooter(FOOTERS);
        }
        reading = next++;
        WorkUnit u = units.get(reading);
        UnitRows selected = UnitRows.load(c, u, urls.get(reading));
        String path = paths.get(reading);
        if (selected.selection().selectsNothing()) {
          release(reading);
          continue;
        }
        Layout layout = layout(u);
        InputFileBlockHolder.set(path, 0, u.file().size());
        PartitionedFile file = SparkApi.file(constants(layout, u, selected), path, u.file().size());
        current = adapt.adapt(layout, u, selected, outsideTask(() -> open.open(layout, file)));
      }
    }

    /**
     * Opens a file's reader where Spark's reader factory cannot see the task: it would register each reader to be
     * closed when the task ends, keeping every finished file's reader (dictionaries, column readers) reachable until
     * then, which grew the heap by the files of a partition. This loop closes each reader itself.
     */
    private PartitionReader<T> outsideTask(Supplier<PartitionReader<T>> opening) {
      TaskContext task = TaskContext.get();
      if (task == null) {
        return opening.get();
      }
      TaskContext$.MODULE$.unset();
      try {
        return opening.get();
      } finally {
        TaskContext$.MODULE$.setTaskContext(task);
      }
    }

    @Override
    public T get() {
      return current.get();
    }

    private void closeCurrent() throws IOException {
      if (current != null) {
        try {
          current.close();
        } finally {
          current = null;
          release(reading);
        }
      }
    }

    /** Drops file {@code i} from the registry and this loop, once. */
    private void release(int i) {
      if (keys.get(i) != null) {
        FileRegistry.release(keys.get(i));
        keys.set(i, null);
        inputs.set(i, null);
        urls.set(i, null);
      }
    }

    @Override
    public void close() throws IOException {
      try {
        closeCurrent();
      } finally {
        InputFileBlockHolder.unset();
        for (int i = 0; i < keys.size(); i++) {
          release(i);
        }
      }
    }
  }
}
