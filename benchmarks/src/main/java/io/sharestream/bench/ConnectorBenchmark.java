package io.sharestream.bench;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The Kafka connector measured in a real in-process Connect worker and broker, beside its ceiling in the same run:
 * one task streaming a 1,000,000-row table of 10 common columns into a topic, timed until a consumer has seen every
 * record, against a plain {@code KafkaProducer} sending the same serialized records to the same broker, and against
 * the worker replaying records the task made ({@link ReplaySourceConnector}: Connect's own cost); with exactly-once
 * delivery off and on; a table with 10% of its rows deleted by deletion vectors beside the same live rows without
 * them. Then the commit-to-record latency at {@code poll.interval.ms=1000}, and the
 * task's peak heap while it streams a table of one 1 GB file in a JVM of its own ({@link TaskHeapProbe}).
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl benchmarks -am
 * java -Xmx2g -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) io.sharestream.bench.ConnectorBenchmark
 * </pre>
 * (argument {@code throughput}: the at-least-once figures only; {@code heap}: the heap figure only; {@code dv}: the
 * deletion vector figures only)
 */
public final class ConnectorBenchmark {
  private static final int ROWS = 1_000_000;
  private static final int ROUNDS = 2;

  private ConnectorBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("sharestream-connector-bench");
    System.out.printf("machine: %d cores, java %s, heap %d MiB%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
    String only = args.length > 0 ? args[0] : "all"; // "throughput" (at-least-once only), "heap" or "dv"
    if (only.equals("heap")) {
      heap(dir);
      return;
    }
    if (only.equals("dv")) {
      EmbeddedConnectCluster connect = cluster(false);
      try {
        deletionVectors(connect, dir);
      } finally {
        connect.stop();
      }
      return;
    }
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("bench"), Samples.ORDERS).commit();
    table.appendCopies(Samples.orders(0, ROWS / 10), 10); // 10 files of 100,000 rows
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "bench", table.dir(), true)
        .start()) {
      String profile = server.writeProfile(dir.resolve("bench.share")).toString();
      boolean quick = only.equals("throughput");
      for (boolean exactlyOnce : quick ? new boolean[] {false} : new boolean[] {false, true}) {
        EmbeddedConnectCluster connect = cluster(exactlyOnce);
        try {
          throughput(connect, profile, exactlyOnce);
          if (!exactlyOnce) {
            deletionVectors(connect, dir);
          }
        } finally {
          connect.stop();
        }
      }
      if (quick) {
        return;
      }
      EmbeddedConnectCluster connect = cluster(false);
      try {
        latency(connect, dir);
      } finally {
        connect.stop();
      }
      heap(dir);
    }
  }

  static EmbeddedConnectCluster cluster(boolean exactlyOnce) {
    Map<String, String> worker = new HashMap<>();
    worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("key.converter.schemas.enable", "false");
    worker.put("value.converter.schemas.enable", "false");
    worker.put("offset.flush.interval.ms", "1000");
    Properties broker = new Properties();
    if (exactlyOnce) {
      worker.put("exactly.once.source.support", "enabled");
      broker.put("transaction.state.log.replication.factor", "1");
      broker.put("transaction.state.log.min.isr", "1");
    }
    EmbeddedConnectCluster c = new EmbeddedConnectCluster.Builder().name("bench").numWorkers(1).numBrokers(1)
        .workerProps(worker).brokerProps(broker).build();
    c.start();
    return c;
  }

  static Map<String, String> connector(String profile, String table, String topicPrefix, String... extra) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", "io.sharestream.kafka.DeltaSharingSourceConnector");
    c.put("tasks.max", "1");
    c.put("profile.path", profile);
    c.put("tables", table);
    c.put("topic.prefix", topicPrefix);
    c.put("topic.creation.default.replication.factor", "1");
    c.put("topic.creation.default.partitions", "1");
    for (int i = 0; i < extra.length; i += 2) {
      c.put(extra[i], extra[i + 1]);
    }
    return c;
  }

  /**
   * Rows/s of the connector, of the worker replaying records the task made, and of a plain producer sending the same
   * serialized records, each until a consumer saw them all; the best of {@link #ROUNDS} rounds, so that all three
   * run on a JVM whose JIT has settled.
   */
  private static void throughput(EmbeddedConnectCluster connect, String profile, boolean exactlyOnce)
      throws Exception {
    String mode = exactlyOnce ? "exactly-once" : "at-least-once";
    double connectorRate = 0;
    double workerRate = 0;
    double producerRate = 0;
    double bytesPerRow = 0;
    for (int round = 0; round < ROUNDS; round++) {
      Consumed consumed = runConnector(connect, profile, "c" + round + ".", exactlyOnce, null);
      connectorRate = Math.max(connectorRate, consumed.rate());
      bytesPerRow = (double) consumed.bytes.get() / ROWS;
      // Connect's own ceiling: the worker sending records the task already made, the reading taken away
      workerRate = Math.max(workerRate, runConnector(connect, profile, "r" + round + ".", exactlyOnce,
          ReplaySourceConnector.class.getName()).rate());
      producerRate = Math.max(producerRate, plainProducer(connect, consumed.sample, "p" + round, exactlyOnce));
    }
    System.out.printf("connector, %s: %,.0f rows/s, %.1f MB/s of records; plain producer, same records: "
        + "%,.0f rows/s; ratio %.2f (1,000,000 rows x 10 columns, 10 files, one task)%n", mode, connectorRate,
        connectorRate * bytesPerRow / 1e6, producerRate, connectorRate / producerRate);
    System.out.printf("  the worker alone replaying records the task made (Connect's own ceiling, JsonConverter): "
        + "%,.0f rows/s; connector/worker %.2f, worker/plain producer %.2f%n", workerRate, connectorRate / workerRate,
        workerRate / producerRate);
  }

  /** Streams the table with the connector (or {@code replayClass}) into {@code <prefix>s.b.bench}. */
  private static Consumed runConnector(EmbeddedConnectCluster connect, String profile, String prefix,
      boolean exactlyOnce, String replayClass) throws Exception {
    return runConnector(connect, profile, "s.b.bench", ROWS, "0", prefix, exactlyOnce, replayClass);
  }

  private static Consumed runConnector(EmbeddedConnectCluster connect, String profile, String table, long rows,
      String startingVersion, String prefix, boolean exactlyOnce, String replayClass) throws Exception {
    Consumed consumed = new Consumed(connect, prefix + table, rows, exactlyOnce, 10_000);
    Map<String, String> c = connector(profile, table, prefix, "startingVersion", startingVersion);
    if (exactlyOnce) {
      c.put("exactly.once.support", "required");
    }
    if (replayClass != null) {
      c.put("connector.class", replayClass);
      c.put(ReplaySourceConnector.ROWS, Long.toString(rows));
    }
    String name = "bench-" + prefix; // a name of its own: stored offsets are per connector name
    connect.configureConnector(name, c);
    consumed.await();
    connect.deleteConnector(name);
    return consumed;
  }

  /**
   * Deletion vectors: rows/s of one task reading the snapshot of a table whose 1,000,000 rows have 10% deleted
   * through deletion vectors (one per file, in the delta response format), beside the same 900,000 live rows in a
   * table without them, and the deletion vector requests per file; best of {@link #ROUNDS} rounds, interleaved.
   */
  private static void deletionVectors(EmbeddedConnectCluster connect, Path dir) throws Exception {
    DeltaTableWriter withDvs = DeltaTableWriter.create(dir.resolve("dv"), Samples.ORDERS).deletionVectors(true)
        .commit();
    withDvs.appendCopies(Samples.orders(0, ROWS / 10), 10);
    withDvs.deleteWhere(r -> (Long) r.get("id") % 10 == 0);
    List<Map<String, Object>> live = new ArrayList<>(Samples.orders(0, ROWS / 10));
    live.removeIf(r -> (Long) r.get("id") % 10 == 0);
    DeltaTableWriter without = DeltaTableWriter.create(dir.resolve("nodv"), Samples.ORDERS).commit();
    without.appendCopies(live, 10);
    long rows = live.size() * 10L;
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "dv", withDvs.dir(), true)
        .table("s", "b", "nodv", without.dir(), true).start()) {
      String profile = server.writeProfile(dir.resolve("dv.share")).toString();
      double dv = 0;
      double plain = 0;
      long dvRequests = 0;
      for (int round = 0; round < ROUNDS; round++) {
        server.requests().clear();
        // the snapshot: the live rows at the latest version, the deleted ones left out by the vectors
        dv = Math.max(dv, runConnector(connect, profile, "s.b.dv", rows, "snapshot", "dv" + round + ".", false, null)
            .rate());
        dvRequests = server.requests().entries(io.sharestream.testkit.server.Endpoint.STORAGE).stream()
            .filter(e -> e.path.contains("deletion_vector_")).count();
        plain = Math.max(plain, runConnector(connect, profile, "s.b.nodv", rows, "snapshot", "nodv" + round + ".",
            false, null).rate());
      }
      System.out.printf("deletion vectors, at-least-once: %,.0f rows/s over 1,000,000 rows with 10%% deleted by "
          + "deletion vectors; the same %,d live rows without them: %,.0f rows/s; ratio %.2f; deletion vector "
          + "requests per file: %.1f%n", dv, rows, plain, dv / plain, dvRequests / 10.0);
    }
  }

  /** The same serialized records sent by a plain producer (with transactions as the worker uses them). */
  private static double plainProducer(EmbeddedConnectCluster connect, List<ProducerRecord<byte[], byte[]>> sample,
      String topic, boolean exactlyOnce) throws Exception {
    connect.kafka().createTopic(topic, 1);
    Consumed ceiling = new Consumed(connect, topic, ROWS, exactlyOnce, 0);
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    if (exactlyOnce) {
      props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bench-" + topic);
    }
    try (KafkaProducer<byte[], byte[]> producer = connect.kafka().createProducer(props)) {
      if (exactlyOnce) {
        producer.initTransactions();
      }
      for (int sent = 0; sent < ROWS; ) {
        if (exactlyOnce) {
          producer.beginTransaction();
        }
        for (int i = 0; i < 10_000 && sent < ROWS; i++, sent++) { // a poll's worth, as the connector sends
          ProducerRecord<byte[], byte[]> r = sample.get(sent % sample.size());
          producer.send(new ProducerRecord<>(topic, null, r.timestamp(), r.key(), r.value(), r.headers()));
        }
        if (exactlyOnce) {
          producer.commitTransaction();
        }
      }
    }
    ceiling.await();
    return ceiling.rate();
  }

  /** Commit-to-record latency: a one-row commit every ~300 ms, measured from commit time to consumer receipt. */
  private static void latency(EmbeddedConnectCluster connect, Path dir) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("latency"), Samples.ORDERS).commit();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "latency", table.dir(), true)
        .start()) {
      connect.configureConnector("latency", connector(server.writeProfile(dir.resolve("l.share")).toString(),
          "s.b.latency", "l.", "poll.interval.ms", "1000"));
      Thread.sleep(3000);
      int commits = 60;
      Consumed consumed = new Consumed(connect, "l.s.b.latency", commits, false, 0);
      Random random = new Random(1);
      for (int i = 0; i < commits; i++) {
        table.append(Samples.orders(i, i + 1));
        Thread.sleep(200 + random.nextInt(200));
      }
      consumed.await();
      double[] ms = consumed.latencies.stream().mapToDouble(Long::doubleValue).sorted().toArray();
      System.out.printf("commit-to-record latency at poll.interval.ms=1000: p50 %.0f ms, p99 %.0f ms (%d commits)%n",
          ms[ms.length / 2], ms[(int) Math.ceil(ms.length * 0.99) - 1], ms.length);
      connect.deleteConnector("latency");
    }
  }

  /**
   * Peak live heap of the task alone, in a JVM of its own with {@code -Xmx64m}, while it streams a table of one
   * 1 GB file: the task must finish within that heap.
   */
  private static void heap(Path dir) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("huge"), Samples.ORDERS).commit();
    Random random = new Random(7);
    long rows = 7_000_000;
    table.appendGenerated(rows, i -> hugeRow(i, random));
    long size = table.snapshot().sizeInBytes();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "huge", table.dir(), true)
        .start()) {
      Map<String, String> figures = ChildJvm.run("64m", TaskHeapProbe.class, TaskHeapProbe.MARKER,
          server.writeProfile(dir.resolve("h.share")).toString(), "s.b.huge", Long.toString(rows));
      if (!figures.get("rows").equals(Long.toString(rows))) {
        throw new IllegalStateException("the heap probe saw " + figures.get("rows") + " rows of " + rows);
      }
      System.out.printf("task heap while streaming one %.2f GB file (%,d rows, 128 MB row groups) with -Xmx64m: "
          + "peak live %s MiB, of which %s MiB the JVM's own before the task started (the task alone in its own "
          + "JVM)%n", size / 1e9, rows, figures.get("peakLiveMiB"), figures.get("atRestMiB"));
    }
  }

  private static Map<String, Object> hugeRow(long i, Random random) {
    Map<String, Object> r = Samples.order(i, random);
    StringBuilder note = new StringBuilder(160);
    for (int k = 0; k < 10; k++) {
      note.append(Long.toHexString(random.nextLong()));
    }
    r.put("note", note.toString());
    return r;
  }
}
