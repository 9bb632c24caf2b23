package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.planner.Position;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.AsyncMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task's own lifecycle: polls bounded in time and records, a stop that interrupts a request in flight, and no
 * thread left behind. The task runs without a worker here (a minimal context with no stored offsets stands in for
 * it) because the test counts this JVM's threads, and a worker brings dozens of its own.
 */
class TaskLifecycleTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Map<String, String> config;

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 50), 10);
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    config = new HashMap<>(ConnectHarness.config(server.writeProfile(tmp.resolve("p.share")).toString(), "s.sc.t",
        "startingVersion", "0", "batch.max.rows", "7", "poll.interval.ms", "60000",
        "poll.interval.max.ms", "60000"));
    config.remove("connector.class");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** Records of up to {@code polls} polls, stopping once {@code records} came. */
  private static int polled(DeltaSharingSourceTask task, int records, int polls) throws InterruptedException {
    int total = 0;
    for (int i = 0; i < polls && total < records; i++) {
      List<SourceRecord> batch = task.poll();
      total += batch == null ? 0 : batch.size();
    }
    return total;
  }

  /** The tables asked for by each read of the stored offsets (each a read of Connect's offsets topic to its end). */
  private static final List<Integer> offsetReads = new java.util.concurrent.CopyOnWriteArrayList<>();

  private static DeltaSharingSourceTask task(Map<String, String> config) {
    DeltaSharingSourceTask task = new DeltaSharingSourceTask();
    task.initialize(new SourceTaskContext() {
      @Override
      public Map<String, String> configs() {
        return config;
      }

      @Override
      public org.apache.kafka.common.metrics.PluginMetrics pluginMetrics() {
        return null; // the task publishes its own JMX metrics
      }

      @Override
      public OffsetStorageReader offsetStorageReader() {
        return new OffsetStorageReader() {
          @Override
          public <T> Map<String, Object> offset(Map<String, T> partition) {
            offsetReads.add(1);
            return null;
          }

          @Override
          public <T> Map<Map<String, T>, Map<String, Object>> offsets(Collection<Map<String, T>> partitions) {
            offsetReads.add(partitions.size());
            return Map.of();
          }
        };
      }
    });
    task.start(config);
    return task;
  }

  private static javax.management.ObjectName metrics(String table) throws Exception {
    return new javax.management.ObjectName("io.sharestream.kafka:type=table-metrics,connector=\"connector\","
        + "task=\"0\",table=\"" + table + "\"");
  }

  private static Set<String> threads() {
    return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .filter(t -> t.getName().startsWith("HttpClient-") || t.getName().startsWith("sharestream-"))
        .map(t -> t.getName() + "#" + t.getId()).collect(Collectors.toSet());
  }

  @Test
  void pollsReturnAtMostBatchMaxRowsAndIdlePollsReturnWithinASecond() throws Exception {
    DeltaSharingSourceTask task = task(config);
    try {
      int total = 0;
      for (int i = 0; i < 20 && total < 50; i++) {
        List<SourceRecord> batch = task.poll();
        if (batch != null) {
          assertThat(batch.size()).isLessThanOrEqualTo(7);
          total += batch.size();
        }
      }
      assertThat(total).isEqualTo(50);
      long t0 = System.nanoTime();
      assertThat(task.poll()).isNull(); // caught up: the next version poll is a minute away
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    } finally {
      task.stop();
    }
  }

  @Test
  void theWorkerHoldsAtMostRecordsInFlightMaxUnacknowledgedRecordsOfTheTask() throws Exception {
    config.put("records.in.flight.max", "10");
    DeltaSharingSourceTask task = task(config);
    try {
      List<SourceRecord> handed = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        List<SourceRecord> batch = task.poll();
        if (batch != null) {
          handed.addAll(batch);
        }
      }
      assertThat(handed).as("none acknowledged").hasSize(10);
      handed.forEach(r -> task.commitRecord(r, null));
      assertThat(task.poll()).as("acknowledged: room again").hasSize(7);
    } finally {
      task.stop();
    }
  }

  @Test
  void aTableWhoseFileIsOpenWhenAPollEndsIsReadFirstByTheNextPoll() throws Exception {
    DeltaTableWriter other = DeltaTableWriter.create(tmp.resolve("t2"), ConnectorStreamingTest.EVENTS).commit();
    other.append(ConnectorStreamingTest.events(0, 50), 10);
    server.close();
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .table("s", "sc", "t2", other.dir(), true).start();
    config.put("profile.path", server.writeProfile(tmp.resolve("p2.share")).toString());
    config.put("tables", "s.sc.t,s.sc.t2");
    DeltaSharingSourceTask task = task(config);
    try {
      List<SourceRecord> first = task.poll(); // 7 rows of a file of 10
      List<SourceRecord> second = task.poll();
      assertThat(second.subList(0, 3)).extracting(SourceRecord::topic).containsOnly(first.get(0).topic());
    } finally {
      task.stop();
    }
  }

  /** Six tables of one 10-row file each, {@code s.sc.t1} to {@code s.sc.t6}, all in the task's config. */
  private void serveSixTables() throws Exception {
    DeltaSharingServer.Builder six = DeltaSharingServer.builder();
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("six" + i), ConnectorStreamingTest.EVENTS).commit();
      t.append(ConnectorStreamingTest.events(0, 10), 10); // one file of 10 rows
      six.table("s", "sc", "t" + i, t.dir(), true);
      names.add("s.sc.t" + i);
    }
    server.close();
    server = six.start();
    config.put("profile.path", server.writeProfile(tmp.resolve("six.share")).toString());
    config.put("tables", String.join(",", names));
  }

  @Test
  void theStoredOffsetsOfAllTheTablesAreReadOnceNotOncePerTable() throws Exception {
    serveSixTables();
    offsetReads.clear();
    DeltaSharingSourceTask task = task(config);
    try {
      long records = polled(task, 60, 100);
      assertThat(records).as("every table started and read").isEqualTo(60);
      assertThat(offsetReads).containsExactly(6);
    } finally {
      task.stop();
    }
  }

  /**
   * A poll reads four tables' files at once, a share of its records each, so that produce requests carry several
   * topics; the files it leaves open are the next poll's first, so no fifth table starts while four are open.
   */
  @Test
  void aPollReadsFourTablesFilesInTurnsAndFinishesThemBeforeOpeningMore() throws Exception {
    serveSixTables();
    config.put("batch.max.rows", "8");
    DeltaSharingSourceTask task = task(config);
    try {
      List<List<SourceRecord>> polls = new ArrayList<>();
      int total = 0;
      for (int i = 0; i < 100 && total < 60; i++) {
        List<SourceRecord> batch = task.poll();
        if (batch != null) {
          polls.add(batch);
          total += batch.size();
        }
      }
      Map<String, Long> firstPoll = polls.get(0).stream()
          .collect(Collectors.groupingBy(SourceRecord::topic, Collectors.counting()));
      assertThat(firstPoll.values()).as("the first poll: four tables, two records each")
          .containsExactly(2L, 2L, 2L, 2L);
      List<String> order = new ArrayList<>();
      polls.forEach(b -> b.forEach(r -> order.add(r.topic())));
      int lastOfTheFirstFour = 0;
      for (String topic : firstPoll.keySet()) {
        lastOfTheFirstFour = Math.max(lastOfTheFirstFour, order.lastIndexOf(topic));
      }
      assertThat(order.subList(0, lastOfTheFirstFour + 1)).as("no fifth table while four files are open")
          .allMatch(firstPoll::containsKey);
      Map<String, List<Object>> offsets = new java.util.LinkedHashMap<>();
      polls.forEach(b -> b.forEach(r -> offsets.computeIfAbsent(r.topic(), k -> new ArrayList<>())
          .add(r.sourceOffset().get(Position.ROW))));
      assertThat(offsets).hasSize(6);
      offsets.values().forEach(rows -> assertThat(rows).as("each table's rows once, in order")
          .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, -1L));
    } finally {
      task.stop();
    }
  }

  @Test
  void aTableWhoseStartTheServerHoldsDoesNotHoldUpTheTasksOtherTables() throws Exception {
    DeltaTableWriter slow = DeltaTableWriter.create(tmp.resolve("slow"), ConnectorStreamingTest.EVENTS).commit();
    slow.append(ConnectorStreamingTest.events(0, 10), 10);
    server.tables().add("s", "sc", "slow", slow.dir(), true);
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server.faults().pause(Endpoint.METADATA, "slow", 1, held, release); // the first table's start hangs
    config.put("tables", "s.sc.slow,s.sc.t");
    DeltaSharingSourceTask task = task(config);
    ExecutorService poller = Executors.newSingleThreadExecutor();
    try {
      Map<String, Integer> rows = new HashMap<>();
      pollUntil(task, poller, rows, "t", 50);
      assertThat(held.getCount()).as("s.sc.slow's metadata answer is held").isZero();
      assertThat(rows).as("s.sc.t read whole meanwhile").isEqualTo(Map.of("t", 50));
      release.countDown();
      pollUntil(task, poller, rows, "slow", 10);
      assertThat(rows).as("and s.sc.slow once its start ends").isEqualTo(Map.of("t", 50, "slow", 10));
    } finally {
      release.countDown();
      task.stop();
      poller.shutdownNow();
    }
  }

  /**
   * Polls on {@code poller}, each poll bounded (a task that starts its tables one after the other hangs in a held
   * start for good), up to 100 polls or until {@code rows} (counted by table: {@code slow} or {@code t}) holds
   * {@code n} rows of {@code table}.
   */
  private static void pollUntil(DeltaSharingSourceTask task, ExecutorService poller, Map<String, Integer> rows,
      String table, int n) throws Exception {
    for (int i = 0; i < 100 && rows.getOrDefault(table, 0) < n; i++) {
      List<SourceRecord> batch = poller.submit(task::poll).get(10, TimeUnit.SECONDS);
      if (batch != null) {
        batch.forEach(r -> rows.merge(r.topic().endsWith("slow") ? "slow" : "t", 1, Integer::sum));
      }
    }
  }

  @Test
  void aPollStopsOpeningFilesAfterAboutASecondAndTheNextPollGoesOn() throws Exception {
    table.append(ConnectorStreamingTest.events(50, 90), 1); // 40 more files of one row: 45 files, 90 rows
    config.put("batch.max.rows", "10000");
    // every download waits 400 ms: with the footers fetched ahead, 45 files still take seconds, however fast the
    // machine, so the first poll ends (after about a second) with part of them
    server.faults().storageLatency(Duration.ofMillis(400));
    DeltaSharingSourceTask task = task(config);
    try {
      List<SourceRecord> first = task.poll();
      assertThat(first).as("a poll returns what its first second read").isNotEmpty();
      assertThat(first.size()).as("and no more: the rest waits for the next poll").isLessThan(90);
      int total = first.size() + polled(task, 90 - first.size(), 100);
      assertThat(total).isEqualTo(90);
    } finally {
      task.stop();
    }
  }

  @Test
  void aServerThatFailsWhileTheTaskStartsIsTriedAgainAfterThePollInterval() throws Exception {
    config.put("poll.interval.ms", "300");
    config.put("http.retry.max.attempts", "2");
    config.put("http.retry.backoff.ms", "10");
    server.faults().failWith(Endpoint.VERSION, 4, 503); // two starts fail, retries included
    DeltaSharingSourceTask task = task(config);
    try {
      int total = 0;
      int emptyPolls = 0;
      for (int i = 0; i < 100 && total < 50; i++) {
        List<SourceRecord> batch = task.poll();
        if (batch == null) {
          emptyPolls++;
        } else {
          total += batch.size();
        }
      }
      assertThat(total).isEqualTo(50);
      assertThat(emptyPolls).as("polls while the server failed").isPositive();
      assertThat(server.faults().pending()).isZero();
    } finally {
      task.stop();
    }
  }

  /** A table of the kit's events whose log was cleaned up before version {@code versions}: its history starts there. */
  private DeltaTableWriter trimmed(String name, int versions) {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve(name), ConnectorStreamingTest.EVENTS).commit();
    for (int v = 1; v < versions; v++) {
      t.append(ConnectorStreamingTest.events(v * 100L, v * 100L + 10));
    }
    t.cleanUpLogBefore(t.checkpoint());
    t.append(ConnectorStreamingTest.events(1000, 1010));
    return t;
  }

  private static Object jmx(String table, String attribute) throws Exception {
    return java.lang.management.ManagementFactory.getPlatformMBeanServer().getAttribute(metrics(table), attribute);
  }

  @Test
  void tablesTheProviderMadeUnreadableAreSetAsideWithTheirReasonWhileTheTasksOtherTableStreams() throws Exception {
    server.tables().addView("s", "sc", "v", table.dir());
    server.tables().add("s", "sc", "gone", table.dir(), true);
    server.tables().add("s", "sc", "denied", table.dir(), true);
    server.tables().add("s", "sc", "trimmed", trimmed("trimmed", 4).dir(), true);
    config.put("tables", "s.sc.v,s.sc.gone,s.sc.denied,s.sc.trimmed,s.sc.t");
    config.put("batch.max.rows", "100");
    DeltaSharingSourceTask task = task(config);
    server.tables().remove("s.sc.gone"); // unshared after the connector gave it to the task
    server.tables().get("s.sc.denied").accessDenied(true); // revoked
    try {
      assertThat(polled(task, 50, 10)).as("s.sc.t streams whole").isEqualTo(50);
      for (int i = 0; i < 5 && !"CAUGHT_UP".equals(jmx("s.sc.t", "State")); i++) {
        task.poll();
      }
      assertThat(jmx("s.sc.t", "State")).isEqualTo("CAUGHT_UP");
      assertThat(jmx("s.sc.t", "FilesBehind")).isEqualTo(0L);
      Map<String, String> reasons = Map.of("s.sc.v", "UNREADABLE", "s.sc.gone", "NOT_SHARED", "s.sc.denied",
          "ACCESS_DENIED", "s.sc.trimmed", "VERSION_UNAVAILABLE");
      for (Map.Entry<String, String> e : reasons.entrySet()) {
        assertThat(jmx(e.getKey(), "State")).as(e.getKey()).isEqualTo("SET_ASIDE");
        assertThat(jmx(e.getKey(), "SetAsideReason")).as(e.getKey()).isEqualTo(e.getValue());
        assertThat((String) jmx(e.getKey(), "SetAsideMessage")).as(e.getKey()).startsWith(e.getKey())
            .contains("To go on:");
      }
      assertThat(jmx("s.sc.v", "Errors")).isEqualTo(1L);
      assertThat((String) jmx("s.sc.trimmed", "SetAsideMessage")).contains("from version 3 on")
          .contains("starting.unavailable.mode=earliest");
      assertThat(server.requests().entries(Endpoint.QUERY)).as("the view is not queried")
          .noneMatch(e -> e.path.contains("/tables/v/"));
    } finally {
      task.stop();
    }
  }

  @Test
  void aTableWhoseStartIsNoLongerServedGoesOnFromTheEarliestServedVersionWhenThePolicySaysSo() throws Exception {
    server.tables().add("s", "sc", "trimmed", trimmed("trimmed", 4).dir(), true);
    config.put("tables", "s.sc.trimmed");
    config.put("batch.max.rows", "100");
    config.put("starting.unavailable.mode", "earliest");
    DeltaSharingSourceTask task = task(config);
    try {
      List<SourceRecord> records = new ArrayList<>();
      for (int i = 0; i < 10 && records.size() < 20; i++) {
        List<SourceRecord> batch = task.poll();
        if (batch != null) {
          records.addAll(batch);
        }
      }
      // versions 3 (rows 300..309) and 4 (rows 1000..1009) are served; versions 1 and 2 are gone
      assertThat(records.stream().map(r -> ((Number) r.sourceOffset().get("tableVersion")).longValue()).distinct())
          .allMatch(v -> v >= 3);
      assertThat(records.stream().map(r -> ((org.apache.kafka.connect.data.Struct) r.value()).getInt64("id")))
          .contains(300L, 1000L).doesNotContain(100L, 200L);
      assertThat(jmx("s.sc.trimmed", "State")).isNotEqualTo("SET_ASIDE");
    } finally {
      task.stop();
    }
  }

  @Test
  void aTaskWhoseEveryTableIsSetAsideFailsWithTheirReasons() throws Exception {
    server.tables().add("s", "sc", "denied", table.dir(), true);
    server.tables().get("s.sc.denied").accessDenied(true);
    server.tables().addView("s", "sc", "v", table.dir());
    config.put("tables", "s.sc.denied,s.sc.v");
    DeltaSharingSourceTask task = task(config);
    try {
      assertThatThrownBy(() -> polled(task, 1, 10)).isInstanceOf(ConnectException.class)
          .hasMessageContaining("Every table of this task is set aside")
          .hasMessageContaining("s.sc.denied is denied to this recipient (HTTP 403)")
          .hasMessageContaining("s.sc.v cannot be streamed");
    } finally {
      task.stop();
    }
  }

  @Test
  void stopEndsAPollWaitingForAnAsynchronousSnapshotAtOnce() throws Exception {
    server.async("s.sc.t", AsyncMode.slowerThan(Duration.ofHours(1)));
    config.put("startingVersion", "snapshot");
    config.put("http.retry.backoff.ms", "20000"); // the pending query would first be polled after 10 s
    DeltaSharingSourceTask task = task(config);
    ExecutorService poller = Executors.newSingleThreadExecutor();
    try {
      Future<List<SourceRecord>> poll = poller.submit(task::poll);
      for (int i = 0; i < 600 && server.requests().entries(Endpoint.QUERY).isEmpty(); i++) {
        Thread.sleep(50);
      }
      assertThat(server.requests().entries(Endpoint.QUERY)).hasSize(1);
      Thread.sleep(200);
      long t0 = System.nanoTime();
      task.stop();
      assertThat(poll.get(10, TimeUnit.SECONDS)).isNull();
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
      assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isEmpty();
    } finally {
      poller.shutdownNow();
      poller.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void stopInterruptsARequestInFlightAndLeavesNoThreadBehind() throws Exception {
    Set<String> before = threads();
    stopWhileAListingHangs();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Set<String> left = threads();
    while (!before.containsAll(left) && System.nanoTime() < deadline) {
      System.gc(); // java.net.http's selector thread ends once its client is unreachable
      Thread.sleep(200);
      left = threads();
    }
    left.removeAll(before);
    assertThat(left).as("threads the task left behind").isEmpty();
  }

  /** Starts a task whose first listing hangs, stops it from another thread and checks the poll lets go. */
  private void stopWhileAListingHangs() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    server.faults().pause(Endpoint.QUERY, 1, reached, never); // the listing hangs after its first line
    DeltaSharingSourceTask task = task(config);
    ExecutorService poller = Executors.newSingleThreadExecutor();
    try {
      Future<List<SourceRecord>> poll = poller.submit(task::poll);
      assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
      long t0 = System.nanoTime();
      task.stop();
      assertThat(poll.get(10, TimeUnit.SECONDS)).isNull();
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    } finally {
      never.countDown();
      poller.shutdownNow();
      poller.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /**
   * A stop that lands while the task waits for a file's footer (its download held by storage: the stop cannot cut a
   * storage read short, it fails when the bytes come), after reading the rest of the file before it in the same poll:
   * the poll hands out no record past the rows it handed out before. The failure this guards against: a task that
   * dropped the turn's records but went on with the table in the same poll would open the file after the held one
   * (its footer already fetched) and hand out its rows, whose offsets pass the rest of the first file and all of the
   * held one; a worker sends a stopped task's last poll and commits its offsets.
   */
  @Test
  void aStopWhileAFileDownloadHangsHandsOutNoRecordPastTheRowsNotHandedOut() throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("three"), ConnectorStreamingTest.EVENTS).commit();
    t.append(ConnectorStreamingTest.events(0, 30), 10); // version 1: three files of ten rows
    server.close();
    server = DeltaSharingServer.builder().table("s", "sc", "t", t.dir(), true).start();
    config.put("profile.path", server.writeProfile(tmp.resolve("three.share")).toString());
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server.faults().holdDownloads(DeltaSharingServer.filesInIdOrder(t).get(1), held, release);
    DeltaSharingSourceTask task = task(config);
    ExecutorService poller = Executors.newSingleThreadExecutor();
    try {
      List<SourceRecord> first = task.poll(); // 7 of the first file's 10 rows: the file stays open
      assertThat(first).hasSize(7);
      assertThat(held.await(30, TimeUnit.SECONDS)).as("the second file is fetched ahead").isTrue();
      Future<List<SourceRecord>> second = poller.submit(task::poll); // the first file's last rows, then it waits
      Thread.sleep(300);
      task.stop();
      Thread.sleep(300);
      release.countDown(); // storage answers at last: the stopped task's download fails inside the poll's second
      List<SourceRecord> records = second.get(10, TimeUnit.SECONDS);
      Position last = Position.fromMap(first.get(6).sourceOffset());
      for (SourceRecord r : records == null ? List.<SourceRecord>of() : records) {
        Position p = Position.fromMap(r.sourceOffset());
        assertThat(p.index()).as("%s: a record of the first file, whose earlier rows all went out", p)
            .isEqualTo(last.index());
        assertThat(p.row() == -1 || p.row() == last.row() + 1).as("%s follows %s", p, last).isTrue();
        last = p;
      }
    } finally {
      release.countDown();
      poller.shutdownNow();
      poller.awaitTermination(10, TimeUnit.SECONDS);
    }
  }
}
