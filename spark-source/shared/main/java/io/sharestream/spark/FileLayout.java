package io.sharestream.spark;

import io.sharestream.common.deletionvectors.RowSelection;
import io.sharestream.common.planner.ChangeTypes;
import io.sharestream.common.planner.UnitRows;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.types.StructType;
import java.io.IOException;
import java.io.Serializable;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport$;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.internal.SQLConf$;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.util.SerializableConfiguration;

/**
 * How one kind of file is read: what Spark's reader reads from it (data columns, under their physical names; plus
 * {@code _change_type} from a change data file), the constant columns appended, and where each output column
 * comes from; then a file's rows or batches in the scan's column order, without the rows its deletion vectors mark.
 * Where a read column's type was widened, a file written before is read with its narrow types by a layout of its
 * own ({@link #forFile}), its values widened to the table's types ({@link Widening}, {@link WideningVector}).
 */
final class FileLayout implements Serializable {
  private static final long serialVersionUID = 1L;
  final ParquetPartitionReaderFactory inner;
  final org.apache.spark.sql.types.StructType partitionSchema;
  private final DataType[] innerTypes;
  /**
   * Per column Spark's reader reads: the type it has in the scan where the reader reads another (a narrower one, a
   * variant's stored struct for its JSON text), else null.
   */
  private final DataType[] wideTypes;
  /** Per data column read: its table type when its type (or a nested one) was widened, else null; null if none. */
  private final io.sharestream.common.types.DataType[] widened;
  /** Per data column read: the column (logical) when it is or holds a variant, else null; null if none. */
  private final io.sharestream.common.types.StructField[] variants;
  /** The session's time zone: variants read as text render their timestamps in it, as Spark 4 does. */
  private final ZoneId zone;
  /**
   * The scan's SQL conf settings (the source's rebase options applied), to rebuild it on an executor: a deserialized
   * SQLConf is empty, and Spark 3.1's reader takes its calendar rebase modes from {@code SQLConf.get} ({@link #open}).
   */
  private final HashMap<String, String> sqlConf;
  private transient SQLConf executorConf;
  private transient Map<org.apache.spark.sql.types.StructType, FileLayout> narrowLayouts;
  private final int[] toOutput;
  private final int changeTypeIndex;
  private final int changeTypeOutput;
  private final boolean identity;

  FileLayout(org.apache.spark.sql.types.StructType output, List<String> partitionColumns, StructType tableSchema,
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
    for (org.apache.spark.sql.types.StructField f : physicalRead.fields()) {
      types.add(f.dataType());
    }
    for (org.apache.spark.sql.types.StructField f : readData.fields()) {
      innerNames.add(f.name().toLowerCase(Locale.ROOT));
    }
    for (org.apache.spark.sql.types.StructField f : partitionSchema.fields()) {
      innerNames.add(f.name().toLowerCase(Locale.ROOT));
      types.add(f.dataType());
    }
    this.innerTypes = types.toArray(new DataType[0]);
    this.wideTypes = new DataType[innerTypes.length];
    io.sharestream.common.types.DataType[] widenedTypes =
        new io.sharestream.common.types.DataType[readData.size()];
    io.sharestream.common.types.StructField[] variantFields =
        new io.sharestream.common.types.StructField[readData.size()];
    boolean anyWidened = false;
    boolean anyVariant = false;
    for (int i = 0; i < readData.size(); i++) {
      io.sharestream.common.types.StructField f = Widening.field(tableSchema, readData.fields()[i].name());
      if (Widening.widened(f)) {
        widenedTypes[i] = f.type();
        anyWidened = true;
      }
      if (f != null && VariantText.holdsVariant(f.type())) {
        variantFields[i] = f;
        anyVariant = true;
        if (VariantText.asText()) {
          wideTypes[i] = readData.fields()[i].dataType();
        }
      }
    }
    this.widened = anyWidened ? widenedTypes : null;
    this.variants = anyVariant ? variantFields : null;
    this.zone = conf.sessionLocalTimeZone() == null ? ZoneOffset.UTC : ZoneId.of(conf.sessionLocalTimeZone());
    this.sqlConf = settings(conf);
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
    this.identity = same && (variants == null || !VariantText.asText());
    this.changeTypeIndex = changeData ? innerNames.indexOf(SparkSchemas.CHANGE_TYPE) : -1;
    this.changeTypeOutput = changeTypeOut;
  }

  /** A copy of {@code wide} reading {@code narrow}: a file's narrower types, Spark's reader built here (executor). */
  private FileLayout(FileLayout wide, org.apache.spark.sql.types.StructType narrow) {
    this.partitionSchema = wide.partitionSchema;
    this.toOutput = wide.toOutput;
    this.changeTypeIndex = wide.changeTypeIndex;
    this.changeTypeOutput = wide.changeTypeOutput;
    this.identity = false;
    this.widened = null;
    this.variants = null; // checked in the file already
    this.zone = wide.zone;
    this.sqlConf = wide.sqlConf;
    this.innerTypes = wide.innerTypes.clone();
    this.wideTypes = wide.wideTypes.clone();
    org.apache.spark.sql.types.StructType data = wide.inner.dataSchema();
    for (int i = 0; i < narrow.size(); i++) {
      org.apache.spark.sql.types.StructField f = narrow.fields()[i];
      if (!f.dataType().equals(innerTypes[i])) {
        wideTypes[i] = wideTypes[i] == null ? innerTypes[i] : wideTypes[i];
        innerTypes[i] = f.dataType();
        data = withType(data, f);
      }
    }
    Configuration c = new Configuration(wide.inner.broadcastedConf().value().value());
    c.set(ParquetReadSupport$.MODULE$.SPARK_ROW_REQUESTED_SCHEMA(), narrow.json());
    c.set(ParquetWriteSupport.SPARK_ROW_SCHEMA(), narrow.json());
    ParquetWriteSupport.setSchema(narrow, c);
    this.inner = SparkApi.parquetReaders(wide.conf(), new LocalBroadcast<>(new SerializableConfiguration(c)), data,
        narrow, partitionSchema, wide.inner.filters());
  }

  /** The scan's SQL conf, rebuilt here from its settings (once per JVM's copy of this layout). */
  private synchronized SQLConf conf() {
    if (executorConf == null) {
      SQLConf c = new SQLConf();
      sqlConf.forEach(c::setConfString);
      executorConf = c;
    }
    return executorConf;
  }

  /**
   * Opens a file's reader ({@code opening}) with the scan's SQL conf as {@code SQLConf.get}: Spark 3.1's reader reads
   * its rebase modes for dates and timestamps from there when it is built, which on an executor (and outside the
   * task, where readers are opened) is not the session's.
   */
  <T> T open(java.util.function.Supplier<T> opening) {
    return SQLConf$.MODULE$.withExistingConf(conf(), opening::get);
  }

  private static HashMap<String, String> settings(SQLConf conf) {
    HashMap<String, String> out = new HashMap<>();
    scala.collection.Iterator<scala.Tuple2<String, String>> all = conf.getAllConfs().iterator();
    while (all.hasNext()) {
      scala.Tuple2<String, String> e = all.next();
      out.put(e._1(), e._2());
    }
    return out;
  }

  private static org.apache.spark.sql.types.StructType withType(org.apache.spark.sql.types.StructType s,
      org.apache.spark.sql.types.StructField field) {
    org.apache.spark.sql.types.StructField[] fields = s.fields().clone();
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].name().equals(field.name())) {
        fields[i] = new org.apache.spark.sql.types.StructField(field.name(), field.dataType(), fields[i].nullable(),
            fields[i].metadata());
      }
    }
    return DataTypes.createStructType(fields);
  }

  /**
   * Whether a file's Parquet schema decides how it is read ({@link #forFile}): a read column's type was widened (the
   * file may hold a narrower one), or it holds a variant (whose layout is checked).
   */
  boolean readsFooter() {
    return widened != null || variants != null;
  }

  /**
   * The layout for a file whose Parquet schema is {@code footer}: this one, or where the file holds a widened
   * column with its type before the widening, one that reads it with that type and widens its values (one per
   * combination of narrow types, built once per reader factory). Fails on a file type the table's is no widening of,
   * and on a variant the file holds shredded or not as a variant's group.
   */
  FileLayout forFile(MessageType footer, String where) {
    org.apache.spark.sql.types.StructField[] read = inner.readDataSchema().fields().clone();
    for (int i = 0; variants != null && i < variants.length; i++) {
      Type written = variants[i] == null ? null : Widening.child(footer, read[i].name());
      if (written != null) {
        VariantText.checkFile(written, variants[i].type(), variants[i].name(), where);
      }
    }
    if (widened == null) {
      return this;
    }
    boolean narrower = false;
    for (int i = 0; i < widened.length; i++) {
      Type written = widened[i] == null ? null : Widening.child(footer, read[i].name());
      if (written != null) {
        DataType t = Widening.readType(written, read[i].dataType(), widened[i], read[i].name(), where);
        if (!t.equals(read[i].dataType())) {
          read[i] = new org.apache.spark.sql.types.StructField(read[i].name(), t, read[i].nullable(),
              read[i].metadata());
          narrower = true;
        }
      }
    }
    if (!narrower) {
      return this;
    }
    synchronized (this) {
      if (narrowLayouts == null) {
        narrowLayouts = new ConcurrentHashMap<>();
      }
    }
    return narrowLayouts.computeIfAbsent(DataTypes.createStructType(read), n -> new FileLayout(this, n));
  }

  /**
   * Rows of one file in output order: rows its deletion vectors leave out skipped (rows come in file order, so
   * their count is their index), per-row change types of a re-added file set; change data in default mode keeps only
   * new row images.
   */
  PartitionReader<InternalRow> rows(WorkUnit unit, UnitRows selected, PartitionReader<InternalRow> in) {
    boolean newImagesOnly = unit.newImagesOnly() && unit.source() == WorkUnit.RowSource.CHANGE_DATA;
    RowSelection selection = selected.selection();
    boolean perRow = selected.labelsPerRow() && changeTypeOutput >= 0;
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
          if (newImagesOnly && !ChangeTypes.isNewImage(r.isNullAt(changeTypeIndex) ? null
              : r.getUTF8String(changeTypeIndex).toString())) {
            continue;
          }
          current = identity && !perRow ? r : project(r, unit);
          if (perRow) {
            current.update(changeTypeOutput, UTF8String.fromString(selected.changeType(index, null)));
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

  private InternalRow project(InternalRow r, WorkUnit unit) {
    Object[] values = new Object[toOutput.length];
    for (int j = 0; j < values.length; j++) {
      int i = toOutput[j];
      if (r.isNullAt(i) || wideTypes[i] == null) {
        values[j] = r.isNullAt(i) ? null : r.get(i, innerTypes[i]);
      } else {
        String column = variants == null || variants[i] == null ? null : variants[i].name();
        values[j] = Widening.value(r.get(i, innerTypes[i]), innerTypes[i], wideTypes[i],
            stored -> VariantText.json(stored, zone, unit.describe(), column));
      }
    }
    return new GenericInternalRow(values);
  }

  /**
   * Batches of one file with their columns in output order; where a deletion vector leaves rows of a batch out,
   * its columns are views of the selected rows (no value copied), and a re-added file's rows get their own change
   * types.
   */
  PartitionReader<ColumnarBatch> batches(WorkUnit unit, UnitRows selected, PartitionReader<ColumnarBatch> in) {
    RowSelection selection = selected.selection();
    if (identity && selection.selectsAll()) {
      return in;
    }
    boolean perRow = selected.labelsPerRow() && changeTypeOutput >= 0;
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
          ColumnVector[] columns = new ColumnVector[toOutput.length];
          for (int j = 0; j < columns.length; j++) {
            ColumnVector c = b.column(toOutput[j]);
            int i = toOutput[j];
            if (wideTypes[i] instanceof org.apache.spark.sql.types.StringType) {
              c = new VariantTextVector(c, zone, unit.describe(), variants[i].name());
            } else if (wideTypes[i] != null) {
              c = new WideningVector(c, wideTypes[i]);
            }
            columns[j] = rows == null ? c : new SelectedRowsVector(c, rows, count);
          }
          if (perRow) {
            boolean[] deleted = new boolean[count];
            for (int i = 0; i < count; i++) {
              deleted[i] = ChangeTypes.DELETE.equals(selected.changeType(first + (rows == null ? i : rows[i]),
                  null));
            }
            columns[changeTypeOutput] = new ChangeTypeVector(deleted);
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
}
