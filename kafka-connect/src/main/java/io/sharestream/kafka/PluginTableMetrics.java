package io.sharestream.kafka;

import io.sharestream.common.profile.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's {@link TableMetrics} as the worker's own plugin metrics (KIP-877, Connect 4.1 and later), reported by
 * whatever metrics reporters the worker runs, tagged with the connector, the task and {@code table}. Older workers
 * have no plugin metrics: there the JMX beans alone report the tables.
 */
final class PluginTableMetrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PluginTableMetrics.class);

  private final PluginMetrics plugin;
  private final List<MetricName> names = new ArrayList<>();

  private PluginTableMetrics(PluginMetrics plugin, TableRef table, TableMetrics m) {
    this.plugin = plugin;
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    tags.put("table", table.toString());
    add("table-state", "STARTING, STREAMING, CAUGHT_UP or SET_ASIDE", tags, m::getState);
    add("table-set-aside-reason", "Why the table is set aside (empty while it is not)", tags, m::getSetAsideReason);
    add("table-current-version", "The version being read", tags, m::getCurrentVersion);
    add("table-latest-version", "The table's latest version as last reported", tags, m::getLatestKnownVersion);
    add("table-versions-behind", "Versions committed but not yet fully read", tags, m::getVersionsBehind);
    add("table-files-behind", "Files listed and not yet read (-1: not all listed yet)", tags, m::getFilesBehind);
    add("table-records-total", "Records handed to the worker", tags, m::getRecords);
    add("table-errors-total", "Failures that stopped the table's reading", tags, m::getErrors);
  }

  private void add(String name, String description, LinkedHashMap<String, String> tags, Supplier<Object> value) {
    MetricName n = plugin.metricName(name, description, tags);
    plugin.addMetric(n, (Gauge<Object>) (config, now) -> value.get());
    names.add(n);
  }

  /**
   * Registers {@code m} with the task's plugin metrics; null when the context has none. On a worker before Connect
   * 4.1 this fails with a {@link LinkageError} (no {@code pluginMetrics()}, or no {@code PluginMetrics} class).
   */
  static PluginTableMetrics register(SourceTaskContext context, TableRef table, TableMetrics m) {
    PluginMetrics plugin = context.pluginMetrics();
    return plugin == null ? null : new PluginTableMetrics(plugin, table, m);
  }

  @Override
  public void close() {
    for (MetricName n : names) {
      try {
        plugin.removeMetric(n);
      } catch (RuntimeException e) {
        LOG.debug("Removing plugin metric {}: {}", n.name(), e.toString());
      }
    }
  }
}
