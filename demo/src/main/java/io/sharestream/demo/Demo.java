package io.sharestream.demo;

import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * Both engines on one live shared table, in-process on 127.0.0.1, nothing mocked: the {@link EventWriter} commits
 * to a Delta table every few seconds (mostly appends, now and then an UPDATE or a DELETE), the test kit's Delta
 * Sharing server shares it, the Kafka connector streams it into a topic ({@link KafkaSide}) and a Spark 3.1.1 driver
 * runs the user document's queries on it ({@link SparkProcess}). Progress is printed as it goes; at the end, each
 * side's rows are compared with what was committed, row by row.
 *
 * <pre>
 * ./demo.sh [--seconds 60] [--commits N] [--commit-every 3] [--mode default|skipChangeCommits|readChangeFeed]
 *     [--only kafka|spark]
 * </pre>
 * Commits stop after {@code --seconds} or {@code --commits}, whichever comes first; a commit every
 * {@code --commit-every} seconds.
 * Exit status 0 when every side saw exactly the committed rows, 1 otherwise. Ctrl-C stops everything and removes the
 * demo's temporary directory.
 */
public final class Demo {
  static final String TABLE = "demo.events.events";
  private static final Duration CATCH_UP = Duration.ofSeconds(120);

  private final Settings settings;
  private final Deque<AutoCloseable> running = new ArrayDeque<>();
  private final Path work;
  private EventWriter writer;
  private KafkaSide kafka;
  private SparkProcess spark;

  Demo(Settings settings) throws IOException {
    this.settings = settings;
    this.work = Files.createTempDirectory("sharestream-demo");
  }

  /** What to run, from the command line. */
  static final class Settings {
    long seconds = 60;
    long commits = Long.MAX_VALUE;
    long commitEverySeconds = 3;
    String mode = "readChangeFeed";
    boolean kafka = true;
    boolean spark = true;
    Path pluginDir = Path.of("kafka-connect/target");
    Path sparkDir = Path.of("demo/spark/target");

    static Settings parse(String... args) {
      Settings s = new Settings();
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        if (flag.equals("--help") || flag.equals("-h")) {
          throw new IllegalArgumentException("");
        }
        if (i + 1 == args.length) {
          throw new IllegalArgumentException("missing value for " + flag);
        }
        String value = args[++i];
        switch (flag) {
          case "--seconds": s.seconds = positive(flag, value); break;
          case "--commits": s.commits = positive(flag, value); break;
          case "--commit-every": s.commitEverySeconds = positive(flag, value); break;
          case "--mode":
            if (!List.of("default", "skipChangeCommits", "readChangeFeed").contains(value)) {
              throw new IllegalArgumentException("--mode must be default, skipChangeCommits or readChangeFeed");
            }
            s.mode = value;
            break;
          case "--only":
            if (!value.equals("kafka") && !value.equals("spark")) {
              throw new IllegalArgumentException("--only must be kafka or spark");
            }
            s.kafka = value.equals("kafka");
            s.spark = value.equals("spark");
            break;
          case "--plugin-dir": s.pluginDir = Path.of(value); break;
          case "--spark-dir": s.sparkDir = Path.of(value); break;
          default: throw new IllegalArgumentException("unknown option " + flag);
        }
      }
      return s;
    }

    private static long positive(String flag, String value) {
      try {
        long n = Long.parseLong(value);
        if (n > 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new IllegalArgumentException(flag + " must be a positive number, not '" + value + "'");
    }
  }

  public static void main(String[] args) throws Exception {
    // before Kafka's classes load: else log4j2 finds a YAML config in a Kafka jar it cannot read, and says so
    System.setProperty("log4j2.configurationFile", "demo-log4j2.properties");
    Settings settings;
    try {
      settings = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().isEmpty()) {
        System.err.println("demo: " + e.getMessage());
      }
      System.err.println("usage: ./demo.sh [--seconds 60] [--commits N] [--commit-every 3] "
          + "[--mode default|skipChangeCommits|readChangeFeed] [--only kafka|spark]");
      System.exit(e.getMessage().isEmpty() ? 0 : 2);
      return;
    }
    Demo demo = new Demo(settings);
    Thread cleanup = new Thread(demo::close, "demo-shutdown");
    Runtime.getRuntime().addShutdownHook(cleanup); // Ctrl-C
    boolean exact = false;
    try {
      exact = demo.run();
    } catch (Exception e) {
      say("demo", "failed: %s", e);
    } finally {
      demo.close();
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is closing the demo
      }
    }
    System.exit(exact ? 0 : 1); // the embedded Connect cluster leaves non-daemon threads behind
  }

  /** Where the demo keeps its table, profile and checkpoints (removed by {@link #close()}). */
  Path workDir() {
    return work;
  }

  /** Runs the demo; whether every side saw exactly the committed rows. */
  boolean run() throws Exception {
    writer = EventWriter.at(work.resolve("events"));
    DeltaSharingServer server = DeltaSharingServer.builder().table("demo", "events", "events", writer.dir(), true)
        .start();
    running.push(server);
    Path profile = server.writeProfile(work.resolve("demo.share"));
    say("demo", "Delta table %s (deletion vectors and change data feed on, partitioned by event_date) shared at %s;"
        + " the recipient's profile: %s", TABLE, server.endpoint(), profile);
    String engines = settings.kafka && settings.spark ? "Kafka and Spark" : settings.kafka ? "Kafka only"
        : "Spark only";
    say("demo", "mode %s, commits every %d s for %d s%s; %s", settings.mode, settings.commitEverySeconds,
        settings.seconds, settings.commits == Long.MAX_VALUE ? "" : " (at most " + settings.commits + ")", engines);
    if (settings.spark) { // first: its JVM starts while the worker does
      spark = SparkProcess.start(settings.sparkDir, profile + "#" + TABLE, settings.mode, work);
      running.push(spark);
    }
    if (settings.kafka) {
      kafka = KafkaSide.start(settings.pluginDir, profile, TABLE, settings.mode);
      running.push(kafka);
    }
    commit();
    boolean caughtUp = awaitCatchUp();
    return summary(caughtUp);
  }

  /** The writer's commits for the demo's duration, with a progress line every few commits. */
  private void commit() throws Exception {
    long end = System.nanoTime() + Duration.ofSeconds(settings.seconds).toNanos();
    long start = System.nanoTime();
    int steps = 0;
    while (System.nanoTime() < end && steps < settings.commits) {
      say("table", "%s", writer.step());
      if (++steps % 3 == 0) {
        progress(Duration.ofNanos(System.nanoTime() - start).toSeconds());
      }
      Thread.sleep(settings.commitEverySeconds * 1000);
    }
  }

  /** A progress line, {@code seconds} after the first commit (negative: at the end). */
  private void progress(long seconds) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s | table at v%d %s",
        seconds < 0 ? "end" : String.format(Locale.ROOT, "%3d s", seconds), writer.version(), writer.commits()));
    long expected = expected().total();
    if (kafka != null) {
      line.append(String.format(Locale.ROOT, " | kafka: %d rows %s, up to v%d, %d behind", kafka.seen().total(),
          kafka.seen().byLabel(), kafka.version(), expected - kafka.seen().total()));
    }
    if (spark != null) {
      line.append(String.format(Locale.ROOT, " | spark: %d batches, %d rows, up to v%d, %d behind", spark.batches(),
          spark.rows(), spark.version(), expected - spark.rows()));
    }
    say("progress", "%s", line);
  }

  /** Waits until every side holds as many rows as were committed; false when one did not in time. */
  private boolean awaitCatchUp() throws Exception {
    long expected = expected().total();
    say("demo", "commits stopped at v%d; waiting for both sides to reach %d rows", writer.version(), expected);
    long deadline = System.nanoTime() + CATCH_UP.toNanos();
    while (System.nanoTime() < deadline) {
      boolean kafkaDone = kafka == null || kafka.seen().total() >= expected;
      boolean sparkDone = spark == null || spark.rows() >= expected;
      if (spark != null && !spark.alive()) {
        say("demo", "the Spark driver exited early");
        return false;
      }
      if (kafkaDone && sparkDone) {
        Thread.sleep(2_000); // anything beyond the expected rows (duplicates) would show now
        return true;
      }
      Thread.sleep(500);
    }
    return false;
  }

  private boolean summary(boolean caughtUp) throws Exception {
    Tally expected = expected();
    progress(-1);
    say("summary", "committed: %d versions %s, %d row changes; in mode %s a stream delivers %d rows %s",
        writer.version(), writer.commits(), writer.expected().size(), settings.mode, expected.total(),
        expected.byLabel());
    boolean exact = caughtUp;
    if (kafka != null) {
      Tally.Comparison c = expected.compare(kafka.seen());
      say("summary", "kafka: %d rows %s (+%d tombstones): %s -> %s", kafka.seen().total(), kafka.seen().byLabel(),
          kafka.tombstones(), c, c.exact() ? "EXACT" : "MISMATCH");
      say("summary", "kafka: GET /connectors/%s/offsets, where a restart resumes:%n%s", KafkaSide.CONNECTOR,
          kafka.storedOffsets());
      exact &= c.exact();
    }
    if (spark != null) {
      if (spark.alive()) {
        java.util.SortedSet<String> listening = spark.listening();
        say("summary", "spark: the driver listens on %s", listening == null ? "(unknown: no /proc)" : listening);
      }
      Tally seen = spark.seen();
      Tally.Comparison c = expected.compare(seen);
      say("summary", "spark: %d rows %s in %d batches: %s -> %s", seen.total(), seen.byLabel(), spark.batches(), c,
          c.exact() ? "EXACT" : "MISMATCH");
      exact &= c.exact();
    }
    say("summary", exact ? "every side saw exactly the committed rows" : "a side did not see exactly the committed "
        + "rows (see above)");
    return exact;
  }

  /** What a stream in the demo's mode delivers of the writer's commits so far. */
  private Tally expected() {
    Tally t = new Tally();
    for (EventWriter.Expected e : writer.expected()) {
      boolean delivered = settings.mode.equals("readChangeFeed")
          || (settings.mode.equals("default") ? e.change.isNewImage() : e.change == EventWriter.Change.INSERT);
      if (delivered) {
        t.add(e.eventId, label(settings.mode, e.change.label));
      }
    }
    return t;
  }

  /** How a row is labelled for comparison: by change type with readChangeFeed, else just "new". */
  static String label(String mode, String changeType) {
    return mode.equals("readChangeFeed") ? changeType : "new";
  }

  /** Stops whatever runs, last started first, and removes the demo's directory. Safe to call twice. */
  synchronized void close() {
    while (!running.isEmpty()) {
      try {
        running.pop().close();
      } catch (Exception e) {
        say("demo", "while stopping: %s", e);
      }
    }
    deleteRecursively(work);
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          Files.delete(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      say("demo", "could not remove %s: %s", dir, e.getMessage());
    }
  }

  static void say(String who, String format, Object... args) {
    System.out.printf(Locale.ROOT, "[%s] %s%n", who, String.format(Locale.ROOT, format, args));
  }
}
