package io.sharestream.kafka;

/** JMX view of one table of a task: {@code io.sharestream.kafka:type=table-metrics,connector=..,task=..,table=..}. */
public interface TableMetricsMBean {
  /** The version the task is reading (its position's version); -1 before the first plan. */
  long getCurrentVersion();

  /** The table's latest version as last reported by the server. */
  long getLatestKnownVersion();

  /** Versions committed but not yet fully read. */
  long getVersionsBehind();

  /**
   * Files of the versions behind not yet read, as the server listed them; -1 while a version behind is not listed
   * yet (the task lists up to versions.per.request versions ahead).
   */
  long getFilesBehind();

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
   * STARTING (connecting), STREAMING (files to read), CAUGHT_UP (every version reported is read) or SET_ASIDE (the
   * task stopped reading it, {@link #getSetAsideReason()} says why, while its other tables go on).
   */
  String getState();

  /**
   * Why the table is set aside: NOT_SHARED (HTTP 404), ACCESS_DENIED (HTTP 403), UNREADABLE (history not shared, a
   * view, a feature this reader lacks), VERSION_UNAVAILABLE (where it starts is no longer served) or RECREATED (its
   * id changed); empty while it is not.
   */
  String getSetAsideReason();

  /** What happened to a set-aside table and what brings it back; empty while it is not set aside. */
  String getSetAsideMessage();
}
