package io.sharestream.bench;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * The Kafka connector at scale, each case in a real standalone Connect worker in a JVM of its own with
 * {@code -Xmx256m} ({@link WorkerJvm}; the KRaft broker, the consumer counting records and the kit's server in this
 * JVM), beside the core alone streaming the same tables without Kafka in this JVM ({@link CoreDrain}): (a) one
 * connector over 200 tables with {@code tasks.max=4}, beside the same rows as one table in one task, and Connect's own
 * part of both: the worker replaying records the task made to the 200 topics and to one ({@link
 * ReplaySourceConnector}, the same bound on records in flight); (b) one version of 100,000 files; (c) a stream
 * starting 10,000 versions behind; (d) version requests per minute of 200 idle tables, with and without backoff; (e)
 * one version of 10,000 to 1,000,000 files from history, as a snapshot start and from history derived from
 * snapshots, for a bounded time ({@link MillionFiles}). Rates count from the connector's creation to the last record
 * consumed ((a): counted by the topics' end offsets, as consuming 200 topics cost the shared broker more than the
 * connector's own writes); heaps are the worker JVM's peak live heap (after a collection) beside the same JVM at rest
 * (the worker started, no connector yet).
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl benchmarks -am
 * java -Xmx6g -Djava.io.tmpdir=/dev/shm -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) \
 *     io.sharestream.bench.ScaleBenchmark
 * </pre>
 * (argument {@code tables}, {@code files}, {@code versions}, {@code idle} or {@code million}: that case only;
 * {@code far}: (a)'s runs against a distant server only; (e) needs the larger heap here: the kit's snapshot of a
 * million files and the core alone's listing are in this JVM;
 * {@code -Dbench.allWorkers=true}: (a) also with an 8 MB producer buffer and in a 512 MiB worker;
 * {@code -Dbench.rounds=N}: (a)'s two cases N times each, taking turns, after a round not counted (3; medians
 * printed);
 * {@code -Dbench.tasks=N}: (a) with tasks.max=N; {@code -Dbench.inFlight=N}: the connectors' records.in.flight.max;
 * {@code -Dbench.worker=k=v,...}: worker settings for every run, e.g. {@code producer.batch.size=262144};
 * {@code -Dbench.serverLatencyMs=N}: (a)'s last pair of runs against a server N ms away, 0 to skip;
 * {@code -Djava.io.tmpdir=/dev/shm}: the broker's logs (the Kafka test kit makes them under the JDK's temporary
 * directory, read once as the JVM starts) and the tables in memory: the broker runs in this JVM on the worker's cores,
 * and on this machine's virtual disk its writes to 200 partitions cost it 3 to 4 times its CPU of one partition's, taken
 * from the worker in (a), where a broker of its own machine takes nothing from it;
 * {@code -Dbench.profileHere=DIR}: a flight recording of this JVM during each worker run, in
 * DIR). Beside each worker run: the CPU of the worker JVM and of this one (broker, kit, consumer),
 * and the requests the kit served; each run's topics are deleted after it.
 */
public final class ScaleBenchmark {
  private static final String WORKER_HEAP = "256m";
  /** A run still going after this long is stopped: what it streamed by then is the figure. */
  private static final long TIME_LIMIT_SECONDS = 480;
  /**
   * The 100,000-file version is streamed for this long by the connector, and by the core alone for {@link
   * #CORE_PARTIAL_SECONDS} (each file costs the core several ms, see docs/benchmarks.md).
   */
  private static final long PARTIAL_SECONDS = 300;
  private static final long CORE_PARTIAL_SECONDS = 120;
  private static final int TABLES = 200;
  private static final int ROWS_PER_TABLE = 10_000;
  private static final int FILES = 100_000;
  private static final int VERSIONS = 10_000;
  /** (d): idle tables' version requests are counted over this window, after {@link #IDLE_SETTLE}. */
  private static final Duration IDLE_WINDOW = Duration.ofSeconds(60);
  /** Long enough for the default backoff (10, 20, 40, 60 s) to reach its ceiling. */
  private static final Duration IDLE_SETTLE = Duration.ofSeconds(70);

  private static int runs;

  private ScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("sharestream-scale-bench");
    ExecutorService footers = Executors.newFixedThreadPool(2);
    EmbeddedConnectCluster kafka = ConnectorBenchmark.cluster(false); // its broker; the workers run apart
    System.out.printf("machine: %d cores, java %s, heap %d MiB, worker JVMs -Xmx%s; the broker's logs in %s, the "
        + "tables in %s%n", Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() >> 20, WORKER_HEAP, where(brokerLogDir(kafka)), where(dir));
    String only = args.length > 0 ? args[0] : "all";
    try {
      if (only.equals("all") || only.equals("tables") || only.equals("far")) {
        tables(kafka, dir, footers, only.equals("far"));
      }
      if (only.equals("all") || only.equals("files")) {
        files(kafka, dir, footers);
      }
      if (only.equals("all") || only.equals("versions")) {
        versions(kafka, dir, footers);
      }
      if (only.equals("all") || only.equals("idle")) {
        idle(kafka, dir);
      }
      if (only.equals("all") || only.equals("million")) {
        MillionFiles.run(kafka, dir, footers);
      }
    } finally {
      kafka.stop();
      footers.shutdownNow();
      MillionFiles.deleteTree(dir);
    }
  }

  /** The log directory of the cluster's broker. */
  private static Path brokerLogDir(EmbeddedConnectCluster kafka) throws Exception {
    try (Admin admin = kafka.kafka().createAdminClient()) {
      int broker = admin.describeCluster().nodes().get().iterator().next().id();
      return Path.of(admin.describeLogDirs(List.of(broker)).allDescriptions().get().get(broker).keySet().iterator()
          .next());
    }
  }

  /** {@code path} and whether it is in memory (tmpfs) or on disk. */
  private static String where(Path path) throws java.io.IOException {
    String type = Files.getFileStore(path).type();
    return path + " (" + (type.equals("tmpfs") ? "in memory" : "on disk, " + type) + ")";
  }

  /** Worker settings for every run, from {@code -Dbench.worker=k=v,k=v} (e.g. producer settings). */
  private static final Map<String, String> WORKER_SETTINGS = new HashMap<>();

  static {
    for (String kv : System.getProperty("bench.worker", "").split(",")) {
      if (!kv.isBlank()) {
        WORKER_SETTINGS.put(kv.substring(0, kv.indexOf('=')).trim(), kv.substring(kv.indexOf('=') + 1).trim());
      }
    }
  }

  /** (a) 200 tables of 10,000 rows (one file each), one connector, tasks.max=4. */
  private static void tables(EmbeddedConnectCluster kafka, Path dir, ExecutorService footers, boolean farOnly)
      throws Exception {
    List<Map<String, Object>> rows = Samples.orders(0, ROWS_PER_TABLE);
    DeltaSharingServer.Builder builder = DeltaSharingServer.builder();
    List<TableRef> refs = new ArrayList<>();
    long t0 = System.nanoTime();
    DeltaTableWriter first = null;
    AddFile source = null;
    for (int i = 0; i < TABLES; i++) {
      DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("t" + i), Samples.ORDERS).commit();
      if (first == null) {
        first = t;
        t.append(rows);
        source = t.snapshot().files().iterator().next();
      } else {
        appendCopy(first, source, t, "part-00000");
      }
      builder.table("s", "b", "t" + i, t.dir(), true);
      refs.add(new TableRef("s", "b", "t" + i));
    }
    // the ceiling: the same rows as one table (one file per version) in one task
    DeltaTableWriter one = DeltaTableWriter.create(dir.resolve("one"), Samples.ORDERS).commit();
    for (int i = 0; i < TABLES; i++) {
      appendCopy(first, source, one, String.format("part-%05d", i));
    }
    builder.table("s", "b", "one", one.dir(), true);
    System.out.printf("    (wrote %d tables in %.0f s)%n", TABLES + 1, (System.nanoTime() - t0) / 1e9);
    try (DeltaSharingServer server = builder.start()) {
      int tasks = Integer.getInteger("bench.tasks", 4);
      if (farOnly) {
        farServer(kafka, server, dir, refs, tasks);
        return;
      }
      CoreDrain core = CoreDrain.run(client(server), refs, "0", footers, TIME_LIMIT_SECONDS);
      double coreRate = core.rows / core.seconds;
      TableRef oneRef = new TableRef("s", "b", "one");
      long records = (long) TABLES * ROWS_PER_TABLE;
      // the two cases take turns, so that this machine's drifts fall on both; the medians are the figures. Round 0
      // is not counted: the broker's and the kit's code paths are compiled in it (the first 200-table run of a fresh
      // JVM cost the broker, kit and consumer half as much CPU again as the later ones)
      int rounds = Integer.getInteger("bench.rounds", 3);
      List<Double> manyRates = new ArrayList<>();
      List<Double> singleRates = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      for (int round = 0; round <= rounds; round++) {
        String name = round == 0 ? "warm-up round, not counted" : "round " + round;
        List<Map<String, String>> runs = worker(kafka, server, dir, refs, tasks, records,
            round > 0 && Boolean.getBoolean("bench.allWorkers"), false, true, false);
        for (Map<String, String> run : runs) {
          double rate = rate(run, Long.parseLong(run.get("records")));
          System.out.printf("(a) %s: %d tables of %,d rows, one connector, tasks.max=%d (%s): first rows of "
              + "every table within %.1f s (the first table's after %.1f s); %,d rows in %.1f s: %,.0f rows/s; the "
              + "core alone, the same tables one after the other without Kafka: %,.0f rows/s; ratio %.2f%n", name,
              TABLES, ROWS_PER_TABLE, tasks, run.get("setting"), seconds(run, "allFirstMs"), seconds(run, "firstMs"),
              Long.parseLong(run.get("records")), seconds(run, "doneMs"), rate, coreRate, rate / coreRate);
          heap(run);
        }
        double manyRate = rate(runs.get(0), Long.parseLong(runs.get(0).get("records"))); // the worker's defaults
        Map<String, String> single = worker(kafka, server, dir, List.of(oneRef), 1, records, false, false, true,
            false).get(0);
        double singleRate = rate(single, Long.parseLong(single.get("records")));
        System.out.printf("(a) %s: the same rows as one table (%d files) in one task (%s): %,.0f rows/s; the %d "
            + "tables over %d tasks at %.2f of it%n", name, TABLES, single.get("setting"), singleRate, TABLES, tasks,
            manyRate / singleRate);
        heap(single);
        if (round > 0) {
          manyRates.add(manyRate);
          singleRates.add(singleRate);
          ratios.add(manyRate / singleRate);
        }
      }
      System.out.printf("(a) over %d rounds, medians: the %d tables over %d tasks %,.0f rows/s, one table in one task "
          + "%,.0f rows/s; ratio per round %s, median %.2f (goal 0.80)%n", rounds, TABLES, tasks, median(manyRates),
          median(singleRates), ratios.stream().map(r -> String.format("%.2f", r)).collect(Collectors.toList()),
          median(ratios));
      // Connect's own part: the worker replaying records the task made, to the 200 topics and to one
      Map<String, String> replayMany = worker(kafka, server, dir, refs, tasks, records, false, false, true, true)
          .get(0);
      Map<String, String> replayOne = worker(kafka, server, dir, List.of(oneRef), 1, records, false, false, true,
          true).get(0);
      double replayManyRate = rate(replayMany, Long.parseLong(replayMany.get("records")));
      double replayOneRate = rate(replayOne, Long.parseLong(replayOne.get("records")));
      System.out.printf("(a) Connect alone (the worker replaying records the task made, no Delta Sharing): to the %d "
          + "topics over %d tasks %,.0f rows/s, to one topic in one task %,.0f rows/s: %.2f of it; the connector's "
          + "medians: %.2f of Connect alone over the %d tables, %.2f on one table%n", TABLES, tasks, replayManyRate,
          replayOneRate, replayManyRate / replayOneRate, median(manyRates) / replayManyRate, TABLES,
          median(singleRates) / replayOneRate);
      heap(replayMany);
      heap(replayOne);
      farServer(kafka, server, dir, refs, tasks);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /**
   * (a) again against a server {@code bench.serverLatencyMs} (100 by default, 0: skipped) away: each protocol
   * request and each download waits that long before its answer, as a provider's server in another region and its
   * object store do (the local kit answers in a millisecond).
   */
  private static void farServer(EmbeddedConnectCluster kafka, DeltaSharingServer server, Path dir,
      List<TableRef> refs, int tasks) throws Exception {
    Duration latency = Duration.ofMillis(Integer.getInteger("bench.serverLatencyMs", 100));
    if (latency.isZero()) {
      return;
    }
    server.faults().apiLatency(latency).storageLatency(latency);
    try {
      Map<String, String> many = worker(kafka, server, dir, refs, tasks, (long) TABLES * ROWS_PER_TABLE, false,
          false, true, false).get(0);
      Map<String, String> single = worker(kafka, server, dir, List.of(new TableRef("s", "b", "one")), 1,
          (long) TABLES * ROWS_PER_TABLE, false, false, true, false).get(0);
      double rate = rate(many, Long.parseLong(many.get("records")));
      double singleRate = rate(single, Long.parseLong(single.get("records")));
      System.out.printf("(a) against a server %d ms away: the %d tables over %d tasks %,.0f rows/s (first rows of "
          + "every table within %.1f s), one table in one task %,.0f rows/s: %.2f of it%n", latency.toMillis(),
          TABLES, tasks, rate, seconds(many, "allFirstMs"), singleRate, rate / singleRate);
      heap(many);
      heap(single);
    } finally {
      server.faults().clear();
    }
  }

  /** (b) one version of 100,000 files of one row each. */
  private static void files(EmbeddedConnectCluster kafka, Path dir, ExecutorService footers) throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("files"), Samples.ORDERS).commit();
    long t0 = System.nanoTime();
    t.appendCopies(Samples.orders(0, 1), FILES);
    System.out.printf("    (wrote one version of %,d files in %.0f s)%n", FILES, (System.nanoTime() - t0) / 1e9);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "files", t.dir(), true).start()) {
      DeltaSharingClient client = client(server);
      TableRef ref = new TableRef("s", "b", "files");
      double listing = listing(client, ref);
      CoreDrain core = CoreDrain.run(client, List.of(ref), "0", footers, CORE_PARTIAL_SECONDS);
      System.out.printf("    (the core alone: %,d files in %.1f s%s)%n", core.files, core.seconds,
          core.partial ? ", stopped at its time limit" : "");
      Map<String, String> run = worker(kafka, server, dir, List.of(ref), 1, FILES, false, true, false, false).get(0);
      long streamed = Long.parseLong(run.get("records"));
      double rate = rate(run, streamed);
      double coreRate = core.files / core.seconds;
      System.out.printf("(b) one version of %,d files (one row each), one task: %,d files streamed in %.1f s: %,.0f "
          + "files/s (first record after %.1f s); the core alone reading the same files: %,d in %.1f s, %,.0f files/s; "
          + "ratio %.2f; the core listing the whole version: %,.0f files/s%n", FILES, streamed, seconds(run, "doneMs"),
          rate, seconds(run, "firstMs"), core.files, core.seconds, coreRate, rate / coreRate, listing);
      heap(run);
    }
  }

  /** (c) a table of 10,000 one-row commits, streamed from version 0. */
  private static void versions(EmbeddedConnectCluster kafka, Path dir, ExecutorService footers) throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("versions"), Samples.ORDERS).commit();
    long t0 = System.nanoTime();
    t.append(Samples.orders(0, 1));
    AddFile source = t.snapshot().files().iterator().next();
    for (long v = 2; v <= VERSIONS; v++) {
      appendCopy(t, source, t, String.format("part-%05d", v));
      if (v % 100 == 0) {
        t.checkpoint(); // as Delta writers do every so often
      }
    }
    System.out.printf("    (wrote %,d versions in %.0f s)%n", VERSIONS, (System.nanoTime() - t0) / 1e9);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "versions", t.dir(), true)
        .start()) {
      TableRef ref = new TableRef("s", "b", "versions");
      CoreDrain core = CoreDrain.run(client(server), List.of(ref), "0", footers, TIME_LIMIT_SECONDS);
      System.out.printf("    (the core alone: %,d versions, %,d rows in %.1f s)%n", core.versions, core.rows,
          core.seconds);
      Map<String, String> run = worker(kafka, server, dir, List.of(ref), 1, VERSIONS, false, false, false, false)
          .get(0);
      double done = seconds(run, "doneMs");
      long records = Long.parseLong(run.get("records")); // one row, one record, per version
      double coreVersions = core.versions / core.seconds;
      System.out.printf("(c) a stream %,d versions behind (one row each, startingVersion=0), one task: %,d versions "
          + "in %.1f s (first record after %.1f s): %,.0f versions/s and rows/s; the core alone: %,.0f versions/s "
          + "(%,d versions, %,d rows); ratio %.2f%n", VERSIONS, records, done, seconds(run, "firstMs"),
          records / done, coreVersions, core.versions, core.rows, records / done / coreVersions);
      heap(run);
    }
  }

  /**
   * (d) 200 idle one-version tables (one row each), one connector, tasks.max=4: once every table's row arrived and
   * {@link #IDLE_SETTLE} passed, the kit server's version requests over {@link #IDLE_WINDOW}, with the default
   * polling and with the backoff off (poll.interval.max.ms = poll.interval.ms); then the commit-to-record latency of
   * a commit to an idle table, and of one to the same table just after (now active).
   */
  private static void idle(EmbeddedConnectCluster kafka, Path dir) throws Exception {
    DeltaSharingServer.Builder builder = DeltaSharingServer.builder();
    List<TableRef> refs = new ArrayList<>();
    List<DeltaTableWriter> writers = new ArrayList<>();
    for (int i = 0; i < TABLES; i++) {
      DeltaTableWriter t = DeltaTableWriter.create(dir.resolve("idle" + i), Samples.ORDERS).commit();
      if (writers.isEmpty()) {
        t.append(Samples.orders(0, 1));
      } else {
        appendCopy(writers.get(0), writers.get(0).snapshot().files().iterator().next(), t, "part-00000");
      }
      writers.add(t);
      builder.table("s", "b", "idle" + i, t.dir(), true);
      refs.add(new TableRef("s", "b", "idle" + i));
    }
    try (DeltaSharingServer server = builder.start()) {
      String profile = server.writeProfile(Files.createTempFile(dir, "idle", ".share")).toString();
      List<String> names = new ArrayList<>();
      refs.forEach(t -> names.add(t.toString()));
      String[][] pollings = {{}, {"poll.interval.max.ms", "10000"}};
      double[] perMinute = new double[pollings.length];
      for (int p = 0; p < pollings.length; p++) {
        String setting = pollings[p].length == 0 ? "defaults: poll.interval.ms=10000, poll.interval.max.ms=60000"
            : "poll.interval.max.ms=10000 (no backoff)";
        String prefix = "x" + (++runs) + ".";
        List<String> topics = new ArrayList<>();
        refs.forEach(t -> topics.add(prefix + t));
        List<String> extra = new ArrayList<>(List.of("tasks.max", "4", "startingVersion", "0", "name", "idle"));
        extra.addAll(List.of(pollings[p]));
        Map<String, String> connector = ConnectorBenchmark.connector(profile, String.join(",", names), prefix,
            extra.toArray(new String[0]));
        Consumed all = new Consumed(kafka, topics, TABLES, false, 0);
        try (WorkerJvm worker = WorkerJvm.start(WORKER_HEAP, kafka.kafka().bootstrapServers(), Map.of(), connector,
            dir)) {
          if (!all.awaitWhile(worker::alive, Duration.ofSeconds(TIME_LIMIT_SECONDS))) {
            throw new IllegalStateException("only " + all.count.get() + " of " + TABLES + " tables' rows arrived");
          }
          Thread.sleep(IDLE_SETTLE.toMillis());
          server.requests().clear();
          Thread.sleep(IDLE_WINDOW.toMillis());
          int versions = server.requests().count(Endpoint.VERSION);
          int requests = server.requests().entries().size();
          perMinute[p] = versions * 60.0 / IDLE_WINDOW.toSeconds();
          System.out.printf("(d) %d idle tables, tasks.max=4, %s: %,.0f version requests/min (%,.0f requests/min "
              + "in all) over %d s, %d s after every table's row arrived%n", TABLES, setting, perMinute[p],
              requests * 60.0 / IDLE_WINDOW.toSeconds(), IDLE_WINDOW.toSeconds(), IDLE_SETTLE.toSeconds());
          DeltaTableWriter t = writers.get(p); // a table idle since the start (another in each run)
          String topic = topics.get(p);
          double idleLatency = latency(kafka, worker, t, topic, 2);
          double activeLatency = latency(kafka, worker, t, topic, 3);
          System.out.printf("    commit-to-record latency: an idle table %.1f s, the same table right after "
              + "(active) %.1f s%n", idleLatency, activeLatency);
          heap(withSetting(worker.report(), setting));
        }
      }
      System.out.printf("(d) version requests/min for %d idle tables: %,.0f with the default backoff, %,.0f without: "
          + "%.2f of them%n", TABLES, perMinute[0], perMinute[1], perMinute[0] / perMinute[1]);
    }
  }

  /** Seconds from a one-row commit to {@code t} until its record, the topic's {@code expected}th, arrived. */
  private static double latency(EmbeddedConnectCluster kafka, WorkerJvm worker, DeltaTableWriter t, String topic,
      long expected) throws Exception {
    long t0 = System.nanoTime();
    t.append(Samples.orders(expected, expected + 1));
    Consumed c = new Consumed(kafka, topic, expected, false, 0);
    if (!c.awaitWhile(worker::alive, Duration.ofSeconds(180))) {
      return -1;
    }
    return (c.last - t0) / 1e9;
  }

  private static Map<String, String> withSetting(Map<String, String> report, String setting) {
    Map<String, String> m = new HashMap<>(report);
    m.put("setting", setting);
    return m;
  }

  /**
   * Commits to {@code to} a byte copy, named {@code name}, of {@code from}'s data file {@code source} (same size and
   * stats):
   * many tables or versions fast.
   */
  private static void appendCopy(DeltaTableWriter from, AddFile source, DeltaTableWriter to, String name)
      throws Exception {
    String path = name + "-" + java.util.UUID.randomUUID() + ".c000.snappy.parquet";
    Files.copy(from.log().resolve(source.path), to.log().resolve(path));
    to.commitActions("WRITE", List.of(new AddFile(path, Map.of(), source.size, System.currentTimeMillis(), true,
        source.stats)));
  }

  private static DeltaSharingClient client(DeltaSharingServer server) throws Exception {
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT);
  }

  /** Files/s of listing the table's latest version, one streamed response. */
  private static double listing(DeltaSharingClient client, TableRef ref) {
    long t0 = System.nanoTime();
    long n = 0;
    try (FileListing l = client.query(ref, QueryRequest.latest())) {
      for (; l.hasNext(); n++) {
        l.next();
      }
    }
    return n / ((System.nanoTime() - t0) / 1e9);
  }

  /**
   * Streams {@code tables} with one connector in a standalone worker JVM ({@link WorkerJvm}) against the broker of
   * this JVM (or, {@code replay}, {@link ReplaySourceConnector} sending records the task made of the first table to
   * each table's topic in turn) until the consumer here has every record, or for {@link #TIME_LIMIT_SECONDS}
   * ({@link #PARTIAL_SECONDS} when {@code partial}): in {@code -Xmx256m} with the worker's defaults; if that runs out
   * of heap, or {@code all}, in 256m with each task's producer buffer at 8 MB and in 512m with the defaults. The
   * figures of each run that ended in time or ran out of it: times from the connector's creation (ms), records, heaps
   * (MiB), setting.
   */
  private static List<Map<String, String>> worker(EmbeddedConnectCluster kafka, DeltaSharingServer server, Path dir,
      List<TableRef> tables, int tasks, long records, boolean all, boolean partial, boolean byEndOffsets,
      boolean replay) throws Exception {
    List<Map<String, String>> completed = new ArrayList<>();
    String profile = server.writeProfile(Files.createTempFile(dir, "scale", ".share")).toString();
    String[][] attempts = {{WORKER_HEAP, "worker defaults"}, {WORKER_HEAP, "producer.buffer.memory", "8388608"},
        {"512m", "worker defaults"}};
    for (String[] attempt : attempts) {
      Map<String, String> overrides = new HashMap<>(WORKER_SETTINGS);
      if (attempt.length == 3) {
        overrides.put(attempt[1], attempt[2]);
      }
      String setting = (attempt.length == 3 ? attempt[1] + "=" + attempt[2] : attempt[1])
          + (WORKER_SETTINGS.isEmpty() ? "" : ", " + WORKER_SETTINGS);
      System.out.printf("    (worker: -Xmx%s, %s)%n", attempt[0], setting);
      String prefix = "x" + (++runs) + ".";
      List<String> topics = new ArrayList<>();
      tables.forEach(t -> topics.add(prefix + t));
      // the topics beforehand, so that each table's first record is seen at once
      try (Admin admin = kafka.kafka().createAdminClient()) {
        admin.createTopics(topics.stream().map(t -> new NewTopic(t, 1, (short) 1)).collect(Collectors.toList()))
            .all().get();
      }
      List<String> names = new ArrayList<>();
      tables.forEach(t -> names.add(t.toString()));
      Map<String, String> connector = ConnectorBenchmark.connector(profile, String.join(",", names), prefix,
          "tasks.max", Integer.toString(tasks), "startingVersion", "0", "name", "scale");
      if (replay) { // records the task made of the first table, replayed to every topic in turn
        connector.put("connector.class", ReplaySourceConnector.class.getName());
        connector.put("tables", names.get(0));
        connector.put(ReplaySourceConnector.ROWS, Long.toString(records / tables.size()));
        connector.put(ReplaySourceConnector.TOPICS, String.join(",", topics));
      }
      if (System.getProperty("bench.inFlight") != null) {
        connector.put("records.in.flight.max", System.getProperty("bench.inFlight"));
      }
      Consumed consumed = byEndOffsets ? Consumed.byEndOffsets(kafka, topics, records)
          : new Consumed(kafka, topics, records, false, 0);
      try (WorkerJvm worker = WorkerJvm.start(attempt[0], kafka.kafka().bootstrapServers(), overrides, connector,
          dir)) {
        long t0 = System.nanoTime();
        ThreadCpu cpu = new ThreadCpu();
        jdk.jfr.Recording recording = profileHere();
        long[] produce0 = produceCounts();
        server.requests().clear();
        boolean complete = consumed.awaitWhile(worker::alive,
            Duration.ofSeconds(partial ? PARTIAL_SECONDS : TIME_LIMIT_SECONDS));
        if (!complete && !worker.alive()) {
          System.out.printf("    -Xmx%s, %s: out of heap after %,d of %,d records, %.0f s%n", attempt[0], setting,
              consumed.count.get(), records, (System.nanoTime() - t0) / 1e9);
          continue;
        }
        if (!complete && !partial) { // not a matter of heap: what it did in the time is the figure
          System.out.printf("    -Xmx%s, %s: not done within %d s: %,d of %,d records%n", attempt[0], setting,
              TIME_LIMIT_SECONDS, consumed.count.get(), records);
        }
        long done = System.nanoTime();
        if (recording != null) {
          recording.dump(Path.of(System.getProperty("bench.profileHere"), prefix + "jfr"));
          recording.close();
        }
        Map<String, Long> here = cpu.byKind(ScaleBenchmark::kind, "BrokerHandlers", "BrokerNetwork", "Kit",
            "Counting", "OtherJava");
        Map<String, String> figures = new HashMap<>(worker.report());
        figures.put("hereCpuMs", Long.toString(ThreadCpu.totalMs(here)));
        figures.put("hereCpu", String.format("the broker's request handlers %.1f s, its network threads %.1f s, the "
            + "kit %.1f s, counting records %.1f s, other Java threads %.1f s, the JVM's own %.1f s",
            here.values().stream().map(ns -> ns / 1e9).toArray()));
        long[] produce = produceCounts();
        figures.put("produce", String.format("%,d produce requests carrying %,d partition batches, %.1f MB",
            produce[0] - produce0[0], produce[1] - produce0[1], (produce[2] - produce0[2]) / 1e6));
        java.util.EnumMap<Endpoint, Integer> byEndpoint = new java.util.EnumMap<>(Endpoint.class);
        server.requests().entries().forEach(e -> byEndpoint.merge(e.endpoint, 1, Integer::sum));
        figures.put("requests", byEndpoint.toString());
        figures.put("firstMs", consumed.first == 0 ? "-1" : Long.toString((consumed.first - t0) / 1_000_000));
        figures.put("allFirstMs", consumed.firstByTopic.isEmpty() ? "-1"
            : Long.toString((Collections.max(consumed.firstByTopic.values()) - t0) / 1_000_000));
        figures.put("doneMs", Long.toString((done - t0) / 1_000_000));
        figures.put("records", Long.toString(consumed.count.get()));
        figures.put("setting", "-Xmx" + attempt[0] + ", " + setting);
        completed.add(figures);
        if (!all) {
          return completed;
        }
      } finally {
        try (Admin admin = kafka.kafka().createAdminClient()) {
          admin.deleteTopics(topics).all().get(); // the broker's partitions and logs stay those of one run
        }
      }
    }
    if (completed.isEmpty()) {
      throw new IllegalStateException("no attempt completed");
    }
    return completed;
  }

  /**
   * The broker's counts so far (it runs in this JVM): produce requests, the topic partitions they appended to (one
   * batch each) and bytes in.
   */
  private static long[] produceCounts() throws Exception {
    javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
    long requests = 0;
    for (javax.management.ObjectName n : jmx.queryNames(new javax.management.ObjectName(
        "kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,*"), null)) {
      requests += ((Number) jmx.getAttribute(n, "Count")).longValue();
    }
    long appends = ((Number) jmx.getAttribute(new javax.management.ObjectName(
        "kafka.server:type=BrokerTopicMetrics,name=TotalProduceRequestsPerSec"), "Count")).longValue();
    long bytes = ((Number) jmx.getAttribute(new javax.management.ObjectName(
        "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec"), "Count")).longValue();
    return new long[] {requests, appends, bytes};
  }

  private static double seconds(Map<String, String> run, String key) {
    return Long.parseLong(run.get(key)) / 1e3;
  }

  private static double rate(Map<String, String> run, long n) {
    return n / seconds(run, "doneMs");
  }

  /** With {@code -Dbench.profileHere}: a flight recording of this JVM (JFR's profile settings), started; else null. */
  private static jdk.jfr.Recording profileHere() throws Exception {
    if (System.getProperty("bench.profileHere") == null) {
      return null;
    }
    jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
    r.start();
    return r;
  }

  /** The kind of a thread of this JVM (the broker's, the kit's, the record count's), for {@link ThreadCpu}. */
  private static String kind(String thread) {
    return thread.contains("kafka-request-handler") ? "BrokerHandlers"
        : thread.startsWith("data-plane-kafka") || thread.contains("network-thread") ? "BrokerNetwork"
        : thread.startsWith("delta-sharing-test-server") || thread.startsWith("HTTP-Dispatcher") ? "Kit"
        : thread.startsWith("bench-") ? "Counting" : "OtherJava";
  }

  /** The worker JVM's heap peak, and the CPU both JVMs spent on the run (cores busy on average). */
  private static void heap(Map<String, String> run) {
    System.out.printf("    worker JVM (%s; max heap %s MiB): peak live heap %s MiB, of which %s MiB the worker's at "
        + "rest before the connector%n", run.get("setting"), run.get("maxHeapMiB"), run.get("peakLiveMiB"),
        run.get("atRestMiB"));
    if (run.containsKey("hereCpuMs")) {
      double s = seconds(run, "doneMs");
      System.out.printf("    CPU: the worker JVM %.1f s (%.2f cores), broker, kit and consumer %.1f s (%.2f cores), of "
          + "%d cores%n", seconds(run, "cpuMs"), seconds(run, "cpuMs") / s, seconds(run, "hereCpuMs"),
          seconds(run, "hereCpuMs") / s, Runtime.getRuntime().availableProcessors());
      if (run.containsKey("cpuJvmMs")) {
        System.out.printf("    the worker's CPU by thread: tasks %.1f s, their producers %.1f s, the connector's own "
            + "threads %.1f s, other Java threads %.1f s, the JVM's own (garbage collection, JIT compilers) and ended "
            + "threads %.1f s%n", seconds(run, "cpuTasksMs"), seconds(run, "cpuProducersMs"),
            seconds(run, "cpuConnectorThreadsMs"), seconds(run, "cpuOtherJavaMs"), seconds(run, "cpuJvmMs"));
      }
      System.out.printf("    the broker, kit and consumer's CPU by thread: %s%n", run.get("hereCpu"));
      System.out.printf("    requests to the server: %s; the broker: %s%n", run.get("requests"), run.get("produce"));
    }
  }
}
