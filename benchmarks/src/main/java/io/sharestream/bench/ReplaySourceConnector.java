package io.sharestream.bench;

import io.sharestream.kafka.DeltaSharingSourceTask;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
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
 * Sharing connector, plus {@code replay.rows}; with {@code replay.topics} (a list, shared out over the tasks), each
 * task sends {@code replay.rows} records to each of its topics, {@value #TOPICS_AT_ONCE} topics at a time, a share of
 * each poll's records each, as the Delta Sharing task reads four tables' files at once.
 */
public final class ReplaySourceConnector extends SourceConnector {
  static final String ROWS = "replay.rows";
  static final String TOPICS = "replay.topics";
  private static final String TOPICS_ALL = "replay.topics.all";
  static final int SAMPLE = 10_000;
  /** Topics a task's poll writes at once: as many as the Delta Sharing task's open files. */
  static final int TOPICS_AT_ONCE = 4;
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
    if (!props.containsKey(TOPICS)) {
      return List.of(props);
    }
    List<String> topics = List.of(props.get(TOPICS).split(","));
    List<Map<String, String>> out = new ArrayList<>();
    for (int t = 0; t < Math.min(maxTasks, topics.size()); t++) {
      List<String> mine = new ArrayList<>();
      for (int i = t; i < topics.size(); i += maxTasks) {
        mine.add(topics.get(i));
      }
      Map<String, String> c = new HashMap<>(props);
      c.put(TOPICS, String.join(",", mine));
      c.put(TOPICS_ALL, Integer.toString(topics.size()));
      out.add(c);
    }
    return out;
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

  /**
   * Replays the sample until {@code replay.rows} records went out (with topics, to each in turn), holding at most the
   * Delta Sharing task's share of {@code records.in.flight.max} unacknowledged, as that task does.
   */
  public static final class Replay extends SourceTask {
    private final List<SourceRecord> sample = new ArrayList<>();
    private long rows;
    private long left;
    private List<String> topics;
    /** Records left for each topic (with topics). */
    private long[] leftOf;
    private int budget;
    private Semaphore room;

    @Override
    public void start(Map<String, String> props) {
      rows = Long.parseLong(props.get(ROWS));
      left = rows;
      topics = props.containsKey(TOPICS) ? List.of(props.get(TOPICS).split(",")) : null;
      if (topics != null) {
        leftOf = new long[topics.size()];
        java.util.Arrays.fill(leftOf, rows);
      }
      int all = props.get(TOPICS_ALL) == null ? 1 : Integer.parseInt(props.get(TOPICS_ALL));
      int tasks = Math.min(Integer.parseInt(props.getOrDefault("tasks.max", "1")), all);
      budget = Integer.parseInt(props.getOrDefault("records.in.flight.max", "5000")) / tasks;
      room = new Semaphore(budget);
      Map<String, String> config = new HashMap<>(props);
      DeltaSharingSourceTask source = new DeltaSharingSourceTask();
      source.initialize(new NoOffsetsContext(config));
      source.start(config);
      try {
        while (sample.size() < SAMPLE) {
          List<SourceRecord> batch = source.poll();
          if (batch != null) {
            sample.addAll(batch.subList(0, Math.min(batch.size(), SAMPLE - sample.size())));
            for (SourceRecord r : batch) {
              source.commitRecord(r, null); // as the worker acknowledges them: the task's bound on records in flight
            }
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
      List<Integer> open = new ArrayList<>(); // the topics this poll writes: the first ones with records left
      for (int i = 0; topics != null && i < topics.size() && open.size() < TOPICS_AT_ONCE; i++) {
        if (leftOf[i] > 0) {
          open.add(i);
        }
      }
      if (topics == null ? left <= 0 : open.isEmpty()) {
        Thread.sleep(100);
        return null;
      }
      int half = Math.max(1, budget / 2); // as RecordsInFlight: on once half the budget is free, else after 100 ms
      if (!room.tryAcquire(half, 100, TimeUnit.MILLISECONDS)) {
        return null;
      }
      int granted = half + room.drainPermits();
      if (topics == null) { // the sample itself, to the connector's own topic
        int n = (int) Math.min(Math.min(granted, sample.size()), left);
        left -= n;
        room.release(granted - n);
        return sample.subList(0, n);
      }
      List<SourceRecord> out = new ArrayList<>(granted);
      int share = Math.max(1, granted / open.size()); // as the task shares a poll among its open files
      for (int i : open) {
        int n = (int) Math.min(Math.min(Math.min(share, sample.size()), leftOf[i]), granted - out.size());
        for (SourceRecord r : sample.subList(0, n)) {
          out.add(r.newRecord(topics.get(i), r.kafkaPartition(), r.keySchema(), r.key(), r.valueSchema(), r.value(),
              r.timestamp(), r.headers()));
        }
        leftOf[i] -= n;
      }
      room.release(granted - out.size());
      return out;
    }

    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
      room.release();
    }

    @Override
    public void stop() {}

    @Override
    public String version() {
      return "bench";
    }
  }
}
