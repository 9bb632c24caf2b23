package io.sharestream.bench;

import io.sharestream.kafka.DeltaSharingSourceTask;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;

/**
 * Connect's own ceiling in {@link ConnectorBenchmark}: a source whose task hands the worker records the Delta Sharing
 * task already made (the first {@value #SAMPLE} of the table, identical schemas, values and headers) over and over,
 * so all that is measured is the worker's part: converting, sending, committing offsets. Configured like the Delta
 * Sharing connector, plus {@code replay.rows}.
 */
public final class ReplaySourceConnector extends SourceConnector {
  static final String ROWS = "replay.rows";
  static final int SAMPLE = 10_000;
  private Map<String, String> props;

  @Override
  public void start(Map<String, String> props) {
    this.props = props;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return Replay.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef();
  }

  @Override
  public String version() {
    return "bench";
  }

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> props) {
    return ExactlyOnceSupport.SUPPORTED;
  }

  /** Replays the sample in polls of its size until {@code replay.rows} records went out. */
  public static final class Replay extends SourceTask {
    private final List<SourceRecord> sample = new ArrayList<>();
    private long left;

    @Override
    public void start(Map<String, String> props) {
      left = Long.parseLong(props.get(ROWS));
      Map<String, String> config = new HashMap<>(props);
      DeltaSharingSourceTask source = new DeltaSharingSourceTask();
      source.initialize(new NoOffsetsContext(config));
      source.start(config);
      try {
        while (sample.size() < SAMPLE) {
          List<SourceRecord> batch = source.poll();
          if (batch != null) {
            sample.addAll(batch.subList(0, Math.min(batch.size(), SAMPLE - sample.size())));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        source.stop();
      }
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
      if (left <= 0) {
        Thread.sleep(100);
        return null;
      }
      List<SourceRecord> out = sample.subList(0, (int) Math.min(sample.size(), left));
      left -= out.size();
      return out;
    }

    @Override
    public void stop() {}

    @Override
    public String version() {
      return "bench";
    }
  }
}
