package io.sharestream.kafka;

import io.sharestream.common.profile.TableRef;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-table counters of a task, registered in JMX while the task runs. A name is held by the instance that registered
 * it last (a restarted task's): a stale instance's unregister leaves it alone.
 */
final class TableMetrics implements TableMetricsMBean {
  private static final Logger LOG = LoggerFactory.getLogger(TableMetrics.class);
  /** Which instance holds each registered name. */
  private static final Map<ObjectName, TableMetrics> HOLDERS = new HashMap<>();

  final AtomicLong currentVersion = new AtomicLong(-1);
  final AtomicLong latestKnownVersion = new AtomicLong(-1);
  final AtomicLong records = new AtomicLong();
  final AtomicLong filesRead = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong lastSuccessfulPollTime = new AtomicLong();
  final AtomicLong retries = new AtomicLong();
  final AtomicLong errors = new AtomicLong();
  private final ObjectName name;

  TableMetrics(String connector, String task, TableRef table) {
    ObjectName n = null;
    try {
      n = new ObjectName("io.sharestream.kafka:type=table-metrics,connector=" + ObjectName.quote(connector)
          + ",task=" + ObjectName.quote(task) + ",table=" + ObjectName.quote(table.toString()));
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      synchronized (HOLDERS) {
        if (server.isRegistered(n)) {
          server.unregisterMBean(n);
        }
        server.registerMBean(this, n);
        HOLDERS.put(n, this);
      }
    } catch (JMException e) {
      LOG.warn("Cannot register the metrics of {} in JMX: {}", table, e.toString());
    }
    this.name = n;
  }

  static ObjectName pattern(String connector) throws JMException {
    return new ObjectName("io.sharestream.kafka:type=table-metrics,connector=" + ObjectName.quote(connector) + ",*");
  }

  /** Unregisters this instance's name, unless another instance registered it since. */
  void unregister() {
    if (name == null) {
      return;
    }
    try {
      synchronized (HOLDERS) {
        if (HOLDERS.get(name) == this) {
          HOLDERS.remove(name);
          if (ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
          }
        }
      }
    } catch (JMException e) {
      LOG.debug("Cannot unregister {}: {}", name, e.toString());
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
}
