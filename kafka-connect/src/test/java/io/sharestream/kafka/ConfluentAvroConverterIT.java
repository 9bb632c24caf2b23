package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * With Confluent's own Avro converter and Schema Registry: Kafka, Schema Registry and a Connect worker image that
 * ships {@code io.confluent.connect.avro.AvroConverter}, the built plugin mounted in its plugin path, the every-type
 * table served by the kit on this host. Needs a Docker engine: skipped, not failed, where there is none.
 */
@Testcontainers(disabledWithoutDocker = true)
class ConfluentAvroConverterIT {
  private static final String CONFLUENT = "7.7.1";
  @TempDir Path tmp;

  @Test
  void everyTypeFlowsThroughConfluentsAvroConverterIntoTheSchemaRegistry() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("all"), Samples.ALL_TYPES).commit();
    table.append(Samples.allTypeRows());
    try (DeltaSharingServer server = DeltaSharingServer.builder().advertisedHost("host.testcontainers.internal")
        .table("s", "sc", "all", table.dir(), true).start();
        Network network = Network.newNetwork()) {
      org.testcontainers.Testcontainers.exposeHostPorts(server.port());
      Path profile = server.writeProfile(tmp.resolve("p.share"));
      Path plugin;
      try (Stream<Path> dirs = Files.list(Path.of(System.getProperty("plugin.zip")).getParent())) {
        plugin = dirs.filter(p -> Files.isDirectory(p) && p.getFileName().toString().startsWith(
            "sharestream-kafka-connect-")).findFirst().orElseThrow();
      }
      try (GenericContainer<?> kafka = new GenericContainer<>(DockerImageName.parse("apache/kafka:3.9.1"))
          .withNetwork(network).withNetworkAliases("kafka")
          .withEnv("KAFKA_NODE_ID", "1").withEnv("KAFKA_PROCESS_ROLES", "broker,controller")
          .withEnv("KAFKA_LISTENERS", "PLAINTEXT://:9092,CONTROLLER://:9093")
          .withEnv("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://kafka:9092")
          .withEnv("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER")
          .withEnv("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka:9093")
          .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
          .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
          .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1");
          GenericContainer<?> registry = new GenericContainer<>(
              DockerImageName.parse("confluentinc/cp-schema-registry:" + CONFLUENT))
              .withNetwork(network).withNetworkAliases("schema-registry").withExposedPorts(8081)
              .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
              .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "kafka:9092")
              .waitingFor(Wait.forHttp("/subjects").forPort(8081));
          GenericContainer<?> connect = new GenericContainer<>(
              DockerImageName.parse("confluentinc/cp-kafka-connect:" + CONFLUENT))
              .withNetwork(network).withExposedPorts(8083)
              .withEnv("CONNECT_BOOTSTRAP_SERVERS", "kafka:9092")
              .withEnv("CONNECT_REST_ADVERTISED_HOST_NAME", "connect")
              .withEnv("CONNECT_GROUP_ID", "it").withEnv("CONNECT_CONFIG_STORAGE_TOPIC", "it-configs")
              .withEnv("CONNECT_OFFSET_STORAGE_TOPIC", "it-offsets").withEnv("CONNECT_STATUS_STORAGE_TOPIC", "it-status")
              .withEnv("CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR", "1")
              .withEnv("CONNECT_OFFSET_STORAGE_REPLICATION_FACTOR", "1")
              .withEnv("CONNECT_STATUS_STORAGE_REPLICATION_FACTOR", "1")
              .withEnv("CONNECT_KEY_CONVERTER", "org.apache.kafka.connect.storage.StringConverter")
              .withEnv("CONNECT_VALUE_CONVERTER", "io.confluent.connect.avro.AvroConverter")
              .withEnv("CONNECT_VALUE_CONVERTER_SCHEMA_REGISTRY_URL", "http://schema-registry:8081")
              .withEnv("CONNECT_PLUGIN_PATH", "/usr/share/java,/plugins")
              .withCopyFileToContainer(MountableFile.forHostPath(plugin), "/plugins/sharestream")
              .withCopyFileToContainer(MountableFile.forHostPath(profile), "/etc/sharestream/p.share")
              .waitingFor(Wait.forHttp("/connectors").forPort(8083).withStartupTimeout(Duration.ofMinutes(3)))) {
        kafka.start();
        registry.start();
        connect.start();
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://" + connect.getHost() + ":" + connect.getMappedPort(8083);
        String config = "{\"connector.class\":\"" + ConnectHarness.CONNECTOR_CLASS + "\",\"tasks.max\":\"1\","
            + "\"profile.path\":\"/etc/sharestream/p.share\",\"tables\":\"s.sc.all\",\"startingVersion\":\"0\","
            + "\"time.precision.mode\":\"micros\",\"topic.creation.default.replication.factor\":\"1\","
            + "\"topic.creation.default.partitions\":\"1\"}";
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(base + "/connectors/avro/config"))
            .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(config)).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isIn(200, 201);
        String registryUrl = "http://" + registry.getHost() + ":" + registry.getMappedPort(8081);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        String subjects = "";
        while (!subjects.contains("s.sc.all-value") && System.nanoTime() < deadline) {
          Thread.sleep(1000);
          subjects = http.send(HttpRequest.newBuilder(URI.create(registryUrl + "/subjects")).build(),
              HttpResponse.BodyHandlers.ofString()).body();
        }
        assertThat(subjects).contains("s.sc.all-value");
        String schema = http.send(HttpRequest.newBuilder(URI.create(registryUrl
            + "/subjects/s.sc.all-value/versions/latest")).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(schema).contains("io.sharestream.time.MicroTimestamp").contains("decimal");
        String status = http.send(HttpRequest.newBuilder(URI.create(base + "/connectors/avro/status")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        assertThat(status).doesNotContain("FAILED");
      }
    }
  }
}
