package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
  /** The options the table was resolved with (keys as given), for a scan's options to be merged into. */
  private final Map<String, String> given;
  private final DeltaSharingOptions options;
  private final ClientSpec client;
  private final TableMetadata metadata;
  private final StructType schema;

  SharingTable(Map<String, String> given, DeltaSharingOptions options, ClientSpec client, TableMetadata metadata) {
    this.given = given;
    this.options = options;
    this.client = client;
    this.metadata = metadata;
    StructType s = SparkSchemas.of(metadata.schema());
    this.schema = options.readChangeFeed() ? SparkSchemas.withChangeColumns(s) : s;
  }

  /**
   * Whether a schema Spark passes with the table (one stored in the catalog) is this table's: the same, or, when this
   * read adds the change feed's columns (readChangeFeed given in the reader), the table's columns without them.
   */
  boolean accepts(StructType stored) {
    return stored == null || stored.isEmpty() || stored.equals(schema)
        || options.readChangeFeed() && stored.equals(SparkSchemas.of(metadata.schema()));
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
    return SparkApi.scanBuilder(withScanOptions(scanOptions), client, metadata, schema);
  }

  /**
   * The table's options with those of the scan: a reader's options on a table of Spark 4's session catalog come only
   * here (on other paths they are the table's already). They cannot change the columns the table has.
   */
  private DeltaSharingOptions withScanOptions(CaseInsensitiveStringMap scanOptions) {
    Map<String, String> table = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    table.putAll(given);
    Map<String, String> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    merged.putAll(table);
    merged.putAll(scanOptions.asCaseSensitiveMap());
    if (merged.equals(table)) {
      return options;
    }
    DeltaSharingOptions o = DeltaSharingOptions.parse(merged, DeltaSharingDataSource::readProfile, options.confs());
    if (o.readChangeFeed() != options.readChangeFeed()) {
      throw new IllegalArgumentException("readChangeFeed changes the columns of " + name() + ", which Spark has "
          + "taken from the table already: give it in the table's OPTIONS, or read with format(\"deltaSharing\")"
          + ".load(...).");
    }
    return o;
  }
}
