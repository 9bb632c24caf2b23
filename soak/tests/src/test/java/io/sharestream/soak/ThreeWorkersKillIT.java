package io.sharestream.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole schema of tables streamed by three distributed Connect workers, each a process of its own, with
 * exactly-once delivery and connector-defined transactions; each table is one version that takes far longer to
 * stream than the producers' transaction timeout, so it is committed in pieces. The worker running the most tasks is
 * killed with SIGKILL inside those versions: the other two take its tasks over, their producers fence its zombie
 * transactions, and every row of every table is committed exactly once, read committed. Every other table is shared
 * for directory access only: its log and files are read from the kit's S3 store with vended credentials.
 */
class ThreeWorkersKillIT {
  private static final int TABLES = 6;
  private static final int ROWS = 6_000;

  @TempDir Path tmp;

  @Test
  void aWorkerKilledInsideVersionsSlowerThanTheTransactionTimeoutLosesAndRepeatsNothingOnTheOtherTwo()
      throws Exception {
    DeltaSharingServer.Builder share = DeltaSharingServer.builder();
    for (int i = 0; i < TABLES; i++) {
      DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t" + i), Samples.ORDERS).commit();
      t.append(Samples.orders(0, ROWS), 500); // version 1: 12 files, each slowed to ~0.3 s below: ~4 s a version
      share.table("s", "sc", "t" + i, t.dir(), true);
      if (i % 2 == 1) {
        share.accessModes("s.sc.t" + i, AccessMode.DIR);
      }
    }
    Properties broker = new Properties();
    broker.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500");
    List<ConnectWorker> workers = new ArrayList<>();
    try (DeltaSharingServer server = share.start(); Kafka kafka = new Kafka(broker)) {
      server.faults().storageLatency(Duration.ofMillis(300));
      workers.addAll(ConnectWorker.startGroup(3, kafka.bootstrap(), "trio", true, tmp));
      ConnectWorker any = workers.get(0);
      any.deploy("trio", Kafka.connector(server.writeProfile(tmp.resolve("p.share")).toString(), "s.sc.*",
          "tasks.max", "3", "startingVersion", "0", "exactly.once.support", "required", "batch.max.rows", "150",
          // the broker aborts a transaction open over 2 s: a version-long one would fail the tasks
          "transaction.boundary", "connector", "producer.override.transaction.timeout.ms", "2000",
          "transaction.max.duration.ms", "500", "s3Endpoint", server.objectStore().endpoint(), "s3Region",
          server.objectStore().region(), "s3PathStyleAccess", "true"));
      any.awaitRunning("trio", 3, Duration.ofSeconds(120));

      awaitCommitted(kafka, 1000);
      ConnectWorker victim = busiest(any, workers);
      victim.kill();
      Map<String, List<Long>> atKill = committed(kafka);
      long before = atKill.values().stream().mapToLong(List::size).sum();
      // a timing miss, not a fault: on a busy machine the three can finish every version before the count above and
      // the kill are done (seen once in CI); the run then tested nothing, and says so as skipped rather than passed
      assumeTrue(before < (long) TABLES * ROWS,
          "every row was committed before the kill: the kill missed the versions");
      assertThat(atKill.values()).as("a version committed in pieces: some of its rows, not all")
          .anySatisfy(rows -> assertThat(rows.size()).isBetween(1, ROWS - 1));
      workers.remove(victim);
      workers.get(0).awaitRunning("trio", 3, Duration.ofSeconds(120), victim.workerId());

      awaitCommitted(kafka, (long) TABLES * ROWS);
      Thread.sleep(1500); // anything repeated would be committed by now
      Map<String, List<Long>> ids = committed(kafka);
      assertThat(ids).hasSize(TABLES);
      ids.forEach((topic, rows) -> assertThat(rows).as(topic + ": every row once").hasSize(ROWS)
          .doesNotHaveDuplicates());
      long aborted = 0;
      for (String topic : ids.keySet()) {
        aborted += kafka.abortedRecords(topic);
      }
      assertThat(server.requests().count(Endpoint.OBJECT_STORE)).as("dir tables read from the store").isPositive();
      System.out.println("three workers, the busiest SIGKILLed inside versions slower than the transaction timeout: "
          + before + " rows committed around the kill, " + (long) TABLES * ROWS + " after, none twice; records of "
          + "aborted transactions: " + aborted);
    } finally {
      for (ConnectWorker w : workers) {
        w.close();
      }
    }
  }

  /** The live worker running the most tasks of the connector. */
  private static ConnectWorker busiest(ConnectWorker any, List<ConnectWorker> workers) throws Exception {
    Map<String, Integer> tasks = new HashMap<>();
    for (JsonNode t : any.get("/connectors/trio/status").path("tasks")) {
      tasks.merge(t.path("worker_id").asText(), 1, Integer::sum);
    }
    return workers.stream().max((a, b) -> Integer.compare(tasks.getOrDefault(a.workerId(), 0),
        tasks.getOrDefault(b.workerId(), 0))).get();
  }

  private static void awaitCommitted(Kafka kafka, long n) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
    long seen = 0;
    while (System.nanoTime() < deadline) {
      seen = committed(kafka).values().stream().mapToLong(List::size).sum();
      if (seen >= n) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("only " + seen + " rows committed of " + n);
  }

  /** The ids of the records committed to each table's topic so far. */
  private static Map<String, List<Long>> committed(Kafka kafka) throws Exception {
    Map<String, List<Long>> out = new HashMap<>();
    for (int i = 0; i < TABLES; i++) {
      out.put("soak.s.sc.t" + i, kafka.committedIds("soak.s.sc.t" + i));
    }
    return out;
  }
}
