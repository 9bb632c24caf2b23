package io.sharestream.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plugin on the Connect clusters people run: a distributed worker of each Kafka line (3.6, the oldest with the
 * exactly-once source and offsets APIs the connector implements, 4.1, 4.2, 4.3 and 4.4), each from its own Maven
 * Central jars (3.6.2, 4.1.1, 4.2.1, 4.3.2, 4.4.0), on every Java installed here (17 and, where present, 25; in CI
 * every line but 4.1 on the build's Java, 4.1 running in {@link KafkaSoakIT}). Each deploys the connector from the
 * plugin zip with exactly-once required, streams a table, survives a SIGKILL and restart without loss or repeat, and
 * reports its offsets over {@code GET /connectors/<name>/offsets}.
 */
class ConnectVersionsIT {
  @TempDir static Path tmp;
  static Kafka kafka;

  @BeforeAll
  static void start() {
    kafka = new Kafka();
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  /** Every Kafka line the plugin supports, oldest first. */
  static final List<String> LINES = List.of("3.6", "4.1", "4.2", "4.3", "4.4");

  /**
   * Every Kafka line on every Java with {@code -Dsoak.matrix=full} (the long form); else every line but 4.1 on this
   * build's Java (4.1 runs on the newest Java in {@link KafkaSoakIT}).
   */
  static Stream<Arguments> workers() {
    List<Arguments> out = new ArrayList<>();
    boolean full = "full".equals(System.getProperty("soak.matrix"));
    for (String line : LINES) {
      if (full) {
        for (Jdk jdk : Jdk.installed()) {
          out.add(Arguments.of(line, jdk));
        }
      } else if (!line.equals("4.1")) {
        out.add(Arguments.of(line, Jdk.current()));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "Connect {0} on {1}")
  @MethodSource("workers")
  void theConnectorStreamsSurvivesAKillAndReportsItsOffsets(String line, Jdk jdk) throws Exception {
    String name = "w" + line.replace(".", "") + "j" + jdk.feature();
    String topic = name + ".s.sc.t";
    List<String> expected = ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true);
    DeltaTableWriter table = ChangeMatrix.write(tmp.resolve(name).resolve("t"), true);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
        ConnectWorker worker = new ConnectWorker(line, jdk, kafka.bootstrap(), name, true, tmp.resolve(name))) {
      worker.start();
      assertThat(worker.version()).startsWith(line + ".");
      assertThat(worker.get("/connector-plugins").toString()).contains(ConnectWorker.CONNECTOR_CLASS);
      String profile = server.writeProfile(tmp.resolve(name).resolve("p.share")).toString();
      var config = Kafka.connector(profile, "s.sc.t", "readChangeFeed", "true", "startingVersion", "0",
          "exactly.once.support", "required");
      config.put("topic.prefix", name + ".");
      worker.deploy(name, config);
      worker.awaitRunning(name, 1, Duration.ofSeconds(60));
      awaitRecords(topic, expected.size());

      worker.kill();
      table.append(ChangeMatrix.rows(100, 102)); // version 8, committed while the worker is down
      worker.start();
      worker.awaitRunning(name, 1, Duration.ofSeconds(60));
      awaitRecords(topic, expected.size() + 2); // the new rows once, nothing before them again

      JsonNode offsets = awaitOffsets(worker, name, ChangeMatrix.LATEST + 2);
      JsonNode offset = offsets.path("offsets").get(0);
      assertThat(offset.path("partition").path("table").asText()).isEqualTo("s.sc.t");
      assertThat(offset.path("offset").path("index").asLong()).as("at a version's start").isEqualTo(-1);
    }
  }

  private static void awaitRecords(String topic, int n) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    int got = 0;
    while (System.nanoTime() < deadline) {
      got = kafka.events(topic, true).size();
      if (got >= n) {
        assertThat(got).as("records in " + topic).isEqualTo(n);
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("only " + got + " of " + n + " records in " + topic);
  }

  /**
   * {@code GET /connectors/<name>/offsets} (KIP-875) once the stored offset points at {@code next}: the version after
   * the last one read.
   */
  private static JsonNode awaitOffsets(ConnectWorker worker, String name, long next) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    JsonNode offsets = null;
    while (System.nanoTime() < deadline) {
      offsets = worker.get("/connectors/" + name + "/offsets");
      if (offsets.path("offsets").path(0).path("offset").path("tableVersion").asLong() == next) {
        return offsets;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no offsets reported: " + offsets);
  }
}
