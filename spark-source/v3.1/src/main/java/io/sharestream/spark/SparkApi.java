package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.v2.parquet.ParquetPartitionReaderFactory;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * What differs between Spark versions, for Spark 3.1: the Parquet reader factory's and file's constructors, a plain
 * micro-batch stream and catalog table stream (no {@code Trigger.AvailableNow}), and limit push-down by an optimizer rule (no DSv2 limit
 * push-down before 3.3).
 */
final class SparkApi {
  /** The prefix of Spark's Parquet calendar rebase confs on this line (later lines dropped "legacy"). */
  static final String PARQUET_CONFS = "spark.sql.legacy.parquet.";

  private SparkApi() {}

  static ParquetPartitionReaderFactory parquetReaders(SQLConf conf, Broadcast<SerializableConfiguration> hadoopConf,
      StructType dataSchema, StructType readSchema, StructType partitionSchema, Filter[] filters) {
    return new ParquetPartitionReaderFactory(conf, hadoopConf, dataSchema, readSchema, partitionSchema, filters);
  }

  /** The whole file at {@code path} ({@link SharingFileSystem}'s), with its constant columns. */
  static PartitionedFile file(InternalRow partitionValues, String path, long length) {
    return new PartitionedFile(partitionValues, path, 0, length, new String[0]);
  }

  static MicroBatchStream microBatchStream(ScanContext scan, String checkpointLocation) {
    return new SharingMicroBatchStream(scan, checkpointLocation);
  }

  static CatalogTableSource catalogTableSource(SQLContext sqlContext, StructType schema,
      SharingMicroBatchStream stream) {
    return new CatalogTableSource(sqlContext, schema, stream);
  }

  static ScanBuilder scanBuilder(DeltaSharingOptions options, ClientSpec client, TableMetadata metadata,
      StructType schema) {
    return new SharingScanBuilder(options, client, metadata, schema);
  }

  /** Readies the session for the source: the optimizer rule that passes a LIMIT to the scan. */
  static void prepare(SparkSession spark) {
    LimitHintRule.install(spark);
  }
}
