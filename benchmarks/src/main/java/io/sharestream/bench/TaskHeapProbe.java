package io.sharestream.bench;

import io.sharestream.kafka.DeltaSharingSourceTask;
import io.sharestream.testkit.jvm.LiveHeap;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * The connector task alone in a JVM of its own, so its heap is what is measured: polls a table to its end, drops
 * the records (as a worker does once they are handed to the producer) and prints the peak live heap (after each
 * collection) and how many rows it saw. {@link ConnectorBenchmark} starts it with a small {@code -Xmx}.
 *
 * <p>Arguments: profile path, table, expected rows.
 */
public final class TaskHeapProbe {
  /** Starts the line of results. */
  static final String MARKER = "PROBE ";

  private TaskHeapProbe() {}

  public static void main(String[] args) throws Exception {
    long expected = Long.parseLong(args[2]);
    LiveHeap live = LiveHeap.watch();
    System.gc();
    long atRest = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(); // the JVM's own, no task yet
    Map<String, String> config = new HashMap<>();
    config.put("profile.path", args[0]);
    config.put("tables", args[1]);
    config.put("startingVersion", "0");
    DeltaSharingSourceTask task = new DeltaSharingSourceTask();
    task.initialize(new NoOffsetsContext(config));
    task.start(config);
    long rows = 0;
    try {
      while (rows < expected) {
        List<SourceRecord> batch = task.poll();
        rows += batch == null ? 0 : batch.size();
      }
    } finally {
      task.stop();
    }
    System.out.printf(MARKER + "rows=%d peakLiveMiB=%d atRestMiB=%d maxHeapMiB=%d%n", rows, live.peak() >> 20,
        atRest >> 20, Runtime.getRuntime().maxMemory() >> 20);
  }
}
