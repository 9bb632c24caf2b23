package io.sharestream.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Delta version that takes far longer to stream than the producer's transaction timeout, under connector-defined
 * transactions with exactly-once delivery, and the worker process killed with SIGKILL inside it: the version is
 * committed in pieces before the timeout, the piece open at the kill is aborted, and after the restart every row of
 * the version is committed exactly once, read committed.
 */
class LongVersionKillIT {
  private static final int ROWS = 10_000;

  @TempDir Path tmp;

  @Test
  void aWorkerKilledInsideAVersionSlowerThanTheTransactionTimeoutLosesAndRepeatsNothing() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("long"), Samples.ORDERS).commit();
    table.append(Samples.orders(0, ROWS), 625); // version 1: 16 files, each slowed to ~0.4 s below
    Properties broker = new Properties();
    broker.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500"); // expire within 0.5 s
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "long", table.dir(), true).start();
        Kafka kafka = new Kafka(broker);
        ConnectWorker worker = new ConnectWorker("4.1", Jdk.installed().get(0), kafka.bootstrap(), "long-version",
            true, tmp.resolve("worker"))) {
      server.faults().storageLatency(Duration.ofMillis(400));
      worker.start();
      Map<String, String> config = Kafka.connector(server.writeProfile(tmp.resolve("p.share")).toString(),
          "s.sc.long", "startingVersion", "0", "exactly.once.support", "required", "transaction.boundary",
          "connector", "producer.override.transaction.timeout.ms", "2000", "transaction.max.duration.ms", "500",
          "batch.max.rows", "150");
      worker.deploy("long", config);
      worker.awaitRunning("long", 1, Duration.ofSeconds(60));
      String topic = "soak.s.sc.long";

      awaitCommitted(kafka, topic, 1000);
      worker.kill(); // SIGKILL inside version 1: its open transaction is left to the broker to abort
      int before = kafka.committedIds(topic).size();
      assertThat(before).as("committed before the kill: pieces of the one version").isBetween(1000, ROWS - 1);
      worker.start();
      worker.awaitRunning("long", 1, Duration.ofSeconds(60));

      List<Long> ids = awaitCommitted(kafka, topic, ROWS);
      Thread.sleep(1500); // anything repeated would be committed by now
      ids = kafka.committedIds(topic);
      assertThat(ids).as("every row of the version once").hasSize(ROWS).doesNotHaveDuplicates();
      assertThat(worker.get("/connectors/long/status").path("tasks").path(0).path("state").asText())
          .isEqualTo("RUNNING");
      System.out.println("long version, worker SIGKILLed inside it: " + before + " rows committed before the kill, "
          + ROWS + " after the restart, none twice; records of aborted transactions: " + kafka.abortedRecords(topic));
    }
  }

  private static List<Long> awaitCommitted(Kafka kafka, String topic, int n) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
    List<Long> ids = kafka.committedIds(topic);
    while (ids.size() < n && System.nanoTime() < deadline) {
      Thread.sleep(250);
      ids = kafka.committedIds(topic);
    }
    assertThat(ids.size()).as("rows committed in time").isGreaterThanOrEqualTo(n);
    return ids;
  }
}
