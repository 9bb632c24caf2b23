package io.sharestream.bench;

import io.sharestream.testkit.jvm.LiveHeap;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.cli.ConnectStandalone;
import org.apache.kafka.connect.runtime.Connect;
import org.apache.kafka.connect.runtime.standalone.StandaloneHerder;
import org.apache.kafka.connect.util.FutureCallback;

/**
 * A real standalone Connect worker in a JVM of its own (the broker elsewhere), so that its heap is the worker's and
 * its tasks' only. Started by {@link WorkerJvm}: starts the worker, measures its heap at rest (after a collection),
 * creates the connector, prints {@code WORKER started atRestMiB=...} (then {@code WORKER heap peakLiveMiB=...} every
 * second), then on the line {@code report} on its standard input prints the peak live heap and the CPU time since the
 * connector was created (in all and by kind of thread) and stops.
 *
 * <p>Arguments: worker properties file, connector properties file.
 */
public final class WorkerMain {
  static final String MARKER = "WORKER ";

  private WorkerMain() {}

  public static void main(String[] args) throws Exception {
    Connect<StandaloneHerder> connect = new ConnectStandalone(args[0]).startConnect(properties(Path.of(args[0])));
    Map<String, String> connector = properties(Path.of(args[1]));
    System.gc();
    long atRest = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    LiveHeap live = LiveHeap.watch();
    ThreadCpu cpu = new ThreadCpu();
    FutureCallback<Object> created = new FutureCallback<>();
    connect.herder().putConnectorConfig(connector.get("name"), connector, false, (e, r) -> created.onCompletion(e, r));
    created.get(60, TimeUnit.SECONDS);
    System.out.println(MARKER + "started atRestMiB=" + (atRest >> 20));
    System.out.flush();
    // the peak so far every second: what a worker that runs out of heap had reached before
    Thread heap = new Thread(() -> {
      try {
        while (true) {
          Thread.sleep(1000);
          System.out.println(MARKER + "heap peakLiveMiB=" + (live.peak() >> 20));
          System.out.flush();
        }
      } catch (InterruptedException stop) {
        // the worker stops
      }
    }, "heap-report");
    heap.setDaemon(true);
    heap.start();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("report"); line = in.readLine()) {
      // wait for the parent
    }
    long peak = live.peak();
    Map<String, Long> byKind = cpu.byKind(WorkerMain::kind, "Tasks", "Producers", "ConnectorThreads", "OtherJava");
    System.out.println(MARKER + "report peakLiveMiB=" + (peak >> 20) + " atRestMiB=" + (atRest >> 20)
        + " maxHeapMiB=" + (Runtime.getRuntime().maxMemory() >> 20) + " cpuMs="
        + ThreadCpu.totalMs(byKind) + ThreadCpu.pairs(byKind));
    System.out.flush();
    connect.stop();
    System.exit(0);
  }

  /** The kind of a worker's thread, for {@link ThreadCpu}. */
  private static String kind(String thread) {
    return thread.startsWith("task-thread-") ? "Tasks"
        : thread.startsWith("kafka-producer-network-thread") ? "Producers"
        : thread.startsWith("sharestream-") ? "ConnectorThreads" : "OtherJava";
  }

  private static Map<String, String> properties(Path file) throws Exception {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    }
    Map<String, String> m = new HashMap<>();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return m;
  }
}
