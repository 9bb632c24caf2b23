package io.sharestream.spark;

import java.lang.reflect.InvocationTargetException;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;
import org.apache.spark.sql.execution.streaming.Offset;
import org.apache.spark.sql.execution.streaming.Source;
import org.apache.spark.sql.types.StructType;
import scala.Option;

/**
 * A stream of a catalog table as Spark's DSv1 sees it: the {@link SharingMicroBatchStream} a DSv2 read would use
 * (the same offsets, admission control, first offset kept under the checkpoint), each batch's partitions read as rows.
 * On Spark 3.4+ {@code SparkApi} gives one that reports metrics and supports {@code Trigger.AvailableNow} as the
 * stream does.
 */
class CatalogTableSource implements Source, SupportsAdmissionControl {
  private final SQLContext sqlContext;
  private final StructType schema;
  final SharingMicroBatchStream stream;

  CatalogTableSource(SQLContext sqlContext, StructType schema, SharingMicroBatchStream stream) {
    this.sqlContext = sqlContext;
    this.schema = schema;
    this.stream = stream;
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public SharingOffset initialOffset() {
    return (SharingOffset) stream.initialOffset();
  }

  @Override
  public SharingOffset deserializeOffset(String json) {
    return (SharingOffset) stream.deserializeOffset(json);
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    return stream.getDefaultReadLimit();
  }

  /** Spark passes no start before the first batch, then an offset of this source's, or one read back from the log. */
  @Override
  public SharingOffset latestOffset(org.apache.spark.sql.connector.read.streaming.Offset start, ReadLimit limit) {
    return (SharingOffset) stream.latestOffset(start == null ? initialOffset() : deserializeOffset(start.json()),
        limit);
  }

  @Override
  public Option<Offset> getOffset() {
    throw new UnsupportedOperationException("latestOffset(Offset, ReadLimit) is used: the stream admits files "
        + "under a read limit");
  }

  @Override
  public Dataset<Row> getBatch(Option<Offset> start, Offset end) {
    SharingOffset from = start.isDefined() ? deserializeOffset(start.get().json()) : initialOffset();
    return streaming(CatalogTableRelation.rows(sqlContext, stream.planInputPartitions(from,
        deserializeOffset(end.json())), stream.createReaderFactory()));
  }

  /**
   * A streaming DataFrame of {@code rows}, as a DSv1 source's batch must be: by Spark's internalCreateDataFrame, of
   * the session (Spark 3) or of its classic implementation (Spark 4), hence found by reflection.
   */
  @SuppressWarnings("unchecked")
  private Dataset<Row> streaming(RDD<InternalRow> rows) {
    SparkSession spark = sqlContext.sparkSession();
    try {
      return (Dataset<Row>) spark.getClass().getMethod("internalCreateDataFrame", RDD.class, StructType.class,
          boolean.class).invoke(spark, rows, schema, true);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
          : new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("This Spark cannot make a streaming DataFrame of rows", e);
    }
  }

  @Override
  public void commit(Offset end) {
    stream.commit(deserializeOffset(end.json()));
  }

  @Override
  public void commit(org.apache.spark.sql.connector.read.streaming.Offset end) {
    commit((Offset) deserializeOffset(end.json()));
  }

  @Override
  public void stop() {
    stream.stop();
  }

  @Override
  public String toString() {
    return stream.toString();
  }
}
