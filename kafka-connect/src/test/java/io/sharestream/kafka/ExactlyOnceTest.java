package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the worker's exactly-once source support enabled, a worker that goes away mid-file and comes back duplicates
 * nothing and loses nothing, counted by a {@code read_committed} consumer; transactions end at poll batches or, when
 * the connector defines them, at Delta versions, and inside a version slower than the producer's transaction
 * timeout.
 */
class ExactlyOnceTest {
  static ConnectHarness harness;
  @TempDir Path tmp;
  DeltaSharingServer server;

  @BeforeAll
  static void startCluster() {
    harness = new ConnectHarness("exactly-once", true);
  }

  @AfterAll
  static void stopCluster() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void cleanUp() {
    harness.connect.connectors().forEach(c -> harness.connect.deleteConnector((String) c));
    if (server != null) {
      server.close();
    }
  }

  /** Streams {@code table}, each file download slowed by {@code latency}, with a worker restart mid-stream. */
  private void restartMidStreamAndCount(String name, DeltaTableWriter table, int rows, Duration latency,
      String... extra) throws Exception {
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    String profile = server.writeProfile(tmp.resolve(name + ".share")).toString();
    Map<String, String> config = ConnectHarness.config(profile, "s.sc.t", "startingVersion", "0",
        "batch.max.rows", "150", "topic.prefix", name + ".", "exactly.once.support", "required");
    for (int i = 0; i < extra.length; i += 2) {
      config.put(extra[i], extra[i + 1]);
    }
    server.faults().storageLatency(latency); // each file takes a while: the restart lands mid-stream
    harness.deploy(name, config, 1);
    String topic = name + ".s.sc.t";
    harness.read(topic, 1000, ConnectorStreamingTest.WAIT, true);
    harness.connect.removeWorker(); // an open transaction is aborted
    assertThat(harness.readAll(topic, true).size()).as("committed before the restart").isLessThan(rows);
    harness.connect.addWorker();
    harness.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(name, 1, "did not restart");

    harness.read(topic, rows, ConnectorStreamingTest.WAIT, true);
    Thread.sleep(1000); // anything extra would be committed by now
    List<ConnectHarness.Rec> committed = harness.readAll(topic, true);
    assertThat(committed).hasSize(rows);
    assertThat(committed.stream().map(ConnectHarness.Rec::id).distinct().count()).isEqualTo(rows);
    assertThat(harness.endOffset(topic)).as("transaction markers beyond the records").isGreaterThan(rows);
  }

  @Test
  void aRestartMidFileDuplicatesNothingWithPollBatchTransactions() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("files"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 40_000), 1000); // 40 files, read 150 rows per poll
    restartMidStreamAndCount("eos-poll", table, 40_000, Duration.ofMillis(50));
  }

  @Test
  void aRestartMidVersionDuplicatesNothingWithVersionTransactions() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("versions"), ConnectorStreamingTest.EVENTS)
        .commit();
    for (int v = 0; v < 20; v++) {
      table.append(ConnectorStreamingTest.events(v * 2_000L, (v + 1) * 2_000L), 1000);
    }
    restartMidStreamAndCount("eos-version", table, 40_000, Duration.ofMillis(50), "transaction.boundary",
        "connector");
    List<String> versions = harness.readAll("eos-version.s.sc.t", true).stream()
        .map(r -> r.headers.get(RecordConverter.HEADER_VERSION)).distinct().collect(Collectors.toList());
    assertThat(versions).hasSize(20);
  }

  @Test
  void aVersionSlowerThanTheTransactionTimeoutIsCommittedInPiecesAndSurvivesARestartInsideIt() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("long"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 10_000), 625); // one version of 16 files, ~0.4 s each
    // the broker aborts a transaction open over 2 s (and looks every 0.5 s, see ConnectHarness): a version-long
    // transaction would fail the task; the 1,000 records read before the restart are committed pieces of the version
    restartMidStreamAndCount("eos-long-version", table, 10_000, Duration.ofMillis(400), "transaction.boundary",
        "connector", "producer.override.transaction.timeout.ms", "2000", "transaction.max.duration.ms", "500");
    assertThat(harness.readAll("eos-long-version.s.sc.t", true).stream()
        .map(r -> r.headers.get(RecordConverter.HEADER_VERSION)).distinct()).containsExactly("1");
  }

  /**
   * Streams {@code table} from version 0 with transactions at Delta versions and waits, with a {@code read_committed}
   * consumer, for {@code expected} records and for the stored offset to reach the table's end.
   */
  private void committedThroughTheLastVersion(String name, DeltaTableWriter table, int expected, String... extra)
      throws Exception {
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    String profile = server.writeProfile(tmp.resolve(name + ".share")).toString();
    Map<String, String> config = ConnectHarness.config(profile, "s.sc.t", "startingVersion", "0",
        "topic.prefix", name + ".", "exactly.once.support", "required", "transaction.boundary", "connector");
    for (int i = 0; i < extra.length; i += 2) {
      config.put(extra[i], extra[i + 1]);
    }
    harness.deploy(name, config, 1);
    assertThat(harness.read(name + ".s.sc.t", expected, ConnectorStreamingTest.WAIT, true)).hasSize(expected);
    long end = table.version() + 1;
    long deadline = System.nanoTime() + ConnectorStreamingTest.WAIT.toNanos();
    Long stored = null;
    while (System.nanoTime() < deadline) {
      for (org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset o : harness.connect.connectorOffsets(name)
          .offsets()) {
        stored = ((Number) o.offset().get("tableVersion")).longValue();
      }
      if (stored != null && stored == end) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(stored).as("the committed offset of " + name).isEqualTo(end);
    harness.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(name, 1, "the task failed");
  }

  @Test
  void versionTransactionsCommitWhenTheLastVersionEmitsNoRow() throws Exception {
    // 4 appends, an UPDATE, then a DELETE whose change data holds only the delete: nothing to emit by default
    versionTransactionsThroughADeleteTail("eos-delete-tail", false);
    // the same with deletion vectors: the DELETE re-adds a file with a vector, which brings no row by default
    versionTransactionsThroughADeleteTail("eos-dv-delete-tail", true);
  }

  private void versionTransactionsThroughADeleteTail(String name, boolean deletionVectors) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve(name), ConnectorStreamingTest.EVENTS)
        .changeDataFeed(true).deletionVectors(deletionVectors).commit();
    for (int v = 0; v < 4; v++) {
      table.append(ConnectorStreamingTest.events(v * 10L, v * 10L + 10));
    }
    table.updateWhere(r -> r.get("id").equals(3L), r -> {
      r.put("user", "updated");
      return r;
    });
    table.deleteWhere(r -> r.get("id").equals(5L));
    committedThroughTheLastVersion(name, table, 41); // 40 inserts and the update's post-image
    harness.connect.deleteConnector(name);
    server.close();
  }

  @Test
  void versionTransactionsCommitAnOptimizeOnlyTail() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("optimized"), ConnectorStreamingTest.EVENTS)
        .commit();
    table.append(ConnectorStreamingTest.events(0, 10));
    table.append(ConnectorStreamingTest.events(10, 20));
    table.compact();
    committedThroughTheLastVersion("eos-optimize-tail", table, 20);
  }

  @Test
  void versionTransactionsCommitASkippedChangeCommitTail() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("skipped"), ConnectorStreamingTest.EVENTS)
        .commit();
    table.append(ConnectorStreamingTest.events(0, 10));
    table.append(ConnectorStreamingTest.events(10, 20));
    table.updateWhere(r -> r.get("id").equals(3L), r -> {
      r.put("user", "updated");
      return r;
    });
    committedThroughTheLastVersion("eos-skip-tail", table, 20, "skipChangeCommits", "true");
  }
}
