package io.sharestream.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.IOException;
import java.math.BigDecimal;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The connector end to end in one process, with nothing mocked: a Delta table on disk, the test kit's Delta Sharing
 * server over it, a Kafka broker and a Connect worker that loads the connector from the plugin directory
 * {@code mvn package} built (as a real worker would), the connector deployed with a JSON config over the worker's
 * REST API, and a consumer printing what arrives while the table gets new commits: appends, an update and a delete.
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl demo -am
 * java -cp demo/target/classes:$(cat demo/target/classpath.txt) io.sharestream.demo.KafkaDemo
 * </pre>
 * An argument overrides where the plugin is looked for (default: {@code kafka-connect/target/}).
 */
public final class KafkaDemo {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DeltaType.StructType ORDERS = DeltaType.struct(
      DeltaType.field("order_id", DeltaType.LONG, false), DeltaType.field("customer", DeltaType.STRING),
      DeltaType.field("amount", DeltaType.decimal(10, 2)), DeltaType.field("status", DeltaType.STRING));
  private static final Duration WAIT = Duration.ofSeconds(60);

  private KafkaDemo() {}

  public static void main(String[] args) throws Exception {
    Path pluginPath = pluginPath(Path.of(args.length > 0 ? args[0] : "kafka-connect/target"));
    Path dir = Files.createTempDirectory("sharestream-demo");
    DeltaTableWriter orders = DeltaTableWriter.create(dir.resolve("orders"), ORDERS).changeDataFeed(true).commit();
    orders.append(List.of(order(1, "ada", "19.90", "new"), order(2, "grace", "5.00", "new")));
    say("Delta table demo.sales.orders at %s: version %d, 2 orders", orders.dir(), orders.version());

    try (DeltaSharingServer server = DeltaSharingServer.builder().table("demo", "sales", "orders", orders.dir(), true)
        .start()) {
      Path profile = server.writeProfile(dir.resolve("demo.share"));
      say("Delta Sharing server up; the recipient's profile: %s", profile);

      Map<String, String> worker = new HashMap<>();
      worker.put("plugin.path", pluginPath.toString());
      worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
      worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
      worker.put("key.converter.schemas.enable", "false");
      worker.put("value.converter.schemas.enable", "false");
      worker.put("value.converter.decimal.format", "NUMERIC");
      worker.put("offset.flush.interval.ms", "1000");
      EmbeddedConnectCluster connect = new EmbeddedConnectCluster.Builder().name("demo").numWorkers(1).numBrokers(1)
          .workerProps(worker).build();
      connect.start();
      try {
        say("Kafka broker and Connect worker up; plugin.path=%s", pluginPath);
        run(connect, profile, orders);
      } finally {
        connect.stop();
      }
    }
    say("done");
    System.exit(0); // the embedded cluster leaves non-daemon threads behind
  }

  private static void run(EmbeddedConnectCluster connect, Path profile, DeltaTableWriter orders) throws Exception {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", "io.sharestream.kafka.DeltaSharingSourceConnector");
    config.put("tasks.max", "1");
    config.put("profile.path", profile.toString());
    config.put("tables", "demo.sales.orders");
    config.put("startingVersion", "snapshot");
    config.put("readChangeFeed", "true");
    config.put("key.columns", "demo.sales.orders:order_id");
    config.put("topic.prefix", "deltasharing.");
    config.put("poll.interval.ms", "1000");
    config.put("topic.creation.default.replication.factor", "1");
    config.put("topic.creation.default.partitions", "1");
    String body = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config);
    String url = connect.endpointForResource("connectors/orders/config");
    say("PUT %s%n%s", url, body);
    HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (put.statusCode() / 100 != 2) {
      throw new IllegalStateException("the worker refused the config (" + put.statusCode() + "): " + put.body());
    }
    connect.assertions().assertConnectorAndExactlyNumTasksAreRunning("orders", 1, "the connector did not start");
    say("connector 'orders' RUNNING with 1 task; consuming deltasharing.demo.sales.orders");

    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "demo");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (KafkaConsumer<byte[], byte[]> consumer = connect.kafka().createConsumerAndSubscribeTo(props,
        "deltasharing.demo.sales.orders")) {
      await(consumer, 2, "the snapshot: every order as an insert");

      orders.append(List.of(order(3, "linus", "42.00", "new")));
      await(consumer, 1, "commit " + orders.version() + ": a new order");

      orders.updateWhere(r -> (long) r.get("order_id") == 2, r -> with(r, "status", "shipped"));
      await(consumer, 2, "commit " + orders.version() + ": order 2 shipped (UPDATE: pre- and post-image)");

      orders.deleteWhere(r -> (long) r.get("order_id") == 1);
      await(consumer, 2, "commit " + orders.version() + ": order 1 deleted (a delete, then a tombstone for its key)");
    }
    String offsets = storedOffsets(connect, orders.version() + 1);
    say("GET /connectors/orders/offsets: where a restart resumes (every version up to %d read)%n%s",
        orders.version(), offsets);
  }

  /** The connector's stored offsets once they reach {@code tableVersion} (the worker flushes them every second). */
  private static String storedOffsets(EmbeddedConnectCluster connect, long tableVersion) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    URI uri = URI.create(connect.endpointForResource("connectors/orders/offsets"));
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      String body = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
      JsonNode offsets = JSON.readTree(body).path("offsets");
      if (offsets.size() > 0 && offsets.get(0).path("offset").path("tableVersion").asLong() >= tableVersion) {
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(offsets);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the stored offsets did not reach version " + tableVersion + ": " + body);
      }
      Thread.sleep(200);
    }
  }

  /** Prints the next {@code n} records, with their keys and headers. */
  private static void await(KafkaConsumer<byte[], byte[]> consumer, int n, String what) {
    say("%s", what);
    long deadline = System.nanoTime() + WAIT.toNanos();
    int seen = 0;
    while (seen < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("only " + seen + " of " + n + " records arrived within " + WAIT);
      }
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        seen++;
        List<String> headers = new ArrayList<>();
        for (Header h : r.headers()) {
          headers.add(h.key() + "=" + new String(h.value(), StandardCharsets.UTF_8));
        }
        System.out.printf("    key=%s value=%s%n      headers: %s%n", text(r.key()), text(r.value()),
            String.join(", ", headers));
      }
    }
  }

  private static String text(byte[] bytes) {
    return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
  }

  private static Map<String, Object> order(long id, String customer, String amount, String status) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("order_id", id);
    r.put("customer", customer);
    r.put("amount", new BigDecimal(amount));
    r.put("status", status);
    return r;
  }

  private static Map<String, Object> with(Map<String, Object> row, String column, Object value) {
    Map<String, Object> r = new LinkedHashMap<>(row);
    r.put(column, value);
    return r;
  }

  /** The directory holding the built plugin (the one with {@code manifest.json}), as {@code plugin.path}. */
  private static Path pluginPath(Path under) throws IOException {
    try (Stream<Path> found = Files.exists(under) ? Files.walk(under, 3) : Stream.empty()) {
      List<Path> manifests = found.filter(p -> p.getFileName().toString().equals("manifest.json")
          && Files.isDirectory(p.resolveSibling("lib"))).collect(Collectors.toList());
      if (manifests.isEmpty()) {
        throw new IllegalStateException("no connector plugin under " + under.toAbsolutePath()
            + ": build it first with mvn -q -B package -DskipTests -pl demo -am");
      }
      return manifests.get(0).getParent().getParent();
    }
  }

  private static void say(String format, Object... args) {
    System.out.printf("%n[demo] " + format + "%n", args);
  }
}
