package io.sharestream.bench;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * (e) of {@link ScaleBenchmark} (issue #25): one version of 10,000, 100,000 and 1,000,000 files of one row each
 * ({@link DeltaTableWriter#appendAliases}: one physical Parquet file behind distinct logical files, so the kit
 * writes a million-file version in seconds), streamed by the connector in a {@code -Xmx256m} standalone worker
 * ({@link WorkerJvm}, tasks.max=1) (i) from history ({@code startingVersion=1}, the version itself), (ii) as a
 * snapshot start ({@code startingVersion=snapshot}) and (iii) from history of the same version in a table with
 * deletion vectors enabled, served by a kit that refuses history in the delta format, so the version's files are the
 * difference of the snapshots around it ({@link #derived}), each for at most {@link #STREAM_SECONDS}. Per size and
 * start: first record after the connector's creation, files streamed and files/s, the per-file cost (µs/file over the
 * stream, first record to last: comparable across sizes however far each run got), the worker's peak live heap, and
 * how the run ended (complete, stopped at the bound, or the worker out of heap: that is then the figure). Ceilings
 * from the same run: the kit serving each listing to a client that only drains it ({@link KitListing}), and the
 * core alone streaming the version from history in this JVM ({@link CoreDrain}, {@link #CORE_SECONDS}).
 *
 * <p>{@code -Dbench.million.sizes=10000,100000} picks the sizes, {@code -Dbench.million.seconds=N} the bound.
 */
final class MillionFiles {
  private static final String WORKER_HEAP = "256m";
  private static final long WORKER_HEAP_MIB = 256;
  private static final long STREAM_SECONDS = Long.getLong("bench.million.seconds", 120);
  private static final long CORE_SECONDS = Long.getLong("bench.million.coreSeconds", 30);
  /**
   * Stretches of the stream ({from, to} records) whose per-file cost is compared across sizes: the same files of each
   * version, at the same point of the worker's warm-up.
   */
  private static final long[][] WINDOWS = {{2_000, 10_000}, {10_000, 100_000}};
  /** The version the files are committed at (version 0 creates the table). */
  private static final long VERSION = 1;

  private static int runs;
  /** The run whose history a server refusing the delta format makes the core derive from snapshots. */
  private static final String DERIVED = "derived";

  private MillionFiles() {}

  /** One connector run's figures. */
  private static final class Run {
    String start;
    long files;
    long records;
    double firstSeconds = -1;
    double doneSeconds;
    double perFileMicros = -1;
    /** µs/file over the same stretches of every size ({@link #WINDOWS}): JIT warm-up alike, comparable. */
    double[] windowMicros = new double[WINDOWS.length];
    long peakLiveMiB = -1;
    String ending;

    double filesPerSecond() {
      return records / doneSeconds;
    }
  }

  static void run(EmbeddedConnectCluster kafka, Path dir, ExecutorService footers) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    for (String s : System.getProperty("bench.million.sizes", "10000,100000,1000000").split(",")) {
      sizes.add(Integer.parseInt(s.trim()));
    }
    Map<Integer, Run[]> all = new LinkedHashMap<>();
    Map<Integer, Double> coreMicros = new LinkedHashMap<>();
    for (int n : sizes) {
      DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("aliased-" + n), Samples.ORDERS).commit();
      long t0 = System.nanoTime();
      long v = t.appendAliases(Samples.orders(0, 1), n);
      if (v != VERSION) {
        throw new IllegalStateException("the files went to version " + v);
      }
      System.out.printf("    (wrote one version of %,d files in %.1f s: one %,d-byte Parquet file, a %.0f MB commit)%n",
          n, (System.nanoTime() - t0) / 1e9, Files.size(firstParquet(t.dir())),
          Files.size(t.log().commitFile(VERSION)) / 1e6);
      try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "t", t.dir(), true).start()) {
        TableRef ref = new TableRef("s", "b", "t");
        KitListing history = KitListing.drain(server, "s", "b", "t", "{\"startingVersion\": " + VERSION + "}");
        KitListing snapshot = KitListing.drain(server, "s", "b", "t", "{\"version\": " + VERSION + "}");
        System.out.printf("    (the kit serving the listing to a client that drains it: history %,d files in %.1f s, "
            + "%,.0f files/s, first file line after %.2f s; snapshot %,d files in %.1f s, %,.0f files/s, first file "
            + "line after %.2f s; %.0f bytes a line)%n", history.files(), history.seconds, history.filesPerSecond(),
            history.firstFileSeconds, snapshot.files(), snapshot.seconds, snapshot.filesPerSecond(),
            snapshot.firstFileSeconds, history.bytes / (double) history.lines);
        String core;
        try {
          CoreDrain d = CoreDrain.run(client(server), List.of(ref), Long.toString(VERSION), footers, CORE_SECONDS);
          coreMicros.put(n, d.seconds * 1e6 / Math.max(1, d.files));
          core = String.format("%,d files in %.1f s%s: %,.0f files/s, %,.0f µs/file (listing included)", d.files,
              d.seconds, d.partial ? " (stopped at its bound)" : "", d.files / d.seconds, coreMicros.get(n));
        } catch (OutOfMemoryError e) {
          core = "out of heap in this JVM (" + (Runtime.getRuntime().maxMemory() >> 20) + " MiB)";
          System.gc();
        }
        System.out.printf("    (the core alone in this JVM, from history: %s)%n", core);
        Run fromHistory = connector(kafka, server, dir, ref, n, Long.toString(VERSION));
        Run fromSnapshot = connector(kafka, server, dir, ref, n, "snapshot");
        Run derived = derived(kafka, dir, ref, n);
        Run[] byStart = {fromHistory, fromSnapshot, derived};
        for (Run r : byStart) {
          print(n, r, r.start.equals("snapshot") || r.start.equals(DERIVED) ? snapshot : history);
        }
        all.put(n, byStart);
      }
      deleteTree(t.dir());
    }
    summary(all, coreMicros);
  }

  /**
   * (iii): the same version in a table with deletion vectors enabled (its history needs the delta format), served by
   * a kit that refuses history in the delta format (as the reference server does): the connector derives the
   * version's files from the snapshots before and after it.
   */
  private static Run derived(EmbeddedConnectCluster kafka, Path dir, TableRef ref, int n) throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("aliased-dv-" + n), Samples.ORDERS).deletionVectors(true)
        .commit();
    if (t.appendAliases(Samples.orders(0, 1), n) != VERSION) {
      throw new IllegalStateException("the files went to another version");
    }
    try (DeltaSharingServer refusing = DeltaSharingServer.builder().table("s", "b", "t", t.dir(), true)
        .historyInDeltaFormat(false).start()) {
      Run r = connector(kafka, refusing, dir, ref, n, Long.toString(VERSION));
      r.start = DERIVED;
      return r;
    } finally {
      deleteTree(t.dir());
    }
  }

  /** The connector over the table from {@code start} in a 256 MiB worker, for at most {@link #STREAM_SECONDS}. */
  private static Run connector(EmbeddedConnectCluster kafka, DeltaSharingServer server, Path dir, TableRef ref,
      int files, String start) throws Exception {
    String profile = server.writeProfile(Files.createTempFile(dir, "million", ".share")).toString();
    String topicPrefix = "m" + (++runs) + ".";
    String topic = topicPrefix + ref;
    try (Admin admin = kafka.kafka().createAdminClient()) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    Map<String, String> connector = ConnectorBenchmark.connector(profile, ref.toString(), topicPrefix, "tasks.max",
        "1", "startingVersion", start, "name", "million");
    Consumed consumed = new Consumed(kafka, topic, files, false, 0); // one row, one record, per file
    Run r = new Run();
    r.start = start;
    r.files = files;
    WorkerJvm started;
    try {
      started = WorkerJvm.start(WORKER_HEAP, kafka.kafka().bootstrapServers(), Map.of(), connector, dir);
    } catch (Exception e) {
      consumed.awaitWhile(() -> false, Duration.ZERO); // stops the consumer
      throw e;
    }
    try (WorkerJvm worker = started) {
      long t0 = System.nanoTime();
      boolean complete = consumed.awaitWhile(worker::alive, Duration.ofSeconds(STREAM_SECONDS));
      long done = System.nanoTime();
      r.records = consumed.count.get();
      r.doneSeconds = ((consumed.last != 0 ? consumed.last : done) - t0) / 1e9;
      if (consumed.first != 0) {
        r.firstSeconds = (consumed.first - t0) / 1e9;
      }
      if (r.records > 1) {
        r.perFileMicros = (consumed.last - consumed.first) / 1e3 / (r.records - 1);
      }
      for (int w = 0; w < WINDOWS.length; w++) {
        r.windowMicros[w] = consumed.microsPerRecord(WINDOWS[w][0], WINDOWS[w][1]);
      }
      String ended = worker.ending();
      if (ended != null) {
        r.ending = "FAILED: the worker JVM ended after " + String.format("%.0f s: ", (done - t0) / 1e9) + ended;
        r.peakLiveMiB = worker.lastPeakMiB();
        r.doneSeconds = (done - t0) / 1e9;
      } else {
        r.ending = complete ? "complete" : "stopped at the " + STREAM_SECONDS + " s bound";
        r.peakLiveMiB = Long.parseLong(worker.report().get("peakLiveMiB"));
      }
    }
    return r;
  }

  private static void print(int n, Run r, KitListing kit) {
    String what = r.start.equals("snapshot") ? "snapshot start (startingVersion=snapshot)"
        : r.start.equals(DERIVED) ? "from history derived from the snapshots around it (startingVersion=" + VERSION
        + ", deletion vectors enabled, a server refusing history in the delta format)"
        : "from history (startingVersion=" + r.start + ")";
    System.out.printf("(e) one version of %,d files, %s, -Xmx%s worker: %s%n", n, what, WORKER_HEAP, r.ending);
    System.out.printf("    %s (goal: first record within seconds; the kit's first file line after %.2f s, its whole "
        + "listing, which a version's first record waits for, after %.1f s%s)%n",
        r.firstSeconds < 0 ? "no record" : String.format("first record after %.1f s", r.firstSeconds),
        kit.firstFileSeconds, kit.seconds, r.start.equals(DERIVED) ? " (here two of them, at once)" : "");
    System.out.printf("    %,d of %,d files in %.1f s: %,.0f files/s; per-file cost %s (goal: flat from 10,000 to "
        + "1,000,000 files; the kit serves this listing at %,.0f files/s, %.1f µs/file)%n", r.records, n,
        r.doneSeconds, r.filesPerSecond(), costs(r), kit.filesPerSecond(), 1e6 / kit.filesPerSecond());
    System.out.printf("    worker peak live heap %s of %d MiB (goal: within %d MiB)%n", r.peakLiveMiB < 0 ? "unknown"
        : (r.ending.startsWith("FAILED") ? "at least " : "") + r.peakLiveMiB + " MiB", WORKER_HEAP_MIB,
        WORKER_HEAP_MIB);
  }

  /** The per-file costs of a run: each window it reached, and first record to last. */
  private static String costs(Run r) {
    StringBuilder b = new StringBuilder();
    for (int w = 0; w < WINDOWS.length; w++) {
      if (r.windowMicros[w] >= 0) {
        b.append(String.format("files %,d-%,d: %,.0f µs/file; ", WINDOWS[w][0] + 1, WINDOWS[w][1],
            r.windowMicros[w]));
      }
    }
    return b + (r.perFileMicros < 0 ? "first record to last: n/a" : String.format("first record to last: %,.0f "
        + "µs/file", r.perFileMicros));
  }

  private static void summary(Map<Integer, Run[]> all, Map<Integer, Double> coreMicros) {
    System.out.printf("(e) per-file cost by version size (goal: flat), µs/file over files 2,001-10,000 / files "
        + "10,001-100,000 / first record to last (- : not reached):%n");
    String[] starts = {"from history", "snapshot start", "history from snapshots"};
    for (int i = 0; i < starts.length; i++) {
      StringBuilder b = new StringBuilder();
      Double base = null;
      for (Map.Entry<Integer, Run[]> e : all.entrySet()) {
        Run r = e.getValue()[i];
        StringBuilder cost = new StringBuilder();
        for (double us : r.windowMicros) {
          cost.append(us < 0 ? "-" : String.format("%,.0f", us)).append(" / ");
        }
        cost.append(r.perFileMicros < 0 ? "n/a" : String.format("%,.0f", r.perFileMicros)).append(" µs/file");
        double first = r.windowMicros[0];
        if (first >= 0 && base == null) {
          base = first;
        }
        String ratio = first >= 0 && base != null ? String.format(" (files 2,001-10,000 x%.2f of the smallest)",
            first / base) : "";
        String end = r.ending.startsWith("FAILED") ? ", failed" : r.ending.startsWith("stopped") ? ", bounded" : "";
        b.append(String.format("%s%,d files: %s%s [first record: %s, heap %s MiB%s]", b.length() == 0 ? "" : "; ",
            e.getKey(), cost, ratio, r.firstSeconds < 0 ? "none" : String.format("%.1f s", r.firstSeconds),
            r.peakLiveMiB < 0 ? "?" : Long.toString(r.peakLiveMiB), end));
      }
      System.out.printf("    %s: %s%n", starts[i], b);
    }
    StringBuilder core = new StringBuilder();
    coreMicros.forEach((n, us) -> core.append(String.format("%s%,d files: %,.0f", core.length() == 0 ? "" : "; ", n,
        us)));
    System.out.printf("    the core alone from history, in this JVM (listing included): %s%n", core);
  }

  private static DeltaSharingClient client(DeltaSharingServer server) throws Exception {
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT);
  }

  private static Path firstParquet(Path tableDir) throws Exception {
    try (java.util.stream.Stream<Path> s = Files.list(tableDir)) {
      return s.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
  }

  /** A directory and everything in it (a table's files once measured; the benchmark's tables at its end). */
  static void deleteTree(Path dir) throws Exception {
    try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
