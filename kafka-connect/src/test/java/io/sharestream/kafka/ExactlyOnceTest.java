package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With the worker's exactly-once source support enabled, counted by a {@code read_committed} consumer: a worker
 * that goes away mid-file and comes back duplicates nothing and loses nothing; transactions end at poll batches or,
 * when the connector defines them, at Delta versions, and inside a version slower than the producer's transaction
 * timeout. On three distributed workers, a whole share streams every row once while workers join, tables are added
 * to and removed from the share, tasks are added and the worker running a task goes away mid-stream. The cluster
 * has one worker between tests (the multi-worker test adds two and removes them).
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
    restartMidStreamAndCount(name, rows, latency, extra);
  }

  /** As above, for the table {@link #server} shares. */
  private void restartMidStreamAndCount(String name, int rows, Duration latency, String... extra) throws Exception {
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
  void whatTheProviderDoesToOtherTablesSetsThemAsideWithTheirReasonsWhileEachRowOfTheRestIsCommittedOnce()
      throws Exception {
    ProviderActions.run(harness, tmp, "provider-eos", true);
  }

  @Test
  void aRestartMidFileDuplicatesNothingWithPollBatchTransactions() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("files"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 40_000), 1000); // 40 files, read 150 rows per poll
    restartMidStreamAndCount("eos-poll", table, 40_000, Duration.ofMillis(50));
  }

  @Test
  void aTableSharedForDirectoryAccessOnlyIsReadFromItsStoreThroughARestartDuplicatingNothing() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("dir"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 40_000), 1000);
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .accessModes("s.sc.t", AccessMode.DIR).credentialTtl(Duration.ofSeconds(20)).start();
    restartMidStreamAndCount("eos-dir", 40_000, Duration.ofMillis(50), "s3Endpoint", server.objectStore().endpoint(),
        "s3Region", server.objectStore().region(), "s3PathStyleAccess", "true");
    assertThat(server.requests().count(Endpoint.QUERY)).as("no URL was asked for").isZero();
    assertThat(server.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isPositive();
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

  @Test
  void onThreeWorkersAWholeShareStreamsEveryRowOnceAsTablesComeAndGoTasksAreAddedAndAWorkerGoesAway()
      throws Exception {
    harness.connect.addWorker(); // scale-out: two workers join the one running
    harness.connect.addWorker();
    try {
      harness.connect.assertions().assertExactlyNumWorkersAreUp(3, "workers did not join");
      streamAShareThroughChanges();
    } finally {
      harness.connect.connectors().forEach(c -> harness.connect.deleteConnector((String) c));
      while (harness.connect.workers().size() > 1) {
        harness.connect.removeWorker();
      }
    }
  }

  private void streamAShareThroughChanges() throws Exception {
    Map<String, DeltaTableWriter> tables = new java.util.LinkedHashMap<>();
    DeltaSharingServer.Builder builder = DeltaSharingServer.builder();
    for (String t : List.of("a", "b", "c", "d")) {
      tables.put(t, DeltaTableWriter.create(tmp.resolve("share-" + t), ConnectorStreamingTest.EVENTS).commit());
      tables.get(t).append(ConnectorStreamingTest.events(0, 300), 100);
      if (!t.equals("d")) {
        builder.table("s", "sc", t, tables.get(t).dir(), true);
      }
    }
    server = builder.start();
    String name = "eos-share";
    String prefix = name + ".s.sc.";
    Map<String, String> config = ConnectHarness.config(server.writeProfile(tmp.resolve("share.share")).toString(),
        "s.*", "startingVersion", "0", "topic.prefix", name + ".", "exactly.once.support", "required",
        "tasks.max", "2", "tables.discovery.interval.ms", "300", "batch.max.rows", "100");
    harness.deploy(name, config, 2);
    for (String t : List.of("a", "b", "c")) {
      harness.read(prefix + t, 300, ConnectorStreamingTest.WAIT, true);
    }
    config.put("tasks.max", "3"); // scale-out: more tasks
    harness.deploy(name, config, 3);

    server.tables().add("s", "sc", "d", tables.get("d").dir(), true); // a new table: from version 0
    // and one whose history starts after version 0: set aside, whichever task gets it goes on with its others
    server.tables().add("s", "sc", "e", ProviderActions.trimmed(tmp.resolve("share-e")).dir(), true);
    harness.read(prefix + "d", 300, ConnectorStreamingTest.WAIT, true);
    server.tables().remove("s.sc.c"); // unshared: it stops, the others go on
    long deadline = System.nanoTime() + ConnectorStreamingTest.WAIT.toNanos();
    while (harness.connect.taskConfigs(name).stream().anyMatch(c -> c.config().get("tables").contains("s.sc.c"))) {
      assertThat(System.nanoTime()).as("s.sc.c left the task configs").isLessThan(deadline);
      Thread.sleep(100);
    }
    ObjectName discovery = new ObjectName("io.sharestream.kafka:type=table-discovery,connector=\"" + name + "\"");
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    assertThat(jmx.getAttribute(discovery, "SelectedTables")).isEqualTo(4);
    assertThat(jmx.getAttribute(discovery, "TablesAdded")).isEqualTo(2L);
    assertThat(jmx.getAttribute(discovery, "TablesRemoved")).isEqualTo(1L);
    tables.get("c").append(ConnectorStreamingTest.events(300, 400)); // never streamed

    server.faults().storageLatency(Duration.ofMillis(500)); // each file takes a while: the kill lands mid-stream
    for (String t : List.of("a", "b", "d")) {
      tables.get(t).append(ConnectorStreamingTest.events(300, 1300), 100); // 10 files
    }
    harness.read(prefix + "a", 400, ConnectorStreamingTest.WAIT, true);
    harness.removeWorkerRunning(name, 0); // the others take its tasks over
    assertThat(harness.readAll(prefix + "a", true).size()).as("committed before the kill").isLessThan(1300);
    Map<String, Integer> expected = Map.of("a", 1300, "b", 1300, "c", 300, "d", 1300);
    for (String t : List.of("a", "b", "d")) {
      harness.read(prefix + t, expected.get(t), ConnectorStreamingTest.WAIT, true);
    }
    harness.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning(name, 3, "a task failed");
    Set<ObjectName> trimmed = jmx.queryNames(new ObjectName("io.sharestream.kafka:type=table-metrics,connector=\""
        + name + "\",table=\"s.sc.e\",*"), null);
    assertThat(trimmed).hasSize(1);
    assertThat(jmx.getAttribute(trimmed.iterator().next(), "SetAsideReason")).isEqualTo("VERSION_UNAVAILABLE");
    assertThat(jmx.getAttribute(trimmed.iterator().next(), "Records")).isEqualTo(0L);
    Thread.sleep(1000); // anything extra would be committed by now
    for (Map.Entry<String, Integer> e : expected.entrySet()) {
      List<ConnectHarness.Rec> committed = harness.readAll(prefix + e.getKey(), true);
      assertThat(committed).as(e.getKey()).hasSize(e.getValue());
      assertThat(committed.stream().map(ConnectHarness.Rec::id).distinct().count()).as(e.getKey())
          .isEqualTo((long) e.getValue());
    }
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
