package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.paths.SparkPath;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.parquet.ParquetOptions;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import scala.Option;

/**
 * What differs between Spark versions, for Spark 3.4 and later (3.5, 4.x): the Parquet reader factory's and file's
 * constructors, a micro-batch stream (and a catalog table's DSv1 stream) that supports {@code Trigger.AvailableNow}
 * and reports its lag, and DSv2 limit push-down.
 */
final class SparkApi {
  /** The prefix of Spark's Parquet calendar rebase confs on this line (Spark 4 knows no other). */
  static final String PARQUET_CONFS = "spark.sql.parquet.";

  private SparkApi() {}

  static ParquetPartitionReaderFactory parquetReaders(SQLConf conf, Broadcast<SerializableConfiguration> hadoopConf,
      StructType dataSchema, StructType readSchema, StructType partitionSchema, Filter[] filters) {
    return new ParquetPartitionReaderFactory(conf, hadoopConf, dataSchema, readSchema, partitionSchema, filters,
        Option.empty(), new ParquetOptions(scala.collection.immutable.Map$.MODULE$.<String, String>empty(), conf));
  }

  /** The whole file at {@code path} ({@link SharingFileSystem}'s), with its constant columns. */
  static PartitionedFile file(InternalRow partitionValues, String path, long length) {
    return new PartitionedFile(partitionValues, SparkPath.fromPathString(path), 0, length, new String[0], 0L, length,
        scala.collection.immutable.Map$.MODULE$.<String, Object>empty());
  }

  static MicroBatchStream microBatchStream(ScanContext scan, String checkpointLocation) {
    return new AvailableNowStream(scan, checkpointLocation);
  }

  static CatalogTableSource catalogTableSource(SQLContext sqlContext, StructType schema,
      SharingMicroBatchStream stream) {
    return new AvailableNowCatalogTableSource(sqlContext, schema, (AvailableNowStream) stream);
  }

  static ScanBuilder scanBuilder(DeltaSharingOptions options, ClientSpec client, TableMetadata metadata,
      StructType schema) {
    return new LimitPushingScanBuilder(options, client, metadata, schema);
  }

  /** Nothing to ready: limits reach the scan through {@link LimitPushingScanBuilder}. */
  static void prepare(SparkSession spark) {
  }
}
