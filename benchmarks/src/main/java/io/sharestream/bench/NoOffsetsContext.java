package io.sharestream.bench;

import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/** A worker's context with nothing stored, for a task run outside a worker: it starts from its config. */
final class NoOffsetsContext implements SourceTaskContext {
  private final Map<String, String> config;

  NoOffsetsContext(Map<String, String> config) {
    this.config = config;
  }

  @Override
  public Map<String, String> configs() {
    return config;
  }

  @Override
  public PluginMetrics pluginMetrics() {
    return null; // the task publishes its own JMX metrics
  }

  @Override
  public OffsetStorageReader offsetStorageReader() {
    return new OffsetStorageReader() {
      @Override
      public <T> Map<String, Object> offset(Map<String, T> partition) {
        return null;
      }

      @Override
      public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
        return Map.of();
      }
    };
  }
}
