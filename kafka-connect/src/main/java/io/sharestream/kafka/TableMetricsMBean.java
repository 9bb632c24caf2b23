package io.sharestream.kafka;

/** JMX view of one table of a task: {@code io.sharestream.kafka:type=table-metrics,connector=..,task=..,table=..}. */
public interface TableMetricsMBean {
  /** The version the task is reading (its position's version); -1 before the first plan. */
  long getCurrentVersion();

  /** The table's latest version as last reported by the server. */
  long getLatestKnownVersion();

  /** Versions committed but not yet fully read. */
  long getVersionsBehind();

  long getRecords();

  long getFilesRead();

  long getBytesRead();

  /** Epoch millis of the last poll of this table that succeeded (0: none yet). */
  long getLastSuccessfulPollTime();

  /** Requests retried after a transient failure (429, 5xx, reset or cut answers). */
  long getRetries();

  /** Failures that stopped the table's reading. */
  long getErrors();

  /**
   * Records of a version read again from its start because an older release's stored offset lay inside it (which of
   * them went out before cannot be told): possible duplicates, at-least-once only.
   */
  long getPossibleDuplicates();

  /**
   * STREAMING; NOT_SHARED once the server no longer shares the table (404); UNREADABLE once it cannot be streamed
   * (history not shared, a view, an unsupported feature). The task goes on with its other tables.
   */
  String getState();
}
