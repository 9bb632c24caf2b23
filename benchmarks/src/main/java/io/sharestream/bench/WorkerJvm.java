package io.sharestream.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A standalone Connect worker ({@link WorkerMain}) in a JVM of its own with a heap of its own, running one connector
 * against a broker of this JVM: {@link #start} returns once the connector is created, {@link #report} gives the
 * worker JVM's peak live heap since then.
 */
final class WorkerJvm implements AutoCloseable {
  private final Process process;
  private final Path err;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  /** The worker's heap at rest (after a collection, before the connector), MiB. */
  final long atRestMiB;
  /** The peak live heap (MiB) the worker last reported (every second), -1 before its first report. */
  private volatile long lastPeakMiB = -1;
  /** The worker's line telling it ran out of heap, if it printed one. */
  private volatile String outOfMemory;

  private WorkerJvm(String heap, String bootstrapServers, Map<String, String> workerOverrides,
      Map<String, String> connector, Path dir) throws Exception {
    Properties worker = new Properties();
    worker.put("bootstrap.servers", bootstrapServers);
    worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("key.converter.schemas.enable", "false");
    worker.put("value.converter.schemas.enable", "false");
    worker.put("offset.storage.file.filename", Files.createTempFile(dir, "offsets", ".dat").toString());
    worker.put("offset.flush.interval.ms", "1000");
    worker.put("listeners", "http://127.0.0.1:0");
    // plugins found by their service manifests, as a worker's plugin.path would hold only plugins: scanning this
    // whole benchmark classpath (Hadoop, Kafka, Parquet) by reflection is not what a worker does
    worker.put("plugin.discovery", "service_load");
    worker.putAll(workerOverrides);
    Properties c = new Properties();
    c.putAll(connector);
    err = Files.createTempFile(dir, "worker", ".err");
    // a worker out of heap ends (as one should be run), rather than go on with its tasks failed
    process = ChildJvm.start(heap, java.util.List.of("-XX:+ExitOnOutOfMemoryError"), WorkerMain.class, err,
        write(worker, dir, "worker"), write(c, dir, "connector"));
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          if (line.startsWith(WorkerMain.MARKER + "heap ")) {
            lastPeakMiB = Long.parseLong(ChildJvm.pairs(line).get("peakLiveMiB"));
            continue;
          }
          if (line.contains("OutOfMemoryError")) {
            outOfMemory = line.trim();
          }
          lines.add(line);
        }
      } catch (java.io.IOException gone) {
        // the worker has ended
      }
    }, "worker-output");
    reader.setDaemon(true);
    reader.start();
    atRestMiB = Long.parseLong(await("started").get("atRestMiB"));
  }

  /**
   * Starts the worker with {@code -Xmx<heap>} and {@code workerOverrides} and creates {@code connector} (its
   * settings, with a name) in it.
   */
  static WorkerJvm start(String heap, String bootstrapServers, Map<String, String> workerOverrides,
      Map<String, String> connector, Path dir) throws Exception {
    return new WorkerJvm(heap, bootstrapServers, workerOverrides, connector, dir);
  }

  /** The worker JVM's peak live heap since the connector was created, and its maximum heap (MiB); stops it. */
  Map<String, String> report() throws Exception {
    OutputStream in = process.getOutputStream();
    in.write("report\n".getBytes(StandardCharsets.UTF_8));
    in.flush();
    Map<String, String> figures = await("report");
    process.waitFor(60, TimeUnit.SECONDS);
    return figures;
  }

  /** The last lines of the worker's standard error. */
  String errors() throws java.io.IOException {
    return ChildJvm.tail(err);
  }

  private Map<String, String> await(String what) throws Exception {
    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (System.nanoTime() < end) {
      String line = lines.poll(1, TimeUnit.SECONDS);
      if (line != null && line.startsWith(WorkerMain.MARKER + what)) {
        return ChildJvm.pairs(line);
      }
      if (line == null && !process.isAlive()) {
        break;
      }
    }
    throw new IllegalStateException("the worker JVM did not report '" + what + "'" + ChildJvm.tail(err));
  }

  /** The peak live heap (MiB) the worker last reported (every second): what one that ran out of heap had reached. */
  long lastPeakMiB() {
    return lastPeakMiB;
  }

  /**
   * Why the worker JVM ended, once it did: its {@code OutOfMemoryError} line (standard output or error), else its
   * exit code; null while it runs.
   */
  String ending() throws Exception {
    if (process.isAlive()) {
      return null;
    }
    process.waitFor(10, TimeUnit.SECONDS);
    String line = outOfMemory;
    if (line == null) {
      for (String l : Files.readAllLines(err, StandardCharsets.UTF_8)) {
        if (l.contains("OutOfMemoryError")) {
          line = l.trim();
        }
      }
    }
    return line != null ? line : "exit code " + process.exitValue() + ChildJvm.tail(err);
  }

  /** Whether the worker JVM is still running (it is not once it ran out of heap). */
  boolean alive() {
    return process.isAlive();
  }

  @Override
  public void close() throws Exception {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  private static String write(Properties p, Path dir, String name) throws Exception {
    Path file = Files.createTempFile(dir, name, ".properties");
    try (Writer w = Files.newBufferedWriter(file)) {
      p.store(w, null);
    }
    return file.toString();
  }
}
