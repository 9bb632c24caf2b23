package io.sharestream.spark;

import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReportsSourceMetrics;
import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;

/**
 * The stream on Spark 3.4 and later: under {@code Trigger.AvailableNow} the table's version is fixed when the query is
 * prepared, and everything up to it is read in as many micro-batches as the read limits make, then the query stops;
 * each batch's progress carries how far behind the table the stream is ({@code sources[].metrics}: {@link #lag}).
 */
final class AvailableNowStream extends SharingMicroBatchStream implements SupportsTriggerAvailableNow,
    ReportsSourceMetrics {
  AvailableNowStream(ScanContext scan, String checkpointLocation) {
    super(scan, checkpointLocation);
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    readUpToLatestVersionNow();
  }

  @Override
  public Map<String, String> metrics(Optional<Offset> latestConsumedOffset) {
    return lag(latestConsumedOffset.orElse(null));
  }

  @Override
  boolean reportsMetrics() {
    return true;
  }
}
