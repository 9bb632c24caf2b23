package io.sharestream.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.apache.kafka.connect.util.clusters.WorkerHandle;

/**
 * A real in-process Kafka (KRaft) broker and distributed Connect workers for a test class: connectors are deployed
 * over the workers' REST API with JSON configs and records are read back with a real consumer, values decoded from
 * the workers' JSON converter.
 */
final class ConnectHarness implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  /** By name: the plugin tests load the connector from its plugin directory, not from this classpath. */
  static final String CONNECTOR_CLASS = "io.sharestream.kafka.DeltaSharingSourceConnector";

  final EmbeddedConnectCluster connect;

  /** One consumed record: key and value as JSON, headers as text, the record timestamp. */
  static final class Rec {
    final JsonNode key;
    final JsonNode value;
    final Map<String, String> headers;
    final long timestamp;

    Rec(JsonNode key, JsonNode value, Map<String, String> headers, long timestamp) {
      this.key = key;
      this.value = value;
      this.headers = headers;
      this.timestamp = timestamp;
    }

    long id() {
      return value.path("id").asLong();
    }

    /** "id:changeType@version/name", the form of the kit's ChangeMatrix. */
    String flow() {
      return value.path("id").asLong() + ":" + headers.get(RecordConverter.HEADER_CHANGE_TYPE) + "@"
          + headers.get(RecordConverter.HEADER_VERSION) + (value.path("name").isNull() ? ""
              : "/" + value.path("name").asText());
    }

    @Override
    public String toString() {
      return key + " " + value + " " + headers;
    }
  }

  /** One worker to start with (tests add more). */
  ConnectHarness(String name, boolean exactlyOnce) {
    Map<String, String> worker = new HashMap<>();
    worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("key.converter.schemas.enable", "false");
    worker.put("value.converter.schemas.enable", "false");
    worker.put("value.converter.decimal.format", "NUMERIC");
    worker.put("offset.flush.interval.ms", "500");
    // secrets from files, environment variables and directories, as production workers keep them
    worker.put("config.providers", "file,env,directory");
    worker.put("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
    worker.put("config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
    worker.put("config.providers.directory.class",
        "org.apache.kafka.common.config.provider.DirectoryConfigProvider");
    // the connector and Kafka's converters declare themselves to ServiceLoader: no reflective scan of the test
    // classpath at each worker start (PluginPackageIT keeps the default discovery, as users' workers have it)
    worker.put("plugin.discovery", "service_load");
    // the tasks of a worker that left go to the others after a second, not Connect's default 5 minutes
    worker.put("scheduled.rebalance.max.delay.ms", "1000");
    Properties broker = new Properties();
    if (exactlyOnce) {
      worker.put("exactly.once.source.support", "enabled");
      broker.put("transaction.state.log.replication.factor", "1");
      broker.put("transaction.state.log.min.isr", "1");
      // transactions past their timeout are aborted within half a second, not Kafka's 10 s
      broker.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500");
    }
    connect = new EmbeddedConnectCluster.Builder().name(name).numWorkers(1).numBrokers(1).workerProps(worker)
        .brokerProps(broker).build();
    connect.start();
  }

  /** A connector config for {@code tables} read with {@code profile}, fast polls, plus {@code extra} pairs. */
  static Map<String, String> config(String profile, String tables, String... extra) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("connector.class", CONNECTOR_CLASS);
    c.put("tasks.max", "1");
    c.put("profile.path", profile);
    c.put("tables", tables);
    c.put("poll.interval.ms", "200");
    c.put("poll.interval.max.ms", "200"); // no backoff: tests commit after quiet spells and wait for the records
    c.put("topic.creation.default.replication.factor", "1"); // Connect creates the topics (the broker does not)
    c.put("topic.creation.default.partitions", "1");
    for (int i = 0; i < extra.length; i += 2) {
      c.put(extra[i], extra[i + 1]);
    }
    return c;
  }

  /** PUTs the config and waits until the connector and its tasks run. */
  void deploy(String name, Map<String, String> config, int tasks) throws InterruptedException {
    connect.configureConnector(name, new HashMap<>(config));
    connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(name, tasks, "connector " + name + " did not start");
  }

  /**
   * Removes the worker running task {@code task} of {@code connector} (as {@code /status} says), while it streams;
   * the others take its work over.
   */
  void removeWorkerRunning(String connector, int task) {
    String workerId = connect.connectorStatus(connector).tasks().stream().filter(t -> t.id() == task).findFirst()
        .orElseThrow().workerId();
    WorkerHandle holder = connect.workers().stream()
        .filter(w -> workerId.endsWith(":" + w.url().getPort())).findFirst()
        .orElseThrow(() -> new AssertionError("no worker " + workerId + " among " + connect.workers()));
    connect.removeWorker(holder);
  }

  /** At least {@code n} records of {@code topic} (all that arrived by then), failing after {@code timeout}. */
  List<Rec> read(String topic, int n, Duration timeout) {
    return read(topic, n, timeout, false);
  }

  List<Rec> read(String topic, int n, Duration timeout, boolean readCommitted) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + System.nanoTime());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    if (readCommitted) {
      props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    }
    List<Rec> out = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    try (KafkaConsumer<byte[], byte[]> consumer = connect.kafka().createConsumerAndSubscribeTo(props, topic)) {
      while (out.size() < n) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("only " + out.size() + " of " + n + " records arrived in " + topic + " within "
              + timeout + ": " + (out.size() > 20 ? out.subList(0, 20) + "..." : out));
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          out.add(decode(r));
        }
      }
    }
    return out;
  }

  /** Every record of {@code topic} now (up to its end offsets). */
  List<Rec> readAll(String topic, boolean readCommitted) throws Exception {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + System.nanoTime());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
    List<Rec> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : connect.kafka().consumeAll(30_000, props, null, topic)) {
      out.add(decode(r));
    }
    return out;
  }

  long endOffset(String topic) throws Exception {
    return connect.kafka().endOffset(new TopicPartition(topic, 0));
  }

  private static Rec decode(ConsumerRecord<byte[], byte[]> r) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Header h : r.headers()) {
      headers.put(h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
    }
    return new Rec(json(r.key()), json(r.value()), headers, r.timestamp());
  }

  private static JsonNode json(byte[] b) {
    if (b == null) {
      return null;
    }
    try {
      return JSON.readTree(b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    connect.stop();
  }
}
