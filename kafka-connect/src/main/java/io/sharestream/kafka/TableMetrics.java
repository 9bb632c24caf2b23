package io.sharestream.kafka;

import io.sharestream.common.profile.TableRef;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;

/**
 * Per-table counters of a task, registered in JMX while the task runs (a name held by the instance that registered it
 * last, see {@link MBeans}).
 */
final class TableMetrics implements TableMetricsMBean {
  /** {@link #getState()} of a table being streamed. */
  static final String STREAMING = "STREAMING";
  /** {@link #getState()} of a table the server no longer shares (HTTP 404). */
  static final String NOT_SHARED = "NOT_SHARED";
  /** {@link #getState()} of a table that cannot be streamed (no history shared, a view, an unsupported feature). */
  static final String UNREADABLE = "UNREADABLE";

  final AtomicLong currentVersion = new AtomicLong(-1);
  final AtomicLong latestKnownVersion = new AtomicLong(-1);
  final AtomicLong records = new AtomicLong();
  final AtomicLong filesRead = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong lastSuccessfulPollTime = new AtomicLong();
  final AtomicLong retries = new AtomicLong();
  final AtomicLong errors = new AtomicLong();
  final AtomicLong possibleDuplicates = new AtomicLong();
  volatile String state = STREAMING;
  private final ObjectName name;

  TableMetrics(String connector, String task, TableRef table) {
    this.name = MBeans.register("io.sharestream.kafka:type=table-metrics,connector=" + ObjectName.quote(connector)
        + ",task=" + ObjectName.quote(task) + ",table=" + ObjectName.quote(table.toString()), this);
  }

  /** Unregisters this instance's name, unless another instance registered it since. */
  void unregister() {
    MBeans.unregister(name, this);
  }

  @Override
  public long getCurrentVersion() {
    return currentVersion.get();
  }

  @Override
  public long getLatestKnownVersion() {
    return latestKnownVersion.get();
  }

  @Override
  public long getVersionsBehind() {
    long current = currentVersion.get();
    long latest = latestKnownVersion.get();
    return current < 0 || latest < 0 ? 0 : Math.max(0, latest - current + 1);
  }

  @Override
  public long getRecords() {
    return records.get();
  }

  @Override
  public long getFilesRead() {
    return filesRead.get();
  }

  @Override
  public long getBytesRead() {
    return bytesRead.get();
  }

  @Override
  public long getLastSuccessfulPollTime() {
    return lastSuccessfulPollTime.get();
  }

  @Override
  public long getRetries() {
    return retries.get();
  }

  @Override
  public long getErrors() {
    return errors.get();
  }

  @Override
  public long getPossibleDuplicates() {
    return possibleDuplicates.get();
  }

  @Override
  public String getState() {
    return state;
  }
}
