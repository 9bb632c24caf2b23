package io.sharestream.kafka;

/**
 * JMX view of a connector's table discovery ({@code io.sharestream.kafka:type=table-discovery,connector=..}), on
 * the worker running the connector, while the selection has shares, schemas or include regexes.
 */
public interface TableDiscoveryMBean {
  /** Tables the selection holds now (-1 before the first listing). */
  int getSelectedTables();

  /** Tables that appeared in the selection since the connector started (not counting the first listing). */
  long getTablesAdded();

  /** Tables that went away from the selection since the connector started. */
  long getTablesRemoved();

  /** Listings that failed (after the HTTP retries); the selection stays as it was. */
  long getFailedListings();

  /** Epoch millis of the last listing that succeeded (0: none yet). */
  long getLastListingTime();
}
