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
    long cpu0 = cpuNanos();
    Map<Long, Long> threadCpu0 = threadCpuNanos();
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
    long cpu = cpuNanos() - cpu0;
    System.out.println(MARKER + "report peakLiveMiB=" + (peak >> 20) + " atRestMiB=" + (atRest >> 20)
        + " maxHeapMiB=" + (Runtime.getRuntime().maxMemory() >> 20) + " cpuMs=" + cpu / 1_000_000
        + cpuByThread(threadCpu0, cpu));
    System.out.flush();
    connect.stop();
    System.exit(0);
  }

  /** The CPU time so far of each live thread of this JVM, by thread id. */
  private static Map<Long, Long> threadCpuNanos() {
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<Long, Long> out = new HashMap<>();
    for (long id : threads.getAllThreadIds()) {
      out.put(id, Math.max(0, threads.getThreadCpuTime(id)));
    }
    return out;
  }

  /**
   * The CPU since {@code before} of the live threads by kind ({@code cpuTasksMs}: the tasks' threads, {@code
   * cpuProducersMs}: their producers' senders, {@code cpuConnectorThreadsMs}: threads the connector made, {@code
   * cpuOtherJavaMs}), and {@code cpuJvmMs}: the rest of {@code processNanos}, the JVM's own threads (garbage
   * collection, JIT compilers) and Java threads that ended.
   */
  private static String cpuByThread(Map<Long, Long> before, long processNanos) {
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, Long> byKind = new java.util.LinkedHashMap<>();
    for (String kind : new String[] {"Tasks", "Producers", "ConnectorThreads", "OtherJava"}) {
      byKind.put(kind, 0L);
    }
    long allJava = 0;
    for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t == null) {
        continue; // ended meanwhile
      }
      long cpu = Math.max(0, threads.getThreadCpuTime(t.getThreadId()) - before.getOrDefault(t.getThreadId(), 0L));
      String name = t.getThreadName();
      String kind = name.startsWith("task-thread-") ? "Tasks"
          : name.startsWith("kafka-producer-network-thread") ? "Producers"
          : name.startsWith("sharestream-") ? "ConnectorThreads" : "OtherJava";
      byKind.merge(kind, cpu, Long::sum);
      allJava += cpu;
    }
    StringBuilder out = new StringBuilder();
    byKind.forEach((kind, ns) -> out.append(" cpu").append(kind).append("Ms=").append(ns / 1_000_000));
    return out.append(" cpuJvmMs=").append(Math.max(0, processNanos - allJava) / 1_000_000).toString();
  }

  /** This JVM's CPU time so far, all threads. */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
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
