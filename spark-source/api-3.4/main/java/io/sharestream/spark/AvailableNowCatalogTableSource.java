package io.sharestream.spark;

import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReportsSourceMetrics;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;
import org.apache.spark.sql.types.StructType;

/** A catalog table's DSv1 stream on Spark 3.4 and later: {@code Trigger.AvailableNow} and metrics as the stream's. */
final class AvailableNowCatalogTableSource extends CatalogTableSource implements SupportsTriggerAvailableNow,
    ReportsSourceMetrics {
  AvailableNowCatalogTableSource(SQLContext sqlContext, StructType schema, AvailableNowStream stream) {
    super(sqlContext, schema, stream);
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    ((AvailableNowStream) stream).prepareForTriggerAvailableNow();
  }

  @Override
  public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
    return ((AvailableNowStream) stream).metrics(latestConsumedOffset);
  }
}
