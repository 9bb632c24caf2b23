package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.deltalog.DeltaLog;
import io.sharestream.common.deltalog.LogCommit;
import io.sharestream.common.deltalog.LogFile;
import io.sharestream.common.deltalog.LogFiles;
import io.sharestream.common.deltalog.LogSnapshot;
import io.sharestream.common.errors.VersionNotAvailableException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Action;
import org.apache.spark.sql.delta.actions.AddCDCFile;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.actions.DeletionVectorDescriptor;
import org.apache.spark.sql.delta.actions.Metadata;
import org.apache.spark.sql.delta.actions.Protocol;
import org.apache.spark.sql.delta.actions.RemoveFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * The core's own Delta log reader ({@link DeltaLog}) against tables Delta Lake 3.2 wrote, with every checkpoint kind
 * Delta writes (the test kit writes classic ones only): classic, multi-part, V2 with a Parquet and with a JSON top-level
 * file and sidecars, and a log whose oldest commits Delta's own cleanup removed. At every version it can build, the
 * live files (path as in the log, partition values, size, statistics, deletion vector id and cardinality), the
 * metadata ({@code id}, {@code schemaString}, {@code configuration}) and the protocol are Delta's own snapshot's; the
 * latest version is Delta's; and each surviving commit's add, remove and cdc actions are those Delta reads for it.
 *
 * <p>One history of 13 commits is written by SQL ({@link #HISTORY}); the other tables are copies of its files on which
 * Delta itself writes the other checkpoint kinds ({@code DeltaLog.checkpoint}, what its post-commit hook calls), so
 * the SQL is run once. Each table has its own Spark session (a {@code newSession()} of the module's one
 * {@link DeltaFixtures#spark()} session), so the checkpoint settings one table needs reach no other table of the JVM.
 */
class DeltaLogReadsDeltaWrittenTablesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CLASSIC = Pattern.compile("\\d{20}\\.checkpoint\\.parquet");
  private static final Pattern PART = Pattern.compile("\\d{20}\\.checkpoint\\.(\\d{10})\\.(\\d{10})\\.parquet");
  private static final Pattern V2 = Pattern.compile("\\d{20}\\.checkpoint\\.[0-9a-f-]{36}\\.(json|parquet)");

  private static Path root;
  private static Table classic;
  private static Table multiPart;
  private static Table v2;
  private static Table cleaned;

  @BeforeAll
  static void writeTables() throws Exception {
    SparkSession spark = DeltaFixtures.spark();
    Option<SparkSession> active = SparkSession.getActiveSession();
    root = Files.createTempDirectory("deltalog-interop");
    ExecutorService background = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "delta-snapshots-of-classic");
      t.setDaemon(true);
      return t;
    });
    try {
      // one history written by SQL; the other tables are copies of its files on which Delta writes other checkpoints
      classic = writeClassic(new Table(spark, root.resolve("classic")));
      // Delta's snapshots of it are built while the copies are written: Spark plans each job on its caller's thread
      Future<Map<Long, Expected>> snapshots = background.submit(DeltaLogReadsDeltaWrittenTablesTest::classicSnapshots);
      multiPart = writeMultiPart(classic.copy("multi-part", n -> !n.contains("checkpoint")));
      v2 = writeV2(classic.copy("v2", n -> true));
      cleaned = writeCleaned(classic.copy("cleaned", n -> true));
      snapshots.get();
    } finally {
      background.shutdown();
      // the tables' sessions were made active on this thread; the module's other tests expect the shared one
      if (active.isDefined()) {
        SparkSession.setActiveSession(active.get());
      } else {
        SparkSession.clearActiveSession();
      }
    }
  }

  @AfterAll
  static void deleteTables() throws IOException {
    if (root != null) {
      try (Stream<Path> s = Files.walk(root)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  // ------------------------------------------------------------------------------------------------------ tables

  private static String append(long from) {
    return "INSERT INTO {t} SELECT /*+ COALESCE(1) */ id, concat('n', id) AS name, concat('p:', id % 3) AS part "
        + "FROM range(" + from + ", " + (from + 30) + ")";
  }

  /**
   * Versions 1..13 of {@link #writeClassic}: appends of 30 rows in partitions {@code p:0..p:2} (one file in each; the
   * colon is escaped in the directory name and the log's paths escape that again), DELETEs that leave deletion
   * vectors (and deletion vectors on files that have one), UPDATEs and a MERGE (deletion vectors, new files, change
   * data files), an OPTIMIZE (dataChange false), a DELETE of a whole partition (removes only).
   */
  private static final List<String> HISTORY = List.of(
      append(100), append(200),
      "DELETE FROM {t} WHERE id % 10 = 3",
      "UPDATE {t} SET name = concat('u', id) WHERE id % 7 = 0",
      "DELETE FROM {t} WHERE id = 101",
      "MERGE INTO {t} t USING (SELECT id, concat('s', id) AS name, concat('p:', id % 3) AS part "
          + "FROM range(215, 245)) s ON t.id = s.id "
          + "WHEN MATCHED AND s.id % 4 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET name = s.name "
          + "WHEN NOT MATCHED THEN INSERT *",
      append(300),
      "DELETE FROM {t} WHERE id % 10 = 5",
      "OPTIMIZE {t}",
      "DELETE FROM {t} WHERE part = 'p:1'",
      "UPDATE {t} SET name = 'x' WHERE id % 9 = 0",
      append(400),
      "DELETE FROM {t} WHERE id = 402");

  /**
   * Deletion vectors and the change data feed on, partitioned by {@code part}, a checkpoint every 5 versions:
   * versions 0 (CREATE) to 13 ({@link #HISTORY}), classic checkpoints at 5 and 10.
   */
  private static Table writeClassic(Table t) {
    t.step("CREATE TABLE {t} (id BIGINT, name STRING, part STRING) USING delta PARTITIONED BY (part) "
        + "TBLPROPERTIES (delta.enableDeletionVectors = true, delta.enableChangeDataFeed = true, "
        + "delta.checkpointInterval = 5)");
    HISTORY.forEach(t::step);
    return t;
  }

  /** The commits of {@link #writeClassic}; Delta checkpoints 5 and 10 in parts of at most 5 actions. */
  private static Table writeMultiPart(Table t) {
    t.conf("spark.databricks.delta.checkpoint.partSize", "5");
    t.checkpoint(5);
    t.checkpoint(10);
    return t;
  }

  /**
   * The log of {@link #writeClassic} (classic checkpoints at 5 and 10), then {@code delta.checkpointPolicy = v2}
   * (14), an append (15), a V2 checkpoint at 15 with a Parquet top-level file, an append (16), a V2 checkpoint at 16
   * with a JSON top-level file, a DELETE (17); their files are in sidecars of at most 5 actions.
   */
  private static Table writeV2(Table t) {
    // checkpoints only where written below
    t.step("ALTER TABLE {t} SET TBLPROPERTIES ('delta.checkpointPolicy' = 'v2', 'delta.checkpointInterval' = 100)");
    t.step(append(500));
    t.conf("spark.databricks.delta.checkpoint.partSize", "5");
    t.conf("spark.databricks.delta.checkpointV2.topLevelFileFormat", "parquet");
    t.checkpoint(15);
    t.step(append(600));
    t.conf("spark.databricks.delta.checkpointV2.topLevelFileFormat", "json");
    t.checkpoint(16);
    t.step("DELETE FROM {t} WHERE id IN (401, 501)");
    return t;
  }

  /**
   * The log of {@link #writeClassic} with the commits of 0..7 and the checkpoint at 5 made 40 days old (past the
   * default 30 days' log retention); then Delta checkpoints 13, and its own cleanup after that removes them: the
   * commits of 8..13 and the checkpoints at 10 and 13 are left.
   */
  private static Table writeCleaned(Table t) {
    long old = System.currentTimeMillis() - 40L * 24 * 3600 * 1000;
    for (String name : t.logNames()) {
      if (name.matches("\\d{20}\\.(json|checkpoint\\.parquet)") && Long.parseLong(name.substring(0, 20)) <= 7) {
        try {
          Files.setLastModifiedTime(t.log.resolve(name), FileTime.fromMillis(old + Long.parseLong(name.substring(0,
              20)) * 1000));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    t.checkpoint(13);
    return t;
  }

  /** One table written by Delta in a directory of its own, by a Spark session of its own. */
  static final class Table {
    final String name;
    final Path dir;
    final Path log;
    final SparkSession session;
    final String ref;

    Table(SparkSession spark, Path dir) {
      this.name = dir.getFileName().toString();
      this.dir = dir;
      this.log = dir.resolve("_delta_log");
      this.session = spark.newSession();
      this.ref = "delta.`" + dir + "`";
      // a commit's checksum file costs a snapshot state computation; the log reader does not read them
      conf("spark.databricks.delta.writeChecksumFile.enabled", "false");
    }

    /** Runs {@code template} ({@code {t}} = the table), which must commit the next version, in this session. */
    void step(String template) {
      long expected = latest() + 1;
      SparkSession.setActiveSession(session);
      session.sql(template.replace("{t}", ref));
      if (latest() != expected) {
        throw new IllegalStateException(name + ": '" + template + "' committed up to version " + latest()
            + ", expected " + expected);
      }
    }

    void conf(String key, String value) {
      session.conf().set(key, value);
    }

    /** Delta checkpoints {@code version} (and cleans up expired log files), with this session's settings. */
    void checkpoint(long version) {
      SparkSession.setActiveSession(session);
      org.apache.spark.sql.delta.DeltaLog delta = delta();
      delta.checkpoint(delta.getSnapshotAt(version, Option.empty()));
    }

    long latest() {
      return Files.isDirectory(log) ? DeltaFixtures.latestVersion(dir) : -1;
    }

    /** A copy of this table's files, its {@code _delta_log/} files only those whose names {@code keep} accepts. */
    Table copy(String copyName, java.util.function.Predicate<String> keep) {
      Path to = dir.resolveSibling(copyName);
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.collect(Collectors.toList())) {
          Path target = to.resolve(dir.relativize(p).toString());
          if (Files.isDirectory(p)) {
            Files.createDirectories(target);
          } else if (!p.getParent().equals(log) || keep.test(p.getFileName().toString())) {
            Files.copy(p, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new Table(session, to);
    }

    /** The names of the files directly in {@code _delta_log/}, sorted. */
    List<String> logNames() {
      return names(log);
    }

    List<String> sidecarNames() {
      return !Files.isDirectory(log.resolve("_sidecars")) ? List.of() : names(log.resolve("_sidecars")).stream()
          .filter(n -> !n.startsWith(".")).collect(Collectors.toList());
    }

    private static List<String> names(Path dir) {
      try (Stream<Path> s = Files.list(dir)) {
        return s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).sorted()
            .collect(Collectors.toList());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    DeltaLog deltaLog(LocalLogFiles files) {
      return new DeltaLog(files, name);
    }

    LocalLogFiles files() {
      return new LocalLogFiles(log);
    }

    /** Delta's own log of the table. */
    org.apache.spark.sql.delta.DeltaLog delta() {
      return org.apache.spark.sql.delta.DeltaLog.forTable(session, dir.toString());
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** A table's {@code _delta_log} on the local disk, listed in name order; remembers which files were opened. */
  static final class LocalLogFiles implements LogFiles {
    private static final Configuration HADOOP = new Configuration();
    private final Path log;
    final List<String> opened = Collections.synchronizedList(new ArrayList<>());

    LocalLogFiles(Path log) {
      this.log = log;
    }

    @Override
    public Iterator<LogFile> list(String fromName) throws IOException {
      List<LogFile> out = new ArrayList<>();
      try (Stream<Path> s = Files.list(log)) {
        for (Path p : s.filter(Files::isRegularFile).sorted().collect(Collectors.toList())) {
          String name = p.getFileName().toString();
          if (name.compareTo(fromName) >= 0) {
            out.add(new LogFile(name, Files.size(p), Files.getLastModifiedTime(p).toMillis()));
          }
        }
      }
      return out.iterator();
    }

    @Override
    public InputStream open(LogFile file) throws IOException {
      opened.add(file.name());
      return Files.newInputStream(log.resolve(file.name()));
    }

    @Override
    public InputFile openParquet(LogFile file) throws IOException {
      opened.add(file.name());
      return HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(log.resolve(file.name()).toUri()), HADOOP);
    }
  }

  // ----------------------------------------------------------------------------------------------- comparisons

  /**
   * A live file: its path as in the log, its partition values, size and statistics, and its deletion vector's id and
   * cardinality where it has one.
   */
  private static String file(String path, Map<String, String> partitionValues, long size, String stats, String dv,
      long cardinality) {
    return path + " " + new TreeMap<>(partitionValues) + " size=" + size + (dv == null ? "" : " dv=" + dv
        + " cardinality=" + cardinality) + " stats=" + stats;
  }

  private static String dvId(JsonNode dv) {
    return !dv.isObject() ? null : dv.path("storageType").asText() + dv.path("pathOrInlineDv").asText()
        + (dv.hasNonNull("offset") ? "@" + dv.get("offset").asInt() : "");
  }

  private static String dvId(DeletionVectorDescriptor dv) {
    return dv == null ? null : dv.storageType() + dv.pathOrInlineDv()
        + (dv.offset().isDefined() ? "@" + dv.offset().get() : "");
  }

  private static List<String> files(LogSnapshot s) {
    List<String> out = new ArrayList<>();
    Iterator<ObjectNode> it = s.files();
    while (it.hasNext()) {
      ObjectNode add = it.next();
      JsonNode dv = add.path("deletionVector");
      Map<String, String> partitionValues = new TreeMap<>();
      add.path("partitionValues").fields().forEachRemaining(e -> partitionValues.put(e.getKey(),
          e.getValue().isNull() ? null : e.getValue().asText()));
      out.add(file(add.path("path").asText(), partitionValues, add.path("size").asLong(),
          add.hasNonNull("stats") ? add.get("stats").asText() : null, dvId(dv), dv.path("cardinality").asLong(-1)));
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static List<String> files(Snapshot s) {
    List<String> out = new ArrayList<>();
    for (AddFile add : s.allFiles().collectAsList()) {
      DeletionVectorDescriptor dv = add.deletionVector();
      out.add(file(add.path(), JavaConverters.mapAsJavaMap(add.partitionValues()), add.size(), add.stats(), dvId(dv),
          dv == null ? -1 : dv.cardinality()));
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static Map<String, Object> metadata(ObjectNode m) {
    Map<String, String> conf = new TreeMap<>();
    m.path("configuration").fields().forEachRemaining(e -> conf.put(e.getKey(), e.getValue().asText()));
    return metadata(m.path("id").asText(), m.path("schemaString").asText(), conf);
  }

  private static Map<String, Object> metadata(Metadata m) {
    return metadata(m.id(), m.schemaString(), new TreeMap<>(JavaConverters.mapAsJavaMap(m.configuration())));
  }

  private static Map<String, Object> metadata(String id, String schemaString, Map<String, String> configuration) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("id", id);
    out.put("schemaString", schemaString);
    out.put("configuration", configuration);
    return out;
  }

  private static Map<String, Object> protocol(ObjectNode p) {
    return protocol(p.path("minReaderVersion").asInt(), p.path("minWriterVersion").asInt(),
        features(p.path("readerFeatures")), features(p.path("writerFeatures")));
  }

  private static Set<String> features(JsonNode a) {
    if (!a.isArray()) {
      return null;
    }
    Set<String> out = new TreeSet<>();
    a.forEach(f -> out.add(f.asText()));
    return out;
  }

  private static Map<String, Object> protocol(Protocol p) {
    return protocol(p.minReaderVersion(), p.minWriterVersion(), features(p.readerFeatures()),
        features(p.writerFeatures()));
  }

  private static Set<String> features(Option<scala.collection.immutable.Set<String>> f) {
    return f.isEmpty() ? null : new TreeSet<>(JavaConverters.setAsJavaSet(f.get()));
  }

  private static Map<String, Object> protocol(int reader, int writer, Set<String> readerFeatures,
      Set<String> writerFeatures) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("minReaderVersion", reader);
    out.put("minWriterVersion", writer);
    out.put("readerFeatures", readerFeatures);
    out.put("writerFeatures", writerFeatures);
    return out;
  }

  /** A file action of a commit: its kind, path, dataChange and (add, remove) deletion vector id. */
  private static String action(String kind, String path, boolean dataChange, String dv) {
    return kind + " " + path + " dataChange=" + dataChange + (dv == null ? "" : " dv=" + dv);
  }

  private static List<String> actions(LogCommit c) {
    List<String> out = new ArrayList<>();
    Iterator<ObjectNode> it = c.actions();
    while (it.hasNext()) {
      ObjectNode a = it.next();
      for (String kind : List.of("add", "remove", "cdc")) {
        if (a.has(kind)) {
          JsonNode f = a.get(kind);
          out.add(action(kind, f.path("path").asText(), f.path("dataChange").asBoolean(),
              dvId(f.path("deletionVector"))));
        }
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** The file actions Delta reads for {@code version} ({@code DeltaLog.getChanges}). */
  private static List<String> deltaActions(org.apache.spark.sql.delta.DeltaLog delta, long version) {
    scala.collection.Iterator<Tuple2<Object, scala.collection.Seq<Action>>> changes = delta.getChanges(version, false);
    assertThat(changes.hasNext()).as("Delta's changes from version %d", version).isTrue();
    Tuple2<Object, scala.collection.Seq<Action>> first = changes.next();
    assertThat(first._1()).isEqualTo(version);
    List<String> out = new ArrayList<>();
    for (Action a : JavaConverters.seqAsJavaList(first._2())) {
      if (a instanceof AddFile) {
        AddFile f = (AddFile) a;
        out.add(action("add", f.path(), f.dataChange(), dvId(f.deletionVector())));
      } else if (a instanceof RemoveFile) {
        RemoveFile f = (RemoveFile) a;
        out.add(action("remove", f.path(), f.dataChange(), dvId(f.deletionVector())));
      } else if (a instanceof AddCDCFile) {
        AddCDCFile f = (AddCDCFile) a;
        out.add(action("cdc", f.path(), f.dataChange(), null));
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** Delta's own snapshot at one version: its live files, metadata and protocol as compared. */
  private static final class Expected {
    final List<String> files;
    final Map<String, Object> metadata;
    final Map<String, Object> protocol;

    Expected(Snapshot s) {
      files = files(s);
      metadata = metadata(s.metadata());
      protocol = protocol(s.protocol());
    }
  }

  /** Delta's snapshots at {@code versions}, two at a time: Spark plans each on its caller's thread. */
  private static Map<Long, Expected> deltaSnapshots(org.apache.spark.sql.delta.DeltaLog delta,
      Iterable<Long> versions) {
    ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "delta-snapshots");
      t.setDaemon(true);
      return t;
    });
    try {
      Map<Long, Future<Expected>> running = new TreeMap<>();
      for (long v : versions) {
        running.put(v, pool.submit(() -> new Expected(delta.getSnapshotAt(v, Option.empty()))));
      }
      Map<Long, Expected> out = new TreeMap<>();
      for (Map.Entry<Long, Future<Expected>> e : running.entrySet()) {
        out.put(e.getKey(), e.getValue().get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("Delta could not build a snapshot", e.getCause());
    } finally {
      pool.shutdown();
    }
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long v = from; v <= to; v++) {
      out.add(v);
    }
    return out;
  }

  private static Map<Long, Expected> classicSnapshots;

  /** Delta's snapshots of {@link #classic} at every version, built once. */
  private static synchronized Map<Long, Expected> classicSnapshots() {
    if (classicSnapshots == null) {
      classicSnapshots = deltaSnapshots(classic.delta(), range(0, classic.latest()));
    }
    return classicSnapshots;
  }

  /**
   * At every version from {@link DeltaLog#earliestVersion()} to the latest, {@link DeltaLog#snapshot}'s files,
   * metadata and protocol are Delta's snapshot's; the latest version is Delta's; every surviving commit from version 1
   * holds the add, remove and cdc actions Delta reads for it. Returns the number of snapshots compared.
   *
   * <p>{@code t} other than {@link #classic} is a copy of it, its commits of {@link #classic}'s versions byte for byte
   * the same (asserted): at those versions Delta's snapshots of {@link #classic} are the expected ones (Delta's
   * snapshot is a function of the commits), and Delta's own snapshots of {@code t} are built only at
   * {@code ownSnapshots} (asserted equal to them: Delta reading its own new checkpoints) and at later versions.
   */
  private static long assertEveryVersionIsDeltas(Table t, Long... ownSnapshots) throws IOException {
    DeltaLog log = t.deltaLog(t.files());
    org.apache.spark.sql.delta.DeltaLog delta = t.delta();
    long latest = delta.update(false, Option.empty()).version();
    assertThat(log.latestVersion()).as("%s: latest version", t).isEqualTo(latest);
    long earliest = log.earliestVersion();
    Map<Long, Expected> expected = new TreeMap<>();
    if (t == classic) {
      expected.putAll(classicSnapshots());
    } else {
      long shared = classic.latest();
      for (String n : t.logNames()) {
        if (n.matches("\\d{20}\\.json") && Long.parseLong(n.substring(0, 20)) <= shared) {
          assertThat(Files.mismatch(t.log.resolve(n), classic.log.resolve(n))).as("%s: %s", t, n).isEqualTo(-1L);
        }
      }
      for (long v = earliest; v <= Math.min(shared, latest); v++) {
        expected.put(v, classicSnapshots().get(v));
      }
      List<Long> own = new ArrayList<>(List.of(ownSnapshots));
      own.addAll(range(shared + 1, latest));
      Map<Long, Expected> built = deltaSnapshots(delta, own);
      for (long v : ownSnapshots) {
        assertThat(built.get(v).files).as("%s: Delta's own files at version %d", t, v)
            .isEqualTo(expected.get(v).files);
      }
      expected.putAll(built);
    }
    int withDeletionVectors = 0;
    for (long v = earliest; v <= latest; v++) {
      Expected e = expected.get(v);
      LogSnapshot actual = log.snapshot(v);
      assertThat(actual.version()).isEqualTo(v);
      assertThat(files(actual)).as("%s: live files at version %d", t, v).isEqualTo(e.files);
      withDeletionVectors += e.files.stream().anyMatch(f -> f.contains(" dv=")) ? 1 : 0;
      assertThat(metadata(actual.metadata())).as("%s: metadata at version %d", t, v).isEqualTo(e.metadata);
      assertThat(protocol(actual.protocol())).as("%s: protocol at version %d", t, v).isEqualTo(e.protocol);
    }
    assertThat(withDeletionVectors).as("%s: versions with deletion vectors", t).isGreaterThan(0);
    int cdc = 0;
    for (long v = Math.max(1, log.earliestCommit()); v <= latest; v++) {
      List<LogCommit> commits = log.commits(v, v);
      assertThat(commits).hasSize(1);
      assertThat(commits.get(0).version()).isEqualTo(v);
      List<String> actions = actions(commits.get(0));
      assertThat(actions).as("%s: file actions of version %d", t, v).isEqualTo(deltaActions(delta, v));
      cdc += actions.stream().anyMatch(a -> a.startsWith("cdc ")) ? 1 : 0;
    }
    assertThat(cdc).as("%s: commits with change data files", t).isGreaterThan(0);
    return latest - earliest + 1;
  }

  /** The versions of the checkpoint files in {@code names} that match {@code kind}. */
  private static Set<Long> checkpointVersions(List<String> names, Pattern kind) {
    return names.stream().filter(n -> kind.matcher(n).matches()).map(n -> Long.parseLong(n.substring(0, 20)))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  // ------------------------------------------------------------------------------------------------------- tests

  @Test
  void everyVersionOfATableWithClassicCheckpointsIsDeltasSnapshot() throws IOException {
    assertThat(checkpointVersions(classic.logNames(), CLASSIC)).containsExactly(5L, 10L);
    assertThat(classic.logNames()).noneMatch(n -> PART.matcher(n).matches() || V2.matcher(n).matches());
    DeltaLog log = classic.deltaLog(classic.files());
    assertThat(log.earliestVersion()).isZero();
    // paths exactly as in the log: the partition directory "part=p%3A0" escaped once more
    assertThat(files(log.snapshot(13))).anyMatch(f -> f.startsWith("part=p%253A0/"));
    assertThat(assertEveryVersionIsDeltas(classic)).isEqualTo(14);
  }

  @Test
  void everyVersionOfATableWithMultiPartCheckpointsIsDeltasSnapshot() throws IOException {
    List<String> names = multiPart.logNames();
    assertThat(checkpointVersions(names, CLASSIC)).as("single-file checkpoints").isEmpty();
    assertThat(checkpointVersions(names, PART)).containsExactly(5L, 10L);
    for (long v : List.of(5L, 10L)) {
      List<String> parts = names.stream().filter(n -> PART.matcher(n).matches() && n.startsWith(String.format("%020d",
          v))).collect(Collectors.toList());
      java.util.regex.Matcher m = PART.matcher(parts.get(0));
      assertThat(m.matches()).isTrue();
      int of = Integer.parseInt(m.group(2));
      assertThat(of).as("parts of checkpoint %d", v).isGreaterThan(1);
      assertThat(parts).as("parts of checkpoint %d", v).hasSize(of);
    }
    LocalLogFiles files = multiPart.files();
    DeltaLog log = multiPart.deltaLog(files);
    assertThat(files(log.snapshot(10))).isNotEmpty();
    assertThat(files.opened).as("files read for version 10")
        .containsAll(names.stream().filter(n -> n.startsWith(String.format("%020d.checkpoint.", 10)))
            .collect(Collectors.toList()))
        .noneMatch(n -> n.matches("\\d{20}\\.json"));
    assertThat(assertEveryVersionIsDeltas(multiPart, 5L, 10L)).isEqualTo(14);
  }

  @Test
  void everyVersionOfATableWithV2CheckpointsAndSidecarsIsDeltasSnapshot() throws IOException {
    List<String> names = v2.logNames();
    assertThat(checkpointVersions(names, CLASSIC)).as("classic checkpoints").containsExactly(5L, 10L);
    List<String> v2Checkpoints = names.stream().filter(n -> V2.matcher(n).matches()).collect(Collectors.toList());
    assertThat(v2Checkpoints).as("V2 checkpoints").hasSize(2);
    assertThat(v2Checkpoints.get(0)).startsWith(String.format("%020d", 15)).endsWith(".parquet");
    assertThat(v2Checkpoints.get(1)).startsWith(String.format("%020d", 16)).endsWith(".json");
    List<String> sidecars = v2.sidecarNames();
    assertThat(sidecars).as("sidecars").hasSizeGreaterThan(2).allMatch(n -> n.endsWith(".parquet"));
    // the JSON top-level file names its sidecars and holds no file action
    List<JsonNode> top = new ArrayList<>();
    for (String line : Files.readAllLines(v2.log.resolve(v2Checkpoints.get(1)))) {
      top.add(JSON.readTree(line));
    }
    assertThat(top).anyMatch(a -> a.has("sidecar")).anyMatch(a -> a.has("checkpointMetadata"))
        .noneMatch(a -> a.has("add"));

    for (long v : List.of(15L, 16L)) {
      LocalLogFiles files = v2.files();
      LogSnapshot s = v2.deltaLog(files).snapshot(v);
      assertThat(features(s.protocol().path("readerFeatures"))).contains("v2Checkpoint");
      // no commit follows the checkpoint at its own version: every file comes from the sidecars
      assertThat(files(s)).as("files at version %d", v).isNotEmpty();
      List<String> read = new ArrayList<>(files.opened);
      assertThat(read).as("files read for version %d", v).contains(v2Checkpoints.get(v == 15 ? 0 : 1))
          .noneMatch(n -> n.matches("\\d{20}\\.json"));
      List<String> sidecarsRead = read.stream().filter(n -> n.startsWith("_sidecars/")).collect(Collectors.toList());
      assertThat(sidecarsRead).as("sidecars read for version %d", v).hasSizeGreaterThan(1)
          .allMatch(n -> n.startsWith("_sidecars/" + String.format("%020d", v)));
      assertThat(sidecars).containsAll(sidecarsRead.stream().map(n -> n.substring("_sidecars/".length()))
          .collect(Collectors.toList()));
    }
    assertThat(assertEveryVersionIsDeltas(v2)).isEqualTo(18);
  }

  @Test
  void versionsWhoseCommitsDeltasCleanupRemovedAreNotAvailable() throws IOException {
    List<String> names = cleaned.logNames();
    assertThat(names).as("what Delta's cleanup left")
        .doesNotContain(String.format("%020d.json", 0), String.format("%020d.json", 7),
            String.format("%020d.checkpoint.parquet", 5))
        .contains(String.format("%020d.json", 8), String.format("%020d.checkpoint.parquet", 10),
            String.format("%020d.checkpoint.parquet", 13));
    DeltaLog log = cleaned.deltaLog(cleaned.files());
    assertThat(log.earliestVersion()).isEqualTo(10);
    assertThat(log.earliestCommit()).isEqualTo(8);
    // 8 and 9: their commits survive, but no checkpoint at or before them does
    assertThatThrownBy(() -> log.snapshot(9)).isInstanceOf(VersionNotAvailableException.class);
    assertThatThrownBy(() -> log.snapshot(7)).isInstanceOf(VersionNotAvailableException.class);
    assertThatThrownBy(() -> log.snapshot(0)).isInstanceOf(VersionNotAvailableException.class);
    assertThatThrownBy(() -> log.commits(7, 9)).isInstanceOf(VersionNotAvailableException.class);
    assertThat(log.commits(8, 9)).hasSize(2);
    assertThatThrownBy(() -> cleaned.delta().getSnapshotAt(9, Option.empty())).as("Delta's own snapshot at 9")
        .isInstanceOf(Exception.class);
    assertThat(assertEveryVersionIsDeltas(cleaned, 13L)).isEqualTo(4);
  }
}
