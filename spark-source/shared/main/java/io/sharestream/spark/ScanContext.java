package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.WorkUnit;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport$;
import org.apache.spark.sql.execution.datasources.parquet.ParquetReadSupport;
import org.apache.spark.sql.execution.datasources.parquet.ParquetWriteSupport;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The driver's side of a scan, shared by batch reads and streams: the table as it was resolved, the columns the
 * query reads and the filters Spark pushed, and how work units become Spark partitions and readers.
 */
final class ScanContext {
  /** Settings of Spark 3.5 and 4.x's Parquet readers, which they read from the Hadoop conf. */
  private static final List<String> LATER_READER_KEYS = Arrays.asList("spark.sql.legacy.parquet.nanosAsLong",
      "spark.sql.parquet.inferTimestampNTZ.enabled", "spark.sql.parquet.reader.respectUnknownTypeAnnotation.enabled");

  final DeltaSharingOptions options;
  final ClientSpec client;
  final TableMetadata metadata;
  final StructType output;
  final Filter[] dataFilters;
  private SharingReaderFactory factory;

  ScanContext(DeltaSharingOptions options, ClientSpec client, TableMetadata metadata, StructType output,
      Filter[] dataFilters) {
    this.options = options;
    this.client = client;
    this.metadata = metadata;
    this.output = output;
    this.dataFilters = dataFilters;
  }

  /** This scan, its requests those of a stream. */
  ScanContext forStreaming() {
    return new ScanContext(options, client.forStreaming(), metadata, output, dataFilters);
  }

  /** Units packed into partitions as Spark packs files. */
  InputPartition[] partitions(List<WorkUnit> units) {
    SparkSession spark = SparkSession.active();
    long maxBytes = spark.sessionState().conf().filesMaxPartitionBytes();
    int parallelism = spark.sparkContext().defaultParallelism();
    return SharingInputPartition.pack(units, maxBytes, parallelism).toArray(new InputPartition[0]);
  }

  /** The reader factory of the scan (built once: it broadcasts the Hadoop conf). */
  synchronized SharingReaderFactory readerFactory() {
    if (factory == null) {
      factory = newReaderFactory();
    }
    return factory;
  }

  private SharingReaderFactory newReaderFactory() {
    SparkSession spark = SparkSession.active();
    SQLConf conf = withNestedConversionsAsRows(withRebaseModes(spark.sessionState().conf()));
    return new SharingReaderFactory(client, options.table(), options.stream().filesPerRequest(), metadata.schema(),
        metadata.partitionColumns(), options.stream().read(), output, dataFilters, conf,
        readData -> broadcast(spark, conf, readData));
  }

  /** The session's SQL conf, with the source's rebase options (when given) in place of the session's. */
  private SQLConf withRebaseModes(SQLConf session) {
    if (options.datetimeRebaseMode() == null && options.int96RebaseMode() == null) {
      return session;
    }
    SQLConf c = session.clone();
    if (options.datetimeRebaseMode() != null) {
      c.setConfString(SparkApi.PARQUET_CONFS + "datetimeRebaseModeInRead", options.datetimeRebaseMode().name());
    }
    if (options.int96RebaseMode() != null) {
      c.setConfString(SparkApi.PARQUET_CONFS + "int96RebaseModeInRead", options.int96RebaseMode().name());
    }
    return c;
  }

  /**
   * {@code conf}, or when a nested column read had a type widened or holds a variant read as text, a copy reading
   * nested columns as rows (Spark 3.5+ reads them in batches; {@link WideningVector} and {@link VariantTextVector}
   * convert top-level columns only).
   */
  private SQLConf withNestedConversionsAsRows(SQLConf conf) {
    for (org.apache.spark.sql.types.StructField f : output.fields()) {
      io.sharestream.common.types.StructField column = Widening.field(metadata.schema(), f.name());
      if (!(f.dataType() instanceof org.apache.spark.sql.types.AtomicType) && (Widening.widened(column)
          || column != null && VariantText.asText() && VariantText.holdsVariant(column.type()))) {
        SQLConf c = conf.clone();
        c.setConfString("spark.sql.parquet.enableNestedColumnVectorizedReader", "false");
        return c;
      }
    }
    return conf;
  }

  /** The Hadoop conf Spark's Parquet reader takes its settings from, for reading {@code readData}. */
  private static Broadcast<SerializableConfiguration> broadcast(SparkSession spark, SQLConf conf, StructType readData) {
    Configuration hadoop = spark.sessionState().newHadoopConf();
    hadoop.set("fs." + FileRegistry.SCHEME + ".impl", SharingFileSystem.class.getName());
    hadoop.set("parquet.read.support.class", ParquetReadSupport.class.getName());
    hadoop.set(ParquetReadSupport$.MODULE$.SPARK_ROW_REQUESTED_SCHEMA(), readData.json());
    hadoop.set(ParquetWriteSupport.SPARK_ROW_SCHEMA(), readData.json());
    ParquetWriteSupport.setSchema(readData, hadoop);
    hadoop.set(SQLConf.SESSION_LOCAL_TIMEZONE().key(), conf.sessionLocalTimeZone());
    hadoop.setBoolean(SQLConf.NESTED_SCHEMA_PRUNING_ENABLED().key(), conf.nestedSchemaPruningEnabled());
    hadoop.setBoolean(SQLConf.CASE_SENSITIVE().key(), conf.caseSensitiveAnalysis());
    hadoop.setBoolean(SQLConf.PARQUET_BINARY_AS_STRING().key(), conf.isParquetBinaryAsString());
    hadoop.setBoolean(SQLConf.PARQUET_INT96_AS_TIMESTAMP().key(), conf.isParquetINT96AsTimestamp());
    // Parquet 1.14+ (Spark 4) reads a row group's chunks as "vectored" positioned reads, which a stream without
    // its own vectored reads serves 64 KiB at a time, each a new range request: read them in one sequential range
    hadoop.setBoolean("parquet.hadoop.vectored.io.enabled", false);
    // keys later Sparks' Parquet schema converter reads (each of them as Spark's own Parquet scan sets it)
    for (String key : LATER_READER_KEYS) {
      try {
        hadoop.set(key, conf.getConfString(key)); // the session's value, else the key's default
      } catch (java.util.NoSuchElementException notOfThisSpark) {
        // an older Spark, whose reader does not read it
      }
    }
    return JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(new SerializableConfiguration(hadoop));
  }
}
