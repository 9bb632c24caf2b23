package io.sharestream.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * Counts the records of topics in a background consumer: first and last arrival (overall and each topic's first),
 * bytes, commit-to-receipt times for small counts, and a sample to resend. Or, {@link #byEndOffsets}, from the topics'
 * end offsets alone, read every 100 ms: no record is fetched, so counting many topics costs the broker (which shares
 * the machine with the worker measured) next to nothing.
 */
final class Consumed {
  /** The counts whose arrival times {@link #marks} keeps. */
  static final long[] MARK_COUNTS = {1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000,
      1_000_000};
  final AtomicLong count = new AtomicLong();
  /** Arrival ({@link System#nanoTime()}) of the record of each of {@link #MARK_COUNTS}, 0 while not there. */
  final long[] marks = new long[MARK_COUNTS.length];
  final AtomicLong bytes = new AtomicLong();
  final List<ProducerRecord<byte[], byte[]>> sample = new ArrayList<>();
  /** Each topic's first arrival ({@link System#nanoTime()}). */
  final Map<String, Long> firstByTopic = new ConcurrentHashMap<>();
  /** Commit-to-receipt times, kept for small counts only. */
  final List<Long> latencies;
  final long expected;
  final Thread thread;
  volatile long first;
  volatile long last;
  private volatile boolean stopped;

  Consumed(EmbeddedConnectCluster connect, String topic, long expected, boolean readCommitted, int keep) {
    this(connect, List.of(topic), expected, readCommitted, keep);
  }

  Consumed(EmbeddedConnectCluster connect, List<String> topics, long expected, boolean readCommitted, int keep) {
    this(connect, topics, expected, readCommitted, keep, false);
  }

  /**
   * Counts the records of single-partition {@code topics} by their end offsets (records written without
   * transactions: each offset is a record); no bytes, latencies or sample.
   */
  static Consumed byEndOffsets(EmbeddedConnectCluster connect, List<String> topics, long expected) {
    return new Consumed(connect, topics, expected, false, 0, true);
  }

  private Consumed(EmbeddedConnectCluster connect, List<String> topics, long expected, boolean readCommitted,
      int keep, boolean endOffsets) {
    this.expected = expected;
    this.latencies = expected <= 10_000 ? new ArrayList<>() : null;
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + System.nanoTime());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    KafkaConsumer<byte[], byte[]> consumer = connect.kafka().createConsumer(props);
    if (endOffsets) {
      thread = new Thread(() -> countEndOffsets(consumer, topics), "bench-end-offsets");
      thread.start();
      return;
    }
    consumer.subscribe(topics);
    thread = new Thread(() -> {
      try (consumer) {
        while (count.get() < expected && !stopped) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
            long now = System.nanoTime();
            if (first == 0) {
              first = now;
            }
            last = now;
            firstByTopic.putIfAbsent(r.topic(), now);
            long c = count.incrementAndGet();
            int m = java.util.Arrays.binarySearch(MARK_COUNTS, c);
            if (m >= 0) {
              marks[m] = now;
            }
            bytes.addAndGet(r.serializedValueSize() + Math.max(0, r.serializedKeySize()));
            if (latencies != null) {
              latencies.add(System.currentTimeMillis() - r.timestamp());
            }
            if (sample.size() < keep) {
              sample.add(new ProducerRecord<>(r.topic(), null, r.timestamp(), r.key(), r.value(), r.headers()));
            }
          }
        }
      }
    }, "bench-consumer");
    thread.start();
  }

  private void countEndOffsets(KafkaConsumer<byte[], byte[]> consumer, List<String> topics) {
    List<TopicPartition> partitions = new ArrayList<>();
    topics.forEach(t -> partitions.add(new TopicPartition(t, 0)));
    try (consumer) {
      while (count.get() < expected && !stopped) {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        long now = System.nanoTime();
        long total = 0;
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
          total += e.getValue();
          if (e.getValue() > 0) {
            firstByTopic.putIfAbsent(e.getKey().topic(), now);
          }
        }
        if (total > count.get()) {
          first = first == 0 ? now : first;
          last = now;
          for (int m = 0; m < MARK_COUNTS.length; m++) {
            if (marks[m] == 0 && total >= MARK_COUNTS[m]) {
              marks[m] = now;
            }
          }
          count.set(total);
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  void await() throws InterruptedException {
    thread.join(Duration.ofMinutes(15).toMillis());
    if (count.get() < expected) {
      throw new IllegalStateException("only " + count.get() + " of " + expected + " records arrived");
    }
  }

  /**
   * Waits for every record, at most {@code max}, while {@code producing} holds (e.g. the worker JVM is alive); false,
   * and the consumer stopped, when time ran out or it stopped holding first.
   */
  boolean awaitWhile(java.util.function.BooleanSupplier producing, Duration max) throws InterruptedException {
    long end = System.nanoTime() + max.toNanos();
    while (thread.isAlive() && producing.getAsBoolean() && System.nanoTime() < end) {
      thread.join(200);
    }
    thread.join(2000); // what was on its way
    stopped = true;
    thread.join();
    return count.get() >= expected;
  }

  /**
   * Microseconds a record from the {@code from}th to the {@code to}th (both of {@link #MARK_COUNTS}), -1 when the
   * {@code to}th did not arrive.
   */
  double microsPerRecord(long from, long to) {
    long a = marks[java.util.Arrays.binarySearch(MARK_COUNTS, from)];
    long b = marks[java.util.Arrays.binarySearch(MARK_COUNTS, to)];
    return a == 0 || b == 0 ? -1 : (b - a) / 1e3 / (to - from);
  }

  /** Records per second from the first arrival to the last. */
  double rate() {
    return (count.get() - 1) / ((last - first) / 1e9);
  }
}
