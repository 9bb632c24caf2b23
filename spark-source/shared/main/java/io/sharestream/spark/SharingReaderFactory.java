package io.sharestream.spark;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.parquet.ReadSettings;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.parquet.hadoop.ParquetFileReader;
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
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataTypes;
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
 * change data file yields only its new row images ({@link FileLayout}: each kind of file's columns and rows). A file
 * written before a column's type was widened is read with its narrow type, widened as it is read.
 */
final class SharingReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 2L;
  /** Files prefetched ahead of the one being read: their footers, and their data ranges opened. */
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
  private final FileLayout constant;
  private final FileLayout changeData;
  private final FileLayout unfiltered;

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
    this.constant = new FileLayout(output, partitionColumns, tableSchema, fileData, false, filters, conf, hadoopConf);
    this.changeData = new FileLayout(output, partitionColumns, tableSchema, fileData, true, filters, conf, hadoopConf);
    this.unfiltered = filters.length == 0 ? constant
        : new FileLayout(output, partitionColumns, tableSchema, fileData, false, new Filter[0], conf, hadoopConf);
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

  /** Change data files read {@code _change_type}; files with deletion vectors are read without row-group pruning. */
  private FileLayout layout(WorkUnit u) {
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
        FileLayout::rows);
  }

  @Override
  public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
    return new FileLoop<>((SharingInputPartition) partition,
        (layout, file) -> layout.inner.buildColumnarReader(file), FileLayout::batches);
  }

  /** The constant columns of a file: its partition values, then its change type, version and commit time. */
  private InternalRow constants(FileLayout layout, WorkUnit unit, UnitRows selected) {
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
    PartitionReader<T> open(FileLayout layout, PartitionedFile file);
  }

  private interface Adapt<T> {
    PartitionReader<T> adapt(FileLayout layout, WorkUnit unit, UnitRows rows, PartitionReader<T> in);
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
    private PartitionReader<T> current; // the reader of file next - 1

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
        for (int ahead = next + 1; ahead < Math.min(units.size(), next + 1 + PREFETCH); ahead++) {
          inputs.get(ahead).prefetch(FOOTERS);
        }
        int i = next++;
        WorkUnit u = units.get(i);
        UnitRows selected = UnitRows.load(c, u, urls.get(i));
        String path = paths.get(i);
        if (selected.selection().selectsNothing()) {
          release(i);
          continue;
        }
        FileLayout layout = forFile(layout(u), u, inputs.get(i));
        InputFileBlockHolder.set(path, 0, u.file().size());
        PartitionedFile file = SparkApi.file(constants(layout, u, selected), path, u.file().size());
        current = adapt.adapt(layout, u, selected, outsideTask(() -> layout.open(() -> open.open(layout, file))));
      }
    }

    /**
     * {@code layout}, or where a column's type was widened, the layout for the types the file holds; its variants'
     * layout checked.
     */
    private FileLayout forFile(FileLayout layout, WorkUnit u, HttpInputFile input) throws IOException {
      if (!layout.readsFooter()) {
        return layout;
      }
      try (ParquetFileReader footer = ParquetFileReader.open(input)) { // the prefetched tail: no request
        return layout.forFile(footer.getFooter().getFileMetaData().getSchema(), u.describe());
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
          release(next - 1);
        }
      }
    }

    /** Drops file {@code i} from the registry and this loop, once. */
    private void release(int i) {
      if (keys.get(i) != null) {
        inputs.get(i).abandon(); // a range opened ahead and not read (the file had nothing to read, or the task ends)
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
