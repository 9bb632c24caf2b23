package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.types.ColumnMapping;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Builds a scan of the columns the query needs (column pruning) with its filters as predicate hints for the server.
 * Filters are hints only: every one is handed back to Spark to apply to the rows.
 */
class SharingScanBuilder implements ScanBuilder, SupportsPushDownRequiredColumns, SupportsPushDownFilters {
  private final DeltaSharingOptions options;
  private final ClientSpec client;
  private final TableMetadata metadata;
  private StructType output;
  private Filter[] pushed = new Filter[0];

  SharingScanBuilder(DeltaSharingOptions options, ClientSpec client, TableMetadata metadata, StructType schema) {
    this.options = options;
    this.client = client;
    this.metadata = metadata;
    this.output = schema;
  }

  @Override
  public void pruneColumns(StructType requiredSchema) {
    this.output = requiredSchema;
  }

  @Override
  public Filter[] pushFilters(Filter[] filters) {
    this.pushed = filters;
    return filters; // Spark still applies them all
  }

  @Override
  public Filter[] pushedFilters() {
    return pushed;
  }

  @Override
  public Scan build() {
    // Parquet row-group pruning takes filters on data columns only (not partition or change-feed columns), and
    // neither it nor the server's file skipping those on a widened column (files before hold the narrow type) or a
    // variant (its text is not what a file holds)
    List<Filter> data = new ArrayList<>();
    List<Filter> hinted = new ArrayList<>();
    for (Filter f : pushed) {
      boolean onData = true;
      boolean notPruning = false;
      for (String ref : f.references()) {
        onData &= metadata.partitionColumns().stream().noneMatch(ref::equalsIgnoreCase)
            && !SparkSchemas.isChangeColumn(ref) && metadata.schema().indexOf(ref) >= 0;
        notPruning |= Widening.columns(metadata.schema(), ref).stream()
            .anyMatch(c -> Widening.widened(c) || VariantText.holdsVariant(c.type()));
      }
      if (onData && !notPruning) {
        data.add(f);
      }
      if (!notPruning) {
        hinted.add(f);
      }
    }
    ScanContext ctx = new ScanContext(options, client, metadata, output, data.toArray(new Filter[0]));
    // hints name logical columns, which a server matches against stats keyed by physical names under column mapping
    boolean hints = options.confs().predicateHints() && !options.readChangeFeed()
        && !ColumnMapping.isMapped(metadata.schema());
    return new SharingScan(ctx, hints ? FilterHints.of(hinted.toArray(new Filter[0]),
        SparkSchemas.of(metadata.schema())) : null);
  }

}
