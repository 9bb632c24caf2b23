package io.sharestream.spark;

import org.apache.spark.sql.connector.read.streaming.SupportsTriggerAvailableNow;

/**
 * The stream under {@code Trigger.AvailableNow}: the table's version is fixed when the query is prepared, and
 * everything up to it is read in as many micro-batches as the read limits make; then the query stops.
 */
final class AvailableNowStream extends SharingMicroBatchStream implements SupportsTriggerAvailableNow {
  AvailableNowStream(ScanContext scan, String checkpointLocation) {
    super(scan, checkpointLocation);
  }

  @Override
  public void prepareForTriggerAvailableNow() {
    readUpToLatestVersionNow();
  }
}
