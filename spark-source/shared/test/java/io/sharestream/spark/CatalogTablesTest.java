package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables of the session catalog, as the reference client's users write them: {@code CREATE TABLE t USING deltaSharing
 * LOCATION '<profile>#<share>.<schema>.<table>' [OPTIONS (...)]}, then SQL, {@code spark.table}, DESCRIBE and
 * {@code spark.readStream.table} restarted from its checkpoint. Each in the tests' session (Delta's session catalog
 * extension: Spark reads the table through its DSv1 interfaces, on every line) and in one with Spark's own session
 * catalog (on Spark 4 the table's properties reach {@code getTable}; on 3.x DSv1 again).
 */
class CatalogTablesTest {
  static SparkSession spark;
  static final List<Long> STREAMED = new CopyOnWriteArrayList<>();
  private static final AtomicInteger TABLES = new AtomicInteger();
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  long nextId;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /**
   * The tests' session, and where it has Delta's catalog as {@code spark_catalog} one of the same context with Spark's
   * own session catalog.
   */
  private static List<SparkSession> sessions() {
    List<SparkSession> sessions = new ArrayList<>();
    sessions.add(spark);
    if (deltaCatalog(spark)) {
      SparkSession plain = spark.newSession();
      plain.conf().unset("spark.sql.catalog.spark_catalog");
      sessions.add(plain);
    }
    return sessions;
  }

  private static boolean deltaCatalog(SparkSession s) {
    return s.conf().get("spark.sql.catalog.spark_catalog", "").endsWith("DeltaCatalog");
  }

  /**
   * Shares a table of two versions (1, 2) of 4 rows each, partitioned by its first column; returns its path with the
   * profile file.
   */
  private String serve() {
    table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).partitionedBy("id").commit();
    append();
    append();
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    return server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
  }

  /** Appends a version of 4 new rows; returns their ids. */
  private List<Long> append() {
    List<Long> ids = LongStream.range(nextId, nextId + 4).boxed().collect(Collectors.toList());
    table.append(ChangeMatrix.rows(nextId, nextId + 4), 2);
    nextId += 4;
    return ids;
  }

  private static String newName() {
    return "sharing_" + TABLES.incrementAndGet();
  }

  @Test
  void aCatalogTableIsReadDescribedAndStreamedAsTheSource() throws Exception {
    String path = serve();
    for (SparkSession s : sessions()) {
      String t = newName();
      s.sql("CREATE TABLE " + t + " USING deltaSharing LOCATION '" + path + "'");
      try {
        Dataset<Row> direct = s.read().format("deltaSharing").load(path);
        assertThat(s.sql("SELECT * FROM " + t).collectAsList())
            .containsExactlyInAnyOrderElementsOf(direct.collectAsList()).hasSize((int) nextId);
        assertThat(s.sql("SELECT name FROM " + t + " WHERE id = 3").first().getString(0)).isEqualTo("u3");
        assertThat(s.sql("SELECT count(*) FROM " + t).first().getLong(0)).isEqualTo(nextId);
        assertThat(s.table(t).schema()).isEqualTo(direct.schema());
        assertThat(s.sql("DESCRIBE " + t).collectAsList().subList(0, 2).stream()
            .map(r -> r.getString(0) + " " + r.getString(1))).containsExactly("id bigint", "name string");

        String checkpoint = tmp.resolve("checkpoint-" + t).toString();
        long latest = table.version();
        List<Long> expected = LongStream.range(nextId - 4, nextId).boxed().collect(Collectors.toList());
        assertThat(stream(s.readStream().option("startingVersion", Long.toString(latest)), t, checkpoint))
            .isEqualTo(expected);
        List<Long> appended = append();
        assertThat(stream(s.readStream().option("startingVersion", Long.toString(latest)), t, checkpoint))
            .isEqualTo(appended);
      } finally {
        s.sql("DROP TABLE " + t);
      }
    }
  }

  @Test
  void optionsComeFromTheTableAndTheReaderAndTheProfileMayBeOptions() {
    String path = serve();
    for (SparkSession s : sessions()) {
      boolean sparkCatalogOf4 = !deltaCatalog(s) && s.version().startsWith("4");
      String t = newName();
      s.sql("CREATE TABLE " + t + " USING sharestream LOCATION 's.sc.t' OPTIONS (shareCredentialsVersion '1', "
          + "endpoint '" + server.endpoint() + "', bearerToken '" + server.bearerToken() + "', readChangeFeed 'true', "
          + "startingVersion '1')");
      String plain = newName();
      s.sql("CREATE TABLE " + plain + " USING deltaSharing LOCATION '" + path + "'");
      try {
        // a batch read's options: on DSv1, Spark keeps the relation of a table's first read for the session
        Dataset<Row> changes = s.read().option("endingVersion", "1").table(t);
        assertThat(changes.columns()).containsExactly("id", "name", "_change_type", "_commit_version",
            "_commit_timestamp");
        assertThat(ids(changes)).containsExactly(0L, 1L, 2L, 3L);

        // the change feed asked of a table without it: Spark 4's own catalog fixed the table's columns already
        if (sparkCatalogOf4) {
          assertThatThrownBy(() -> s.read().option("readChangeFeed", "true").option("startingVersion", "2")
              .table(plain).collectAsList()).hasMessageContaining("give it in the table's OPTIONS");
        } else {
          assertThat(ids(s.read().option("readChangeFeed", "true").option("startingVersion", "2").table(plain)))
              .containsExactly(4L, 5L, 6L, 7L);
        }
      } finally {
        s.sql("DROP TABLE " + t);
        s.sql("DROP TABLE " + plain);
      }
    }
  }

  @Test
  void aTableDeclaredWithOtherColumnsIsRefused() {
    String path = serve();
    for (SparkSession s : sessions()) {
      String t = newName();
      try {
        // Spark 4's own catalog loads the table as it creates it, the others when it is read
        assertThatThrownBy(() -> {
          s.sql("CREATE TABLE " + t + " (id INT) USING deltaSharing LOCATION '" + path + "'");
          s.table(t).collectAsList();
        }).hasStackTraceContaining("takes no other").hasStackTraceContaining("create the table again");
      } finally {
        s.sql("DROP TABLE IF EXISTS " + t);
      }
    }
  }

  private static List<Long> ids(Dataset<Row> rows) {
    return rows.collectAsList().stream().map(r -> r.getLong(0)).sorted().collect(Collectors.toList());
  }

  /** What a stream of {@code table} reads from its checkpoint on, until it has read all there is. */
  private static List<Long> stream(DataStreamReader reader, String table, String checkpoint) throws Exception {
    STREAMED.clear();
    VoidFunction2<Dataset<Row>, Long> sink = (batch, id) -> STREAMED.addAll(ids(batch));
    StreamingQuery q = reader.table(table).writeStream().foreachBatch(sink)
        .option("checkpointLocation", checkpoint).start();
    try {
      q.processAllAvailable();
    } finally {
      q.stop();
    }
    return STREAMED.stream().sorted().collect(Collectors.toList());
  }
}
