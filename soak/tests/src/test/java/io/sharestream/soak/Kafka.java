package io.sharestream.soak;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.util.clusters.EmbeddedKafkaCluster;

/** The in-process KRaft broker the workers of the soak use, and the records read back from it. */
final class Kafka implements AutoCloseable {
  final EmbeddedKafkaCluster cluster;
  /** Where each event without its version arrived (topic offset, commit version): what a duplicate is traced by. */
  final Map<String, List<String>> seenAt = new HashMap<>();

  Kafka() {
    this(new Properties());
  }

  /** A broker with {@code extra} broker settings. */
  Kafka(Properties extra) {
    Properties broker = new Properties();
    broker.put("transaction.state.log.replication.factor", "1");
    broker.put("transaction.state.log.min.isr", "1");
    broker.putAll(extra);
    cluster = new EmbeddedKafkaCluster(1, broker);
    cluster.start();
  }

  String bootstrap() {
    return cluster.bootstrapServers();
  }

  /** A connector config for {@code table} read with {@code profile} into topic {@code soak.<table>}. */
  static Map<String, String> connector(String profile, String table, String... extra) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("connector.class", ConnectWorker.CONNECTOR_CLASS);
    c.put("tasks.max", "1");
    c.put("profile.path", profile);
    c.put("tables", table);
    c.put("topic.prefix", "soak.");
    c.put("poll.interval.ms", "250");
    c.put("poll.interval.max.ms", "250"); // no idle backoff: the soak times how soon commits arrive
    c.put("topic.creation.default.replication.factor", "1");
    c.put("topic.creation.default.partitions", "1");
    for (int i = 0; i < extra.length; i += 2) {
      c.put(extra[i], extra[i + 1]);
    }
    return c;
  }

  /**
   * Every record of {@code topic} now, read committed, each written as its table's events are: {@code
   * version/id/changeType/v}, or {@code id/v} when {@code withChanges} is false.
   */
  List<String> events(String topic, boolean withChanges) throws Exception {
    Map<String, Object> consumer = new HashMap<>();
    consumer.put(ConsumerConfig.GROUP_ID_CONFIG, "soak-check-" + System.nanoTime());
    consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<String> out = new ArrayList<>();
    seenAt.clear();
    if (cluster.describeTopics(topic).get(topic).isEmpty()) {
      return out;
    }
    for (ConsumerRecord<byte[], byte[]> r : cluster.consumeAll(60_000, consumer, null, topic)) {
      JsonNode value = ConnectWorker.JSON.readTree(r.value());
      long id = value.path("id").asLong();
      long v = value.path("v").asLong();
      if (withChanges) {
        out.add(SoakTable.event(Long.parseLong(header(r, "_commit_version")), id, header(r, "_change_type"), v));
      } else {
        String e = SoakTable.event(-1, id, null, v);
        out.add(e);
        seenAt.computeIfAbsent(e, k -> new ArrayList<>()).add("offset " + r.offset() + " of version "
            + header(r, "_commit_version"));
      }
    }
    return out;
  }

  /** The {@code id} field of every record committed to {@code topic} so far (read committed), in order. */
  List<Long> committedIds(String topic) throws Exception {
    List<Long> ids = new ArrayList<>();
    if (cluster.describeTopics(topic).get(topic).isEmpty()) {
      return ids;
    }
    Map<String, Object> consumer = Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.GROUP_ID_CONFIG, "check-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
        "earliest");
    for (ConsumerRecord<byte[], byte[]> r : cluster.consumeAll(60_000, consumer, null, topic)) {
      ids.add(ConnectWorker.JSON.readTree(r.value()).path("id").asLong());
    }
    return ids;
  }

  /**
   * How many records of {@code topic} only a read-uncommitted consumer sees: those of aborted transactions (the
   * transactions open when a worker was killed). Shows that the read-committed check above had some to leave out.
   */
  long abortedRecords(String topic) throws Exception {
    return count(topic, "read_uncommitted") - count(topic, "read_committed");
  }

  private long count(String topic, String isolation) throws Exception {
    Map<String, Object> consumer = Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    return cluster.consumeAll(60_000, consumer, null, topic).count();
  }

  private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
    Header h = r.headers().lastHeader(key);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    cluster.stop();
  }
}
