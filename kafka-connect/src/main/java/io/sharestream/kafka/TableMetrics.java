package io.sharestream.kafka;

import io.sharestream.common.profile.TableRef;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-table counters and state of a task, registered in JMX while the task runs (a name held by the instance that
 * registered it last, see {@link MBeans}), and as the worker's plugin metrics where it has them
 * ({@link PluginTableMetrics}).
 */
final class TableMetrics implements TableMetricsMBean {
  private static final Logger LOG = LoggerFactory.getLogger(TableMetrics.class);

  /** Where a table stands in its task. */
  enum State {
    /** Connecting: version, metadata, where it starts, its first files. */
    STARTING,
    /** Files planned or being read. */
    STREAMING,
    /** Every version the server reported is read; the table asks for new ones every poll interval. */
    CAUGHT_UP,
    /** The task stopped reading it ({@link #getSetAsideReason()} says why) while its other tables go on. */
    SET_ASIDE
  }

  final AtomicLong currentVersion = new AtomicLong(-1);
  final AtomicLong latestKnownVersion = new AtomicLong(-1);
  /** Files listed and not yet read; -1 while versions behind are not listed yet. */
  final AtomicLong filesBehind = new AtomicLong(-1);
  final AtomicLong records = new AtomicLong();
  final AtomicLong filesRead = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong lastSuccessfulPollTime = new AtomicLong();
  final AtomicLong retries = new AtomicLong();
  final AtomicLong errors = new AtomicLong();
  final AtomicLong possibleDuplicates = new AtomicLong();
  volatile State state = State.STARTING;
  private volatile SetAsideReason setAsideReason;
  private volatile String setAsideMessage = "";
  private final ObjectName name;
  /** The same as the worker's plugin metrics, where it has them; else null. */
  private PluginTableMetrics plugin;

  TableMetrics(String connector, String task, TableRef table) {
    this.name = MBeans.register("io.sharestream.kafka:type=table-metrics,connector=" + ObjectName.quote(connector)
        + ",task=" + ObjectName.quote(task) + ",table=" + ObjectName.quote(table.toString()), this);
  }

  /**
   * Reports these metrics as the worker's plugin metrics too, where it has them (Connect 4.1 and later; older
   * workers lack the API, and the JMX beans alone report).
   */
  void reportAsPluginMetrics(SourceTaskContext context, TableRef table) {
    try {
      plugin = PluginTableMetrics.register(context, table, this);
    } catch (LinkageError olderWorker) {
      LOG.debug("The worker has no plugin metrics (Connect 4.1+): {}", olderWorker.toString());
    }
  }

  /** The table is set aside for {@code reason}; {@code message} says what happened and how to fix it. */
  void setAside(SetAsideReason reason, String message) {
    setAsideReason = reason;
    setAsideMessage = message;
    state = State.SET_ASIDE;
  }

  /** Unregisters this instance's name, unless another instance registered it since. */
  void unregister() {
    MBeans.unregister(name, this);
    if (plugin != null) {
      plugin.close();
      plugin = null;
    }
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
  public long getFilesBehind() {
    return filesBehind.get();
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
    return state.name();
  }

  @Override
  public String getSetAsideReason() {
    SetAsideReason r = setAsideReason;
    return r == null ? "" : r.name();
  }

  @Override
  public String getSetAsideMessage() {
    return setAsideMessage;
  }
}
