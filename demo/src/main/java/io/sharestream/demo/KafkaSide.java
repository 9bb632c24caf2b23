package io.sharestream.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The demo's Kafka side: a KRaft broker and a Connect worker in this process, the connector loaded from the plugin
 * directory the build made (as a real worker loads it) and deployed with a JSON config over the worker's REST API,
 * and a consumer counting what reaches the topic: rows by change type (header {@code _change_type}), tombstones
 * apart. The first record of each change type is printed whole.
 */
final class KafkaSide implements AutoCloseable {
  static final String CONNECTOR = "events";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final EmbeddedConnectCluster connect;
  private final Tally seen = new Tally();
  private final Set<String> printed = new HashSet<>();
  private final String mode;
  private final String topic;
  private volatile long tombstones;
  private volatile long version = -1;
  private Thread consumer;
  private KafkaConsumer<byte[], byte[]> kafka;

  private KafkaSide(EmbeddedConnectCluster connect, String mode, String topic) {
    this.connect = connect;
    this.mode = mode;
    this.topic = topic;
  }

  /** Starts the broker and worker, deploys the connector on {@code table} from version 0, starts consuming. */
  static KafkaSide start(Path pluginDir, Path profile, String table, String mode) throws Exception {
    Path pluginPath = pluginPath(pluginDir);
    Map<String, String> worker = new HashMap<>();
    worker.put("plugin.path", pluginPath.toString());
    worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("key.converter.schemas.enable", "false");
    worker.put("value.converter.schemas.enable", "false");
    worker.put("value.converter.decimal.format", "NUMERIC");
    worker.put("offset.flush.interval.ms", "1000");
    // the plugin and Kafka's converters declare themselves to ServiceLoader: no reflective scan of every jar
    worker.put("plugin.discovery", "service_load");
    EmbeddedConnectCluster connect = new EmbeddedConnectCluster.Builder().name("demo").numWorkers(1).numBrokers(1)
        .workerProps(worker).build();
    connect.start();
    Demo.say("kafka", "KRaft broker and Connect worker up; plugin.path=%s", pluginPath);
    KafkaSide side = new KafkaSide(connect, mode, "deltasharing." + table);
    try {
      side.deploy(profile, table);
      side.consume();
    } catch (Exception | Error e) {
      side.close();
      throw e;
    }
    return side;
  }

  private void deploy(Path profile, String table) throws Exception {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.sharestream.kafka.DeltaSharingSourceConnector");
    config.put("tasks.max", "1");
    config.put("profile.path", profile.toString());
    config.put("tables", table);
    config.put("startingVersion", "0");
    if (!mode.equals("default")) {
      config.put(mode, "true");
    }
    config.put("key.columns", table + ":event_id");
    config.put("topic.prefix", "deltasharing.");
    config.put("poll.interval.ms", "1000");
    config.put("poll.interval.max.ms", "1000"); // the demo shows each commit within a second
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    String body = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config);
    String url = connect.endpointForResource("connectors/" + CONNECTOR + "/config");
    Demo.say("kafka", "PUT %s%n%s", url, body);
    HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (put.statusCode() / 100 != 2) {
      throw new IllegalStateException("the worker refused the config (" + put.statusCode() + "): " + put.body());
    }
    connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(CONNECTOR, 1, "the connector did not start");
    Demo.say("kafka", "connector '%s' RUNNING with 1 task; consuming %s", CONNECTOR, topic);
  }

  private void consume() {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "demo");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    kafka = connect.kafka().createConsumerAndSubscribeTo(props, topic);
    consumer = new Thread(() -> {
      try {
        while (true) {
          for (ConsumerRecord<byte[], byte[]> r : kafka.poll(Duration.ofMillis(200))) {
            count(r);
          }
        }
      } catch (WakeupException closing) {
        // close() woke us
      } catch (IOException e) {
        Demo.say("kafka", "a record's value is not JSON: %s", e.getMessage());
      } finally {
        kafka.close();
      }
    }, "demo-consumer");
    consumer.setDaemon(true);
    consumer.start();
  }

  private void count(ConsumerRecord<byte[], byte[]> r) throws IOException {
    Header type = r.headers().lastHeader("_change_type");
    Header commit = r.headers().lastHeader("_commit_version");
    if (commit != null) {
      version = Math.max(version, Long.parseLong(new String(commit.value(), StandardCharsets.UTF_8)));
    }
    if (r.value() == null) {
      tombstones++;
      return;
    }
    String changeType = type == null ? "?" : new String(type.value(), StandardCharsets.UTF_8);
    seen.add(JSON.readTree(r.value()).path("event_id").asLong(), Demo.label(mode, changeType));
    if (printed.add(changeType)) {
      List<String> headers = new ArrayList<>();
      for (Header h : r.headers()) {
        headers.add(h.key() + "=" + new String(h.value(), StandardCharsets.UTF_8));
      }
      Demo.say("kafka", "first %s record: key=%s value=%s%n  headers: %s", changeType, text(r.key()),
          text(r.value()), String.join(", ", headers));
    }
  }

  Tally seen() {
    return seen;
  }

  long tombstones() {
    return tombstones;
  }

  /** The highest commit version among the records so far, -1 before any. */
  long version() {
    return version;
  }

  /** The connector's stored offsets, as the worker's REST API gives them. */
  String storedOffsets() throws Exception {
    URI uri = URI.create(connect.endpointForResource("connectors/" + CONNECTOR + "/offsets"));
    String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    JsonNode offsets = JSON.readTree(body).path("offsets");
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(offsets);
  }

  @Override
  public void close() {
    if (kafka != null) {
      kafka.wakeup();
      try {
        consumer.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    connect.stop();
  }

  private static String text(byte[] bytes) {
    return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
  }

  /** The directory holding the built plugin (the one with {@code manifest.json}), as {@code plugin.path}. */
  private static Path pluginPath(Path under) throws IOException {
    try (Stream<Path> found = Files.exists(under) ? Files.walk(under, 3) : Stream.empty()) {
      List<Path> manifests = found.filter(p -> p.getFileName().toString().equals("manifest.json")
          && Files.isDirectory(p.resolveSibling("lib"))).collect(Collectors.toList());
      if (manifests.isEmpty()) {
        throw new IllegalStateException("no connector plugin under " + under.toAbsolutePath()
            + ": build it first (./demo.sh does)");
      }
      return manifests.get(0).getParent().getParent();
    }
  }
}
