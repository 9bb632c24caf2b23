package io.sharestream.spark;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.ChangeTypes;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
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
 * columns. Columns come out in the scan's order; in default mode a change data file yields only its new row images.
 */
final class SharingReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;
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

  /** {@code output}: the scan's columns (table columns, then requested change-feed columns). */
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
    this.constant = new Layout(output, partitionColumns, fileData, false, dataFilters, conf, hadoopConf);
    this.changeData = new Layout(output, partitionColumns, fileData, true, dataFilters, conf, hadoopConf);
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
   * How one kind of file is read: what Spark's reader reads from it (data columns; plus {@code _change_type} from a
   * change data file), the constant columns appended, and where each output column comes from.
   */
  private static final class Layout implements Serializable {
    private static final long serialVersionUID = 1L;
    final ParquetPartitionReaderFactory inner;
    final org.apache.spark.sql.types.StructType partitionSchema;
    final DataType[] innerTypes;
    final int[] toOutput;
    final int changeTypeIndex;
    final boolean identity;

    Layout(org.apache.spark.sql.types.StructType output, List<String> partitionColumns,
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
      org.apache.spark.sql.types.StructType dataSchema = fileData;
      if (changeData) {
        data.add(DataTypes.createStructField(SparkSchemas.CHANGE_TYPE, DataTypes.StringType, true));
        dataSchema = fileData.add(SparkSchemas.CHANGE_TYPE, DataTypes.StringType, true);
      }
      org.apache.spark.sql.types.StructType readData = DataTypes.createStructType(data);
      // constants in output order, except partition columns first (as the partition values row holds them)
      List<org.apache.spark.sql.types.StructField> ordered = new ArrayList<>();
      constants.stream().filter(f -> !SparkSchemas.isChangeColumn(f.name())).forEach(ordered::add);
      constants.stream().filter(f -> SparkSchemas.isChangeColumn(f.name())).forEach(ordered::add);
      this.partitionSchema = DataTypes.createStructType(ordered);
      // Spark's reader takes the columns to read from the Hadoop conf: one conf per layout
      this.inner = new ParquetPartitionReaderFactory(conf, hadoopConf.apply(readData), dataSchema, readData,
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
      for (int j = 0; j < output.size(); j++) {
        toOutput[j] = innerNames.indexOf(output.fields()[j].name().toLowerCase(Locale.ROOT));
        same &= toOutput[j] == j;
      }
      this.identity = same;
      this.changeTypeIndex = changeData ? innerNames.indexOf(SparkSchemas.CHANGE_TYPE) : -1;
    }
  }

  private Layout layout(WorkUnit u) {
    return u.source() == WorkUnit.RowSource.CHANGE_DATA ? changeData : constant;
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

  /** Rows of one file in output order; change data in default mode keeps only new row images. */
  private PartitionReader<InternalRow> rows(Layout layout, WorkUnit unit, PartitionReader<InternalRow> in) {
    boolean newImagesOnly = unit.newImagesOnly();
    return new PartitionReader<InternalRow>() {
      private InternalRow current;

      @Override
      public boolean next() throws IOException {
        while (in.next()) {
          InternalRow r = in.get();
          if (newImagesOnly && !ChangeTypes.isNewImage(r.isNullAt(layout.changeTypeIndex) ? null
              : r.getUTF8String(layout.changeTypeIndex).toString())) {
            continue;
          }
          current = layout.identity ? r : project(layout, r);
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

  /** Batches of one file with their columns in output order. */
  private PartitionReader<ColumnarBatch> batches(Layout layout, WorkUnit unit, PartitionReader<ColumnarBatch> in) {
    if (layout.identity) {
      return in;
    }
    return new PartitionReader<ColumnarBatch>() {
      @Override
      public boolean next() throws IOException {
        return in.next();
      }

      @Override
      public ColumnarBatch get() {
        ColumnarBatch b = in.get();
        ColumnVector[] columns = new ColumnVector[layout.toOutput.length];
        for (int j = 0; j < columns.length; j++) {
          columns[j] = b.column(layout.toOutput[j]);
        }
        return new ColumnarBatch(columns, b.numRows());
      }

      @Override
      public void close() throws IOException {
        in.close();
      }
    };
  }

  /** The constant columns of a file: its partition values, then its change type, version and commit time. */
  private InternalRow constants(Layout layout, WorkUnit unit) {
    org.apache.spark.sql.types.StructField[] fields = layout.partitionSchema.fields();
    Object[] values = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      String name = fields[i].name();
      if (name.equals(SparkSchemas.CHANGE_TYPE)) {
        values[i] = UTF8String.fromString(unit.changeType(null));
      } else if (name.equals(SparkSchemas.COMMIT_VERSION)) {
        values[i] = unit.version();
      } else if (name.equals(SparkSchemas.COMMIT_TIMESTAMP)) {
        values[i] = unit.commitTimestamp() * 1000L;
      } else {
        String column = partitionColumns.stream().filter(name::equalsIgnoreCase).findFirst().orElse(name);
        values[i] = SparkSchemas.catalyst(PartitionValues.decode(column, tableSchema.field(column).type(),
            unit.file().partitionValues().get(column), read.partitionZone()));
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
    PartitionReader<T> adapt(Layout layout, WorkUnit unit, PartitionReader<T> in);
  }

  /**
   * Reads a partition's files one after another: each registered for the file system (all at once, so footers can
   * be fetched ahead), named for {@code input_file_name()}, released at close.
   */
  private final class FileLoop<T> implements PartitionReader<T> {
    private final List<WorkUnit> units;
    private final List<String> keys = new ArrayList<>();
    private final List<String> paths = new ArrayList<>();
    private final List<HttpInputFile> inputs = new ArrayList<>();
    private final Open<T> open;
    private final Adapt<T> adapt;
    private int next;
    private PartitionReader<T> current;

    FileLoop(SharingInputPartition partition, Open<T> open, Adapt<T> adapt) {
      this.units = partition.units();
      this.open = open;
      this.adapt = adapt;
      DeltaSharingClient c = client.client();
      FileLister lister = new FileLister(c, table, filesPerRequest);
      for (WorkUnit u : units) {
        String key = key(u);
        HttpInputFile[] made = {null};
        paths.add(FileRegistry.register(key, () -> made[0] = UnitReader.input(c, u,
            new UnitUrls(lister, u))));
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
        if (current != null) {
          current.close();
          current = null;
        }
        if (next == units.size()) {
          return false;
        }
        for (int i = next + 1; i < Math.min(units.size(), next + 1 + PREFETCH); i++) {
          inputs.get(i).prefetchFooter(FOOTERS);
        }
        WorkUnit u = units.get(next);
        Layout layout = layout(u);
        String path = paths.get(next++);
        InputFileBlockHolder.set(path, 0, u.file().size());
        PartitionedFile file = new PartitionedFile(constants(layout, u), path, 0, u.file().size(), new String[0]);
        current = adapt.adapt(layout, u, open.open(layout, file));
      }
    }

    @Override
    public T get() {
      return current.get();
    }

    @Override
    public void close() throws IOException {
      try {
        if (current != null) {
          current.close();
        }
      } finally {
        InputFileBlockHolder.unset();
        keys.forEach(FileRegistry::release);
      }
    }
  }
}
