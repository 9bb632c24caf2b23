package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A shared table as Spark sees it: its schema (with the change feed's columns when readChangeFeed is on), its
 * partition columns, batch and micro-batch reads.
 */
final class SharingTable implements SupportsRead {
  private final DeltaSharingOptions options;
  private final ClientSpec client;
  private final TableMetadata metadata;
  private final StructType schema;

  SharingTable(DeltaSharingOptions options, ClientSpec client, TableMetadata metadata) {
    this.options = options;
    this.client = client;
    this.metadata = metadata;
    StructType s = SparkSchemas.of(metadata.schema());
    this.schema = options.readChangeFeed() ? SparkSchemas.withChangeColumns(s) : s;
  }

  @Override
  public String name() {
    return options.table().toString();
  }

  @Override
  public StructType schema() {
    return schema;
  }

  @Override
  public Transform[] partitioning() {
    return metadata.partitionColumns().stream().map(Expressions::identity).toArray(Transform[]::new);
  }

  @Override
  public Set<TableCapability> capabilities() {
    return EnumSet.of(TableCapability.BATCH_READ, TableCapability.MICRO_BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
    return SparkApi.scanBuilder(options, client, metadata, schema);
  }
}
