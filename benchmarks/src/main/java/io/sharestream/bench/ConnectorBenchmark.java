package io.sharestream.bench;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The Kafka connector measured in a real in-process Connect worker and broker, beside its ceiling in the same run:
 * one task streaming a 1,000,000-row table of 10 common columns into a topic, timed until a consumer has seen every
 * record, against a plain {@code KafkaProducer} sending the same serialized records to the same broker; with
 * exactly-once delivery off and on. Then the peak heap while streaming a table of one 1 GB file, and the
 * commit-to-record latency at {@code poll.interval.ms=1000}.
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl benchmarks -am
 * java -Xmx2g -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) io.sharestream.bench.ConnectorBenchmark
 * </pre>
 */
public final class ConnectorBenchmark {
  private static final int ROWS = 1_000_000;
  private static final DeltaType.StructType SCHEMA = DeltaType.struct(
      DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("name", DeltaType.STRING),
      DeltaType.field("category", DeltaType.STRING), DeltaType.field("score", DeltaType.DOUBLE),
      DeltaType.field("qty", DeltaType.INTEGER), DeltaType.field("flag", DeltaType.BOOLEAN),
      DeltaType.field("amount", DeltaType.decimal(18, 2)), DeltaType.field("day", DeltaType.DATE),
      DeltaType.field("at", DeltaType.TIMESTAMP), DeltaType.field("note", DeltaType.STRING));

  private ConnectorBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("sharestream-connector-bench");
    System.out.printf("machine: %d cores, java %s, heap %d MiB%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("bench"), SCHEMA).commit();
    table.appendCopies(rows(0, ROWS / 10), 10); // 10 files of 100,000 rows
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "bench", table.dir(), true)
        .start()) {
      String profile = server.writeProfile(dir.resolve("bench.share")).toString();
      boolean quick = args.length > 0 && args[0].equals("throughput"); // only the at-least-once figure (profiling)
      for (boolean exactlyOnce : quick ? new boolean[] {false} : new boolean[] {false, true}) {
        EmbeddedConnectCluster connect = cluster(exactlyOnce);
        try {
          throughput(connect, profile, exactlyOnce);
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
        heap(connect, dir);
      } finally {
        connect.stop();
      }
    }
  }

  private static EmbeddedConnectCluster cluster(boolean exactlyOnce) {
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

  private static Map<String, String> connector(String profile, String table, String topicPrefix, String... extra) {
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

  /** Rows/s of the connector, then of a plain producer sending the same bytes, until a consumer saw them all. */
  private static void throughput(EmbeddedConnectCluster connect, String profile, boolean exactlyOnce)
      throws Exception {
    String mode = exactlyOnce ? "exactly-once" : "at-least-once";
    String topic = "c.s.b.bench";
    Consumed consumed = new Consumed(connect, topic, ROWS, exactlyOnce, 10_000);
    Map<String, String> c = connector(profile, "s.b.bench", "c.", "startingVersion", "0");
    if (exactlyOnce) {
      c.put("exactly.once.support", "required");
    }
    connect.configureConnector("bench", c);
    consumed.await();
    double connectorRate = consumed.rate();
    long bytes = consumed.bytes.get();
    connect.deleteConnector("bench");

    // the ceiling: the same serialized records sent by a plain producer (with transactions as the worker uses them)
    String plain = "plain-" + mode;
    connect.kafka().createTopic(plain, 1);
    Consumed ceiling = new Consumed(connect, plain, ROWS, exactlyOnce, 0);
    Map<String, Object> props = new HashMap<>();
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    if (exactlyOnce) {
      props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "bench-plain");
    }
    try (KafkaProducer<byte[], byte[]> producer = connect.kafka().createProducer(props)) {
      if (exactlyOnce) {
        producer.initTransactions();
      }
      List<ProducerRecord<byte[], byte[]>> sample = consumed.sample;
      for (int sent = 0; sent < ROWS; ) {
        if (exactlyOnce) {
          producer.beginTransaction();
        }
        for (int i = 0; i < 10_000 && sent < ROWS; i++, sent++) { // a poll's worth, as the connector sends
          ProducerRecord<byte[], byte[]> r = sample.get(sent % sample.size());
          producer.send(new ProducerRecord<>(plain, null, r.timestamp(), r.key(), r.value(), r.headers()));
        }
        if (exactlyOnce) {
          producer.commitTransaction();
        }
      }
    }
    ceiling.await();
    double producerRate = ceiling.rate();
    System.out.printf("connector, %s: %,.0f rows/s, %.1f MB/s of records; plain producer, same records: "
        + "%,.0f rows/s; ratio %.2f (1,000,000 rows x 10 columns, 10 files, one task)%n", mode, connectorRate,
        connectorRate * bytes / ROWS / 1e6, producerRate, connectorRate / producerRate);
  }

  /** Commit-to-record latency: a one-row commit every ~300 ms, measured from commit time to consumer receipt. */
  private static void latency(EmbeddedConnectCluster connect, Path dir) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("latency"), SCHEMA).commit();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "latency", table.dir(), true)
        .start()) {
      connect.configureConnector("latency", connector(server.writeProfile(dir.resolve("l.share")).toString(),
          "s.b.latency", "l.", "poll.interval.ms", "1000"));
      Thread.sleep(3000);
      int commits = 60;
      Consumed consumed = new Consumed(connect, "l.s.b.latency", commits, false, 0);
      Random random = new Random(1);
      for (int i = 0; i < commits; i++) {
        table.append(rows(i, i + 1));
        Thread.sleep(200 + random.nextInt(200));
      }
      consumed.await();
      double[] ms = consumed.latencies.stream().mapToDouble(Long::doubleValue).sorted().toArray();
      System.out.printf("commit-to-record latency at poll.interval.ms=1000: p50 %.0f ms, p99 %.0f ms (%d commits)%n",
          ms[ms.length / 2], ms[(int) Math.ceil(ms.length * 0.99) - 1], ms.length);
      connect.deleteConnector("latency");
    }
  }

  /** Peak heap after collections (the live set) while one task streams a table of one 1 GB file. */
  private static void heap(EmbeddedConnectCluster connect, Path dir) throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("huge"), SCHEMA).commit();
    Random random = new Random(7);
    long rows = 7_000_000;
    table.appendGenerated(rows, i -> hugeRow(i, random));
    long size = table.snapshot().sizeInBytes();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "huge", table.dir(), true)
        .start()) {
      System.gc();
      LiveHeap live = new LiveHeap();
      long before = live.peak.get();
      live.peak.set(0);
      Consumed consumed = new Consumed(connect, "h.s.b.huge", rows, false, 0);
      connect.configureConnector("huge", connector(server.writeProfile(dir.resolve("h.share")).toString(),
          "s.b.huge", "h.", "startingVersion", "0"));
      consumed.await();
      System.out.printf("peak heap after GC while streaming one %.2f GB file (%,d rows, 128 MB row groups): %d MiB; "
          + "at rest before: %d MiB (the whole JVM: broker, worker, kit server and the task)%n", size / 1e9, rows,
          live.peak.get() >> 20, before >> 20);
      connect.deleteConnector("huge");
    }
  }

  /** The heap left after each collection (the live set), its peak kept. */
  private static final class LiveHeap {
    final AtomicLong peak = new AtomicLong();

    LiveHeap() {
      for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((javax.management.NotificationEmitter) gc).addNotificationListener((n, handback) -> {
          if (!n.getType().equals(com.sun.management.GarbageCollectionNotificationInfo
              .GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
          }
          com.sun.management.GarbageCollectionNotificationInfo info = com.sun.management
              .GarbageCollectionNotificationInfo.from((javax.management.openmbean.CompositeData) n.getUserData());
          long used = 0;
          for (Map.Entry<String, java.lang.management.MemoryUsage> e
              : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (!e.getKey().contains("Metaspace") && !e.getKey().contains("CodeHeap")
                && !e.getKey().contains("Compressed Class")) {
              used += e.getValue().getUsed();
            }
          }
          peak.accumulateAndGet(used, Math::max);
        }, null, null);
      }
      System.gc();
    }
  }

  /** Counts a topic's records in a background consumer: first and last arrival, bytes, and a sample to resend. */
  private static final class Consumed {
    final AtomicLong count = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final List<ProducerRecord<byte[], byte[]>> sample = new ArrayList<>();
    final List<Long> latencies = new ArrayList<>();
    final long expected;
    final Thread thread;
    volatile long first;
    volatile long last;

    Consumed(EmbeddedConnectCluster connect, String topic, long expected, boolean readCommitted, int keep) {
      this.expected = expected;
      Map<String, Object> props = new HashMap<>();
      props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + System.nanoTime());
      props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
      props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
      KafkaConsumer<byte[], byte[]> consumer = connect.kafka().createConsumer(props);
      consumer.subscribe(List.of(topic));
      thread = new Thread(() -> {
        try (consumer) {
          while (count.get() < expected) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
              long now = System.nanoTime();
              if (first == 0) {
                first = now;
              }
              last = now;
              count.incrementAndGet();
              bytes.addAndGet(r.serializedValueSize() + Math.max(0, r.serializedKeySize()));
              latencies.add(System.currentTimeMillis() - r.timestamp());
              if (sample.size() < keep) {
                sample.add(new ProducerRecord<>(topic, null, r.timestamp(), r.key(), r.value(), r.headers()));
              }
            }
          }
        }
      }, "bench-consumer");
      thread.start();
    }

    void await() throws InterruptedException {
      thread.join(Duration.ofMinutes(15).toMillis());
      if (count.get() < expected) {
        throw new IllegalStateException("only " + count.get() + " of " + expected + " records arrived");
      }
    }

    double rate() {
      return (count.get() - 1) / ((last - first) / 1e9);
    }
  }

  private static List<Map<String, Object>> rows(long from, long to) {
    List<Map<String, Object>> out = new ArrayList<>();
    Random random = new Random(from);
    for (long i = from; i < to; i++) {
      out.add(row(i, random));
    }
    return out;
  }

  private static Map<String, Object> row(long i, Random random) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", i);
    r.put("name", "customer-" + (i % 10_000));
    r.put("category", Arrays.asList("books", "games", "garden", "music", "tools").get((int) (i % 5)));
    r.put("score", random.nextDouble() * 100);
    r.put("qty", random.nextInt(50));
    r.put("flag", random.nextBoolean());
    r.put("amount", BigDecimal.valueOf(random.nextInt(1_000_000), 2));
    r.put("day", LocalDate.of(2024, 1, 1).plusDays(i % 365));
    r.put("at", Instant.ofEpochSecond(1_700_000_000L + i, (i % 1000) * 1000));
    r.put("note", "order " + i);
    return r;
  }

  private static Map<String, Object> hugeRow(long i, Random random) {
    Map<String, Object> r = row(i, random);
    StringBuilder note = new StringBuilder(160);
    for (int k = 0; k < 10; k++) {
      note.append(Long.toHexString(random.nextLong()));
    }
    r.put("note", note.toString());
    return r;
  }
}
