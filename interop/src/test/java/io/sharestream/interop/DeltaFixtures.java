package io.sharestream.interop;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Tables written by Delta Lake 3.2 itself (Spark 3.5, local), each built once per JVM on first use in a temporary
 * directory and shared by every test class of the module, with Delta's own answers as ground truth.
 *
 * <ul>
 *   <li>{@link #cdf()}: change data feed, partitioned, neither deletion vectors nor column mapping (the parquet
 *       response format serves it);
 *   <li>{@link #deletionVectors()} and {@link #deletionVectorsWithCdf()}: deletion vectors, without / with the change
 *       data feed: appends, DELETE of one row of a file, a second DELETE in the same file, a DELETE emptying a whole
 *       file, UPDATE, MERGE, OPTIMIZE, checkpoints, a DELETE after OPTIMIZE, more appends;
 *   <li>{@link #columnMappingName()} and {@link #columnMappingId()}: column mapping {@code name} / {@code id} from
 *       CREATE TABLE, change data feed on, a partition column and a nested struct: RENAME (top level and nested),
 *       DROP, re-ADD of the dropped name, appends between, a DELETE, a checkpoint;
 *   <li>{@link #columnMappingUpgraded()}: a table that had rows before {@code name} mapping was switched on by ALTER
 *       TABLE (its first columns keep physical name = logical name, its first files have no field ids), then the
 *       same schema changes.
 * </ul>
 *
 * A test compares another reader with Delta in a few lines:
 *
 * <pre>{@code
 * DeltaFixtures.Fixture t = DeltaFixtures.deletionVectorsWithCdf();
 * t.snapshotRowsByVersion().forEach((v, rows) -> assertThat(myRows(t.dir(), v)).as("version %d", v).isEqualTo(rows));
 * t.changeFeedByVersion().forEach((v, rows) -> assertThat(myChanges(t.dir(), v)).as("version %d", v).isEqualTo(rows));
 * // myRows / myChanges render each row with DeltaFixtures.canonical(Map<String, Object>) and sort the list
 * }</pre>
 *
 * Rows are rendered as canonical JSON ({@link #canonical(Map)}): an object of the logical column names, keys sorted at
 * every level, nested structs as objects, nulls written out; change rows also carry {@code _change_type}. The new
 * fixtures use BIGINT, INT, STRING and structs of them only, so any reader renders them identically ({@link #cdf()}
 * has a DECIMAL(12,2), rendered as a JSON number with its two decimals, e.g. {@code 0.13}).
 */
public final class DeltaFixtures {
  /** Canonical JSON: keys sorted, exact numbers. */
  public static final ObjectMapper JSON = new ObjectMapper()
      .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
      .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true);

  /** Fixtures are built, and Delta's answers asked, a few at a time: most of a small query's time is planning. */
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3, r -> {
    Thread t = new Thread(r, "delta-fixtures");
    t.setDaemon(true);
    return t;
  });
  private static SparkSession spark;
  private static Path root;
  private static final Map<String, CompletableFuture<Fixture>> BUILT = new LinkedHashMap<>();

  private DeltaFixtures() {
  }

  /** The module's one Spark session with Delta's extension (started on first use; Spark stops it at JVM exit). */
  public static synchronized SparkSession spark() {
    if (spark == null) {
      spark = SparkSession.builder().master("local[2]").appName("delta-3-interop")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.default.parallelism", "2")
          // Delta rebuilds a snapshot's state with 50 partitions by default: most of a small commit's time
          .config("spark.databricks.delta.snapshotPartitions", "1")
          // adaptive execution splits each snapshot computation into three jobs; tiny data gains nothing from it
          .config("spark.sql.adaptive.enabled", "false")
          // tiny data: interpreting beats compiling generated code for every new query shape (about 15% here)
          .config("spark.sql.codegen.wholeStage", "false")
          .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
          .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
          .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
          .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteRecursively(root)));
    }
    return spark;
  }

  private static synchronized Path root() {
    if (root == null) {
      try {
        root = Files.createTempDirectory("delta-fixtures");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return root;
  }

  private static Fixture build(String name, Consumer<Builder> steps) {
    CompletableFuture<Fixture> built;
    boolean mine = false;
    synchronized (BUILT) {
      built = BUILT.get(name);
      if (built == null) {
        built = new CompletableFuture<>();
        BUILT.put(name, built);
        mine = true;
      }
    }
    if (mine) {
      try {
        Builder b = new Builder(name, root().resolve(name));
        steps.accept(b);
        built.complete(new Fixture(name, b.dir, b.operations));
      } catch (Throwable e) { // Scala throws AnalysisException, a checked exception, undeclared
        built.completeExceptionally(e);
        if (e instanceof RuntimeException || e instanceof Error) {
          throw e;
        }
        throw new IllegalStateException(name + " could not be written", e);
      }
    }
    try {
      return built.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
          : new IllegalStateException(name + " could not be written", e.getCause());
    }
  }

  /**
   * Builds the given fixtures side by side and returns them in order: Spark plans each statement on its caller's
   * thread, and planning is most of a small statement's time, so on two cores this takes less than one after the
   * other.
   */
  @SafeVarargs
  public static List<Fixture> prepare(Supplier<Fixture>... fixtures) {
    spark();
    List<Future<Fixture>> running = new ArrayList<>();
    for (Supplier<Fixture> f : fixtures) {
      running.add(POOL.submit(f::get));
    }
    List<Fixture> out = new ArrayList<>();
    for (Future<Fixture> f : running) {
      out.add(join(f));
    }
    return out;
  }

  private static <T> T join(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
          : new IllegalStateException(e.getCause());
    }
  }

  // ---------------------------------------------------------------------------------------------------- fixtures

  /**
   * Change data feed on, partitioned by {@code part}, neither deletion vectors nor column mapping. Columns
   * {@code id BIGINT, name STRING, part STRING, amount DECIMAL(12,2)} with {@code name = 'n' || id},
   * {@code part = 'p' || id % 3}, {@code amount = id / 8}. Versions: 0 CREATE, 1..10 ten appends of ten rows
   * (checkpoint at 10), 11 UPDATE {@code id % 7 = 0} (name 'updated'), 12 DELETE {@code id < 5}, 13 MERGE of ids
   * 95..109 (matched: name 'merged', else insert), 14 append of ids 200..202.
   */
  public static Fixture cdf() {
    return build("cdf", b -> {
      b.sql("CREATE TABLE %s (id BIGINT, name STRING, part STRING, amount DECIMAL(12,2)) USING delta "
          + "PARTITIONED BY (part) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
      for (int i = 0; i < 10; i++) {
        int from = i * 10;
        b.step("append ids " + from + ".." + (from + 9), () -> cdfRows(from, from + 10).write().format("delta")
            .mode(SaveMode.Append).save(b.path));
      }
      b.sql("UPDATE %s SET name = 'updated' WHERE id % 7 = 0");
      b.sql("DELETE FROM %s WHERE id < 5");
      b.step("MERGE ids 95..109", () -> {
        cdfRows(95, 110).createOrReplaceTempView(b.view("source"));
        b.run("MERGE INTO %s t USING " + b.view("source") + " s ON t.id = s.id "
            + "WHEN MATCHED THEN UPDATE SET name = 'merged' WHEN NOT MATCHED THEN INSERT *");
      });
      b.step("append ids 200..202", () -> cdfRows(200, 203).write().format("delta").mode(SaveMode.Append)
          .save(b.path));
    });
  }

  private static Dataset<Row> cdfRows(long from, long to) {
    return spark().range(from, to).selectExpr("id", "concat('n', id) AS name", "concat('p', id % 3) AS part",
        "cast(id / 8 as decimal(12,2)) AS amount");
  }

  /**
   * Deletion vectors on, change data feed off, {@code delta.checkpointInterval = 5}, unpartitioned; columns
   * {@code id BIGINT, name STRING, grp INT} with {@code name = 'n' || id}, {@code grp = id % 4}; each append is one
   * file with its rows in id order. Versions: see {@link #deletionVectorSteps}.
   */
  public static Fixture deletionVectors() {
    return build("dv", b -> deletionVectorSteps(b, false));
  }

  /** As {@link #deletionVectors()} with {@code delta.enableChangeDataFeed = true}. */
  public static Fixture deletionVectorsWithCdf() {
    return build("dv-cdf", b -> deletionVectorSteps(b, true));
  }

  /**
   * <pre>
   *  0 CREATE TABLE (deletion vectors on, checkpoint interval 5)
   *  1 append ids 0..49 (file A)   2 append ids 50..99 (file B)   3 append ids 100..149 (file C)
   *  4 DELETE id = 3                 A re-added with a DV of 1 row
   *  5 DELETE id IN (5, 7)           A re-added with a DV of 3 rows, the remove carries the DV of 1; checkpoint 5
   *  6 DELETE 50 &lt;= id &lt; 100       all of B: a remove only
   *  7 UPDATE name = 'u' || id WHERE id % 10 = 1: DVs on A (8 rows) and C (5), the new rows in two new files
   *  8 MERGE ids 140..159 from a source of rows as appended: matched and even: DELETE, matched: name = 'm' || id,
   *    else INSERT: DVs on C (14) and on the UPDATE's file of C's rows (1), one new file
   *  9 OPTIMIZE                      one file of the 102 live rows, dataChange false
   * 10 DELETE id = 20                a DV on the compacted file; checkpoint 10
   * 11 append ids 200..219          12 append ids 220..239
   * </pre>
   */
  private static void deletionVectorSteps(Builder b, boolean cdf) {
    b.sql("CREATE TABLE %s (id BIGINT, name STRING, grp INT) USING delta TBLPROPERTIES ("
        + "delta.enableDeletionVectors = true, delta.checkpointInterval = 5"
        + (cdf ? ", delta.enableChangeDataFeed = true" : "") + ")");
    b.append(0, 50);
    b.append(50, 100);
    b.append(100, 150);
    b.sql("DELETE FROM %s WHERE id = 3");
    b.sql("DELETE FROM %s WHERE id IN (5, 7)");
    b.sql("DELETE FROM %s WHERE id >= 50 AND id < 100");
    b.sql("UPDATE %s SET name = concat('u', id) WHERE id % 10 = 1");
    b.step("MERGE ids 140..159", () -> {
      dvRows(140, 160).createOrReplaceTempView(b.view("source"));
      b.run("MERGE INTO %s t USING " + b.view("source") + " s ON t.id = s.id "
          + "WHEN MATCHED AND s.id % 2 = 0 THEN DELETE "
          + "WHEN MATCHED THEN UPDATE SET name = concat('m', s.id) "
          + "WHEN NOT MATCHED THEN INSERT *");
    });
    b.sql("OPTIMIZE %s");
    b.sql("DELETE FROM %s WHERE id = 20");
    b.append(200, 220);
    b.append(220, 240);
  }

  private static Dataset<Row> dvRows(long from, long to) {
    return spark().range(from, to).selectExpr("id", "concat('n', id) AS name", "cast(id % 4 AS INT) AS grp")
        .coalesce(1);
  }

  /** Column mapping {@code name} from CREATE TABLE; see {@link #columnMappingSteps}. */
  public static Fixture columnMappingName() {
    return build("cm-name", b -> columnMappingSteps(b, "name"));
  }

  /** Column mapping {@code id} from CREATE TABLE; see {@link #columnMappingSteps}. */
  public static Fixture columnMappingId() {
    return build("cm-id", b -> columnMappingSteps(b, "id"));
  }

  private static final String CM_ROW = "id, concat('n', id) AS %name%, named_struct('%a%', cast(id % 5 AS INT), "
      + "'b', concat('b', id)) AS info, concat('p', id % 2) AS part";
  private static final String CM_SCORE = ", cast(id * 10 AS INT) AS score";

  /**
   * Column mapping in {@code mode} (reader 2 / writer 5, no table features), change data feed on, partitioned by
   * {@code part}, {@code delta.checkpointInterval = 10}. Rows of id {@code i}: the name column {@code 'n' || i},
   * {@code info = {a: i % 5, b: 'b' || i}}, {@code score = i * 10}, {@code part = 'p' || i % 2}; each append of ten
   * ids writes one file per partition.
   *
   * <pre>
   *  0 CREATE TABLE (id BIGINT, name STRING, info STRUCT&lt;a: INT, b: STRING&gt;, score INT, part STRING)
   *  1 append ids 0..9
   *  2 RENAME COLUMN name TO full_name    (physical name and id kept)
   *  3 append ids 10..19
   *  4 RENAME COLUMN info.a TO alpha
   *  5 append ids 20..29
   *  6 DROP COLUMN score
   *  7 append ids 30..39
   *  8 ADD COLUMNS (score INT)            (the dropped name again, last: a new physical name and id 8)
   *  9 append ids 40..49                  (score = i * 10 again)
   * 10 DELETE id % 10 = 0                 (files of p0 rewritten, with change data files; checkpoint 10)
   * </pre>
   */
  private static void columnMappingSteps(Builder b, String mode) {
    b.sql("CREATE TABLE %s (id BIGINT, name STRING, info STRUCT<a: INT, b: STRING>, score INT, part STRING) "
        + "USING delta PARTITIONED BY (part) TBLPROPERTIES (delta.columnMapping.mode = '" + mode + "', "
        + "delta.minReaderVersion = 2, delta.minWriterVersion = 5, delta.enableChangeDataFeed = true, "
        + "delta.checkpointInterval = 10)");
    b.appendSelect(0, cm("name", "a") + CM_SCORE);
    schemaChanges(b, 10);
  }

  /**
   * A table without column mapping that gets {@code name} mapping by ALTER TABLE, then the same changes as
   * {@link #columnMappingSteps} (change data feed on, partitioned by {@code part}):
   *
   * <pre>
   *  0 CREATE TABLE (id BIGINT, name STRING, info STRUCT&lt;a: INT, b: STRING&gt;, score INT, part STRING)
   *  1 append ids 0..9                    (plain column names, no field ids)
   *  2 SET TBLPROPERTIES (delta.columnMapping.mode = 'name', reader 2, writer 5)
   *  3 append ids 10..19
   *  4 RENAME COLUMN name TO full_name   5 append ids 20..29   6 RENAME COLUMN info.a TO alpha   7 append 30..39
   *  8 DROP COLUMN score   9 append ids 40..49   10 ADD COLUMNS (score INT)   11 append ids 50..59
   * 12 DELETE id % 10 = 0
   * </pre>
   */
  public static Fixture columnMappingUpgraded() {
    return build("cm-upgraded", b -> {
      b.sql("CREATE TABLE %s (id BIGINT, name STRING, info STRUCT<a: INT, b: STRING>, score INT, part STRING) "
          + "USING delta PARTITIONED BY (part) TBLPROPERTIES (delta.enableChangeDataFeed = true)");
      b.appendSelect(0, cm("name", "a") + CM_SCORE);
      b.sql("ALTER TABLE %s SET TBLPROPERTIES (delta.columnMapping.mode = 'name', delta.minReaderVersion = 2, "
          + "delta.minWriterVersion = 5)");
      b.appendSelect(10, cm("name", "a") + CM_SCORE);
      schemaChanges(b, 20);
    });
  }

  /** RENAME, append, nested RENAME, append, DROP, append, re-ADD, append, DELETE: appends from id {@code from}. */
  private static void schemaChanges(Builder b, long from) {
    b.sql("ALTER TABLE %s RENAME COLUMN name TO full_name");
    b.appendSelect(from, cm("full_name", "a") + CM_SCORE);
    b.sql("ALTER TABLE %s RENAME COLUMN info.a TO alpha");
    b.appendSelect(from + 10, cm("full_name", "alpha") + CM_SCORE);
    b.sql("ALTER TABLE %s DROP COLUMN score");
    b.appendSelect(from + 20, cm("full_name", "alpha"));
    b.sql("ALTER TABLE %s ADD COLUMNS (score INT)");
    b.appendSelect(from + 30, cm("full_name", "alpha") + CM_SCORE);
    b.sql("DELETE FROM %s WHERE id % 10 = 0");
  }

  private static String cm(String nameColumn, String nestedA) {
    return CM_ROW.replace("%name%", nameColumn).replace("%a%", nestedA);
  }

  // ----------------------------------------------------------------------------------------------------- builder

  /** Runs the steps of a fixture, one Delta version each, and records what each version did. */
  static final class Builder {
    final String name;
    final Path dir;
    final String path;
    final String table;
    final NavigableMap<Long, String> operations = new TreeMap<>();

    Builder(String name, Path dir) {
      this.name = name;
      this.dir = dir;
      this.path = dir.toString();
      this.table = "delta.`" + path + "`";
    }

    /** Runs {@code sqlTemplate} with {@code %s} = the table as the next version; recorded with the table as t. */
    void sql(String sqlTemplate) {
      step(sqlTemplate.replace("%s", "t"), () -> run(sqlTemplate));
    }

    /** A temporary view name of this fixture's own (fixtures may be built side by side). */
    String view(String what) {
      return "fixture_" + name.replace('-', '_') + "_" + what;
    }

    /** Runs {@code sqlTemplate} with {@code %s} = the table. */
    void run(String sqlTemplate) {
      spark().sql(sqlTemplate.replace("%s", table));
    }

    /** Appends ids {@code from..to-1} of {@link #dvRows} as one file. */
    void append(long from, long to) {
      step("append ids " + from + ".." + (to - 1), () -> dvRows(from, to).write().format("delta")
          .mode(SaveMode.Append).save(path));
    }

    /** Appends ids {@code from..from+9} as {@code SELECT select FROM ids} in one task. */
    void appendSelect(long from, String select) {
      step("append ids " + from + ".." + (from + 9), () -> {
        spark().range(from, from + 10).createOrReplaceTempView(view("ids"));
        spark().sql("SELECT " + select + " FROM " + view("ids")).coalesce(1).write().format("delta")
            .mode(SaveMode.Append).save(path);
      });
    }

    /** Runs {@code action}, which must commit exactly one version. */
    void step(String description, Runnable action) {
      long expected = operations.isEmpty() ? 0 : operations.lastKey() + 1;
      action.run();
      long latest = latestVersion(dir);
      if (latest != expected) {
        throw new IllegalStateException(name + ": '" + description + "' committed up to version " + latest
            + ", expected " + expected);
      }
      operations.put(expected, description);
    }
  }

  static long latestVersion(Path dir) {
    try (Stream<Path> s = Files.list(dir.resolve("_delta_log"))) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("\\d{20}\\.json"))
          .mapToLong(n -> Long.parseLong(n.substring(0, 20))).max().orElse(-1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------------------------------------------ fixture

  /** One Delta-written table and Delta's answers about it (computed on first request, then kept). */
  public static final class Fixture {
    private final String name;
    private final Path dir;
    private final NavigableMap<Long, String> operations;
    private NavigableMap<Long, List<String>> snapshots;
    private NavigableMap<Long, String> schemas;
    private NavigableMap<Long, List<String>> changes;
    private NavigableMap<Long, String> changeErrors;

    Fixture(String name, Path dir, NavigableMap<Long, String> operations) {
      this.name = name;
      this.dir = dir;
      this.operations = Collections.unmodifiableNavigableMap(operations);
    }

    public String name() {
      return name;
    }

    /** The table's directory. */
    public Path dir() {
      return dir;
    }

    public String path() {
      return dir.toString();
    }

    public long latestVersion() {
      return operations.lastKey();
    }

    /** What each version did, e.g. {@code 4 -> "DELETE FROM t WHERE id = 3"}. */
    public NavigableMap<Long, String> operations() {
      return operations;
    }

    /** The first version whose operation starts with {@code prefix}. */
    public long version(String prefix) {
      return operations.entrySet().stream().filter(e -> e.getValue().startsWith(prefix)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException(name + " has no operation " + prefix)).getKey();
    }

    /**
     * Delta's rows of the snapshot at every version ({@code versionAsOf}), each under that version's own schema
     * (see {@link #schemaByVersion()}), canonical JSON, sorted.
     */
    public synchronized NavigableMap<Long, List<String>> snapshotRowsByVersion() {
      if (snapshots == null) {
        NavigableMap<Long, String> schemaJson = new TreeMap<>();
        NavigableMap<Long, List<String>> rows = new TreeMap<>();
        inParallel(operations.keySet(), v -> {
          Dataset<Row> df = snapshot(v);
          List<String> r = render(df);
          synchronized (rows) {
            schemaJson.put(v, df.schema().json());
            rows.put(v, r);
          }
        });
        schemas = Collections.unmodifiableNavigableMap(schemaJson);
        snapshots = Collections.unmodifiableNavigableMap(rows);
      }
      return snapshots;
    }

    /** Delta's rows of the snapshot at one {@code version}, as in {@link #snapshotRowsByVersion()}. */
    public List<String> snapshotRows(long version) {
      synchronized (this) {
        if (snapshots != null) {
          return snapshots.get(version);
        }
      }
      return render(snapshot(version));
    }

    private Dataset<Row> snapshot(long version) {
      return spark().read().format("delta").option("versionAsOf", version).load(path());
    }

    /** The logical schema (Spark's JSON, without column mapping metadata) Delta reads each version with. */
    public synchronized NavigableMap<Long, String> schemaByVersion() {
      snapshotRowsByVersion();
      return schemas;
    }

    /**
     * Delta's change data feed of every version it answers ({@code readChangeFeed} with starting and ending version
     * = that version), rows with {@code _change_type} but without {@code _commit_version} / {@code _commit_timestamp},
     * canonical JSON, sorted. The versions Delta refuses are in {@link #changeFeedErrors()} instead; for versions
     * whose table has no {@code delta.enableChangeDataFeed} Delta is not asked (it answers DELTA_MISSING_CHANGE_DATA).
     */
    public synchronized NavigableMap<Long, List<String>> changeFeedByVersion() {
      if (changes == null) {
        NavigableMap<Long, String> errors = new TreeMap<>();
        NavigableMap<Long, List<String>> rows = new TreeMap<>();
        List<Long> asked = new ArrayList<>();
        for (long v : operations.keySet()) {
          if (metadata(v).path("configuration").path("delta.enableChangeDataFeed").asText().equals("true")) {
            asked.add(v);
          } else {
            errors.put(v, "delta.enableChangeDataFeed is not set: Delta answers DELTA_MISSING_CHANGE_DATA");
          }
        }
        inParallel(asked, v -> {
          try {
            List<String> r = render(spark().read().format("delta").option("readChangeFeed", "true")
                .option("startingVersion", v).option("endingVersion", v).load(path())
                .drop("_commit_version", "_commit_timestamp"));
            synchronized (rows) {
              rows.put(v, r);
            }
          } catch (Exception e) { // AnalysisException is a checked exception Scala throws undeclared
            synchronized (rows) {
              errors.put(v, firstLine(e));
            }
          }
        });
        changes = Collections.unmodifiableNavigableMap(rows);
        changeErrors = Collections.unmodifiableNavigableMap(errors);
      }
      return changes;
    }

    /** Why Delta refused the change data feed of a version (first line of its message). */
    public synchronized NavigableMap<Long, String> changeFeedErrors() {
      changeFeedByVersion();
      return changeErrors;
    }

    /**
     * The difference between Delta's snapshots before and at each version {@code v >= 1} whose schema equals that of
     * {@code v - 1}: rows of {@code v - 1} not in {@code v} as {@code "delete"}, rows of {@code v} not in {@code v - 1}
     * as {@code "insert"} (multisets), sorted. For commits that change rows only through deletion vectors and new
     * files, this is what an exact derivation from the file actions gives (SPEC §4b); an UPDATE shows as delete +
     * insert where the change data feed says update_preimage + update_postimage.
     */
    public NavigableMap<Long, List<String>> snapshotDiffByVersion() {
      NavigableMap<Long, List<String>> snaps = snapshotRowsByVersion();
      NavigableMap<Long, String> schema = schemaByVersion();
      NavigableMap<Long, List<String>> out = new TreeMap<>();
      for (long v : snaps.keySet()) {
        if (v == snaps.firstKey() || !schema.get(v).equals(schema.get(v - 1))) {
          continue;
        }
        List<String> removed = new ArrayList<>(snaps.get(v - 1));
        snaps.get(v).forEach(removed::remove);
        List<String> added = new ArrayList<>(snaps.get(v));
        snaps.get(v - 1).forEach(added::remove);
        List<String> diff = new ArrayList<>();
        removed.forEach(r -> diff.add(withChangeType(r, "delete")));
        added.forEach(r -> diff.add(withChangeType(r, "insert")));
        diff.sort(Comparator.naturalOrder());
        out.put(v, diff);
      }
      return out;
    }

    /** The commit file of {@code version}, one JSON action per line. */
    public List<JsonNode> actions(long version) {
      try {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("_delta_log").resolve(String.format("%020d.json",
            version)))) {
          if (!line.isBlank()) {
            out.add(JSON.readTree(line));
          }
        }
        return out;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The actions of {@code version} of one kind ({@code add}, {@code remove}, {@code cdc}, {@code metaData}...). */
    public List<JsonNode> actions(long version, String kind) {
      List<JsonNode> out = new ArrayList<>();
      for (JsonNode n : actions(version)) {
        if (n.has(kind)) {
          out.add(n.get(kind));
        }
      }
      return out;
    }

    /**
     * The live {@code add} actions of the snapshot at {@code version} by path, replayed from the JSON commits (every
     * commit is kept; checkpoints are not needed), in the order they were added.
     */
    public Map<String, JsonNode> files(long version) {
      Map<String, JsonNode> live = new LinkedHashMap<>();
      for (long v = 0; v <= version; v++) {
        for (JsonNode a : actions(v)) {
          if (a.has("remove")) {
            live.remove(a.get("remove").path("path").asText());
          }
        }
        for (JsonNode a : actions(v)) {
          if (a.has("add")) {
            live.remove(a.get("add").path("path").asText());
            live.put(a.get("add").path("path").asText(), a.get("add"));
          }
        }
      }
      return live;
    }

    /** The {@code metaData} action in force at {@code version} (the last one at or before it). */
    public JsonNode metadata(long version) {
      for (long v = version; v >= 0; v--) {
        List<JsonNode> m = actions(v, "metaData");
        if (!m.isEmpty()) {
          return m.get(m.size() - 1);
        }
      }
      throw new IllegalStateException(name + " has no metaData up to version " + version);
    }

    /** The {@code protocol} action in force at {@code version}. */
    public JsonNode protocol(long version) {
      for (long v = version; v >= 0; v--) {
        List<JsonNode> p = actions(v, "protocol");
        if (!p.isEmpty()) {
          return p.get(p.size() - 1);
        }
      }
      throw new IllegalStateException(name + " has no protocol up to version " + version);
    }

    @Override
    public String toString() {
      return name + " at " + dir;
    }
  }

  /** Runs {@code task} for each version on the module's small pool: Spark plans each query on the calling thread. */
  private static void inParallel(Iterable<Long> versions, LongConsumer task) {
    List<Future<?>> running = new ArrayList<>();
    for (long v : versions) {
      running.add(POOL.submit(() -> task.accept(v)));
    }
    running.forEach(DeltaFixtures::join);
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return e.getClass().getSimpleName() + ": " + (nl < 0 ? m : m.substring(0, nl));
  }

  // ---------------------------------------------------------------------------------------------------- rendering

  /** Canonical JSON of one row given as a map of logical names to Java values (structs as maps). */
  public static String canonical(Map<String, ?> row) {
    try {
      return JSON.writeValueAsString(row);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The rows of {@code df}, rendered canonically, sorted. */
  public static List<String> render(Dataset<Row> df) {
    List<String> out = new ArrayList<>();
    for (Row r : df.collectAsList()) {
      out.add(canonical(parse(r.json())));
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /** A canonical row back as a map (structs as maps; numbers as Integer, Long, BigInteger or BigDecimal). */
  public static Map<String, Object> parse(String json) {
    try {
      return JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String withChangeType(String row, String changeType) {
    Map<String, Object> m = parse(row);
    m.put("_change_type", changeType);
    return canonical(m);
  }

  private static void deleteRecursively(Path p) {
    if (p == null || !Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      s.sorted(Comparator.reverseOrder()).forEach(x -> x.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
