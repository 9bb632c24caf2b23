package io.sharestream.spark;

import io.sharestream.common.model.TableMetadata;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.types.StructType;

/**
 * The scan builder with DSv2 limit push-down: a {@code LIMIT n} over the scan becomes the server's
 * {@code limitHint}; the limit stays partially pushed, so Spark still applies it.
 */
final class LimitPushingScanBuilder extends SharingScanBuilder implements SupportsPushDownLimit {
  private Integer limit;

  LimitPushingScanBuilder(DeltaSharingOptions options, ClientSpec client, TableMetadata metadata, StructType schema) {
    super(options, client, metadata, schema);
  }

  @Override
  public boolean pushLimit(int n) {
    this.limit = n;
    return true;
  }

  @Override
  public Scan build() {
    SharingScan scan = (SharingScan) super.build();
    if (limit != null) {
      scan.limitHint(limit);
    }
    return scan;
  }
}
