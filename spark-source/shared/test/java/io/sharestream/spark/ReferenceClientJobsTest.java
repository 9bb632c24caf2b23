package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.jvm.MovableClock;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
 * Jobs written for the reference client (delta-sharing-spark) run unchanged: its options ({@code ignoreChanges},
 * {@code ignoreDeletes}, {@code readChangeData}, {@code maxVersionsPerRpc}, {@code responseFormat}, the profile as
 * options, timestamps as Spark casts them), its {@code spark.delta.sharing.*} session confs with their meaning, and
 * requests that say who sends them.
 */
class ReferenceClientJobsTest {
  static SparkSession spark;
  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();
  final List<String> confsSet = new ArrayList<>();
  final List<StreamingQuery> queries = new ArrayList<>();

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() throws Exception {
    for (StreamingQuery q : queries) {
      q.stop();
    }
    confsSet.forEach(spark.conf()::unset);
    spark.conf().set(SessionConfs.VERSION_POLL_INTERVAL_MS, "0"); // as TestSpark starts the session
    servers.forEach(DeltaSharingServer::close);
  }

  private DeltaSharingServer server(String name, DeltaTableWriter table) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), true).start();
    servers.add(s);
    return s;
  }

  private String serve(String name, DeltaTableWriter table) {
    return server(name, table).writeProfile(tmp.resolve(name + ".share")) + "#s.sc." + name;
  }

  private void conf(String name, String value) {
    spark.conf().set(name, value);
    confsSet.add(name);
  }

  private List<String> stream(DataStreamReader reader, String path, String name) throws Exception {
    StreamingQuery q = reader.load(path).writeStream().format("memory").queryName(name).start();
    queries.add(q);
    q.processAllAvailable();
    return spark.sql("SELECT id, name FROM " + name).collectAsList().stream()
        .map(r -> r.getLong(0) + "/" + r.getString(1)).sorted().collect(Collectors.toList());
  }

  /** Change rows {@code id:changeType@version/name} in version order, as {@link ChangeMatrix#canonical} takes them. */
  private static List<String> changeRows(String table) {
    return spark.sql("SELECT id, _change_type, _commit_version, name FROM " + table).collectAsList().stream()
        .sorted(java.util.Comparator.comparingLong(r -> r.getLong(2)))
        .map(r -> r.getLong(0) + ":" + r.getString(1) + "@" + r.getLong(2) + "/" + r.getString(3))
        .collect(Collectors.toList());
  }

  private static List<String> rowsOf(List<String> expected) {
    return expected.stream().map(f -> f.replaceAll(":.*@\\d+", "")).sorted().collect(Collectors.toList());
  }

  @Test
  void aStreamWithTheReferencesOptionsAndTheProfileAsOptionsGetsTheExactNewRowImages() throws Exception {
    DeltaSharingServer s = server("t", ChangeMatrix.write(tmp.resolve("t"), true));
    DataStreamReader reader = spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("ignoreChanges", "true").option("ignoreDeletes", "true").option("maxVersionsPerRpc", "2")
        .option("responseFormat", "parquet").option("shareCredentialsVersion", "1")
        .option("endpoint", s.endpoint()).option("bearerToken", s.bearerToken());
    assertThat(stream(reader, "s.sc.t", "reference_options"))
        .isEqualTo(rowsOf(ChangeMatrix.expected(ChangeMatrix.Mode.DEFAULT, true)));

    StreamingQuery cdf = spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("readChangeData", "true").option("ignoreChanges", "true").option("shareCredentialsVersion", "1")
        .option("endpoint", s.endpoint()).option("bearerToken", s.bearerToken()).load("s.sc.t")
        .writeStream().format("memory").queryName("reference_cdf").start();
    queries.add(cdf);
    cdf.processAllAvailable();
    assertThat(ChangeMatrix.canonical(changeRows("reference_cdf"))).isEqualTo(ChangeMatrix.canonical(
        ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true)));
  }

  @Test
  void ignoreDeletesStreamsPastACommitThatRemovedWholeFiles() throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("d"), ChangeMatrix.SCHEMA).commit();
    t.append(ChangeMatrix.rows(0, 6), 3); // 1: files {0,1,2} {3,4,5}
    t.deleteWhere(r -> (Long) r.get("id") < 3); // 2: removes the first file whole
    t.append(ChangeMatrix.rows(6, 8)); // 3
    String path = serve("d", t);
    assertThat(stream(spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("ignoreDeletes", "true"), path, "ignore_deletes"))
        .containsExactly("0/u0", "1/u1", "2/u2", "3/u3", "4/u4", "5/u5", "6/u6", "7/u7");
    assertThatThrownBy(() -> spark.readStream().format("deltaSharing").option("ignoreDeletes", "yes").load(path))
        .hasMessageContaining("'ignoreDeletes' must be true or false, not 'yes'");
  }

  @Test
  void timestampsAreReadAsSparkCastsThemInTheSessionTimeZone() throws Exception {
    MovableClock clock = new MovableClock(); // each commit takes its timestamp from it
    clock.set(Instant.parse("2024-01-01T00:00:00Z"));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("ts"), ChangeMatrix.SCHEMA).clock(clock).commit();
    for (int v = 1; v <= 3; v++) { // version v at v o'clock UTC: ids 2(v-1), 2(v-1)+1
      clock.set(Instant.parse("2024-01-01T00:00:00Z").plus(Duration.ofHours(v)));
      t.append(ChangeMatrix.rows(2L * (v - 1), 2L * v));
    }
    String path = serve("ts", t);
    conf("spark.sql.session.timeZone", "Asia/Tokyo"); // UTC+9
    assertThat(stream(spark.readStream().format("deltaSharing").option("startingTimestamp", "2024-01-01 11:00:00"),
        path, "from_tokyo_time")).containsExactly("2/u2", "3/u3", "4/u4", "5/u5"); // from version 2, 02:00 UTC
    assertThat(spark.read().format("deltaSharing").option("timestampAsOf", "2024-01-01 10:30:00").load(path).count())
        .isEqualTo(2); // version 1
    assertThat(spark.read().format("deltaSharing").option("readChangeFeed", "true")
        .option("startingTimestamp", "2024-01-01T02:00:00Z").option("endingTimestamp", "2024-01-01 11:59:59")
        .load(path).count()).isEqualTo(2); // version 2 only
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("timestampAsOf", "31.01.2024").load(path))
        .hasMessageContaining("'timestampAsOf' must be an instant");
  }

  @Test
  void theReferencesSessionConfsTurnHintsAndPagingOnAndOff() throws Exception {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("region", DeltaType.STRING));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("p"), schema).partitionedBy("region").commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 30; i++) {
      rows.add(Map.of("id", i, "region", i < 10 ? "eu" : i < 20 ? "us" : "apac"));
    }
    t.append(rows, 5); // 6 files
    DeltaSharingServer s = server("p", t);
    String path = s.writeProfile(tmp.resolve("p.share")) + "#s.sc.p";

    conf("spark.delta.sharing.jsonPredicateHints.enabled", "false");
    assertThat(spark.read().format("deltaSharing").load(path).filter("region = 'eu' AND id > 6").count())
        .isEqualTo(3);
    assertThat(s.requests().entries(Endpoint.STORAGE).stream().map(e -> e.path).distinct().count())
        .as("without hints every file is read").isEqualTo(6);

    conf("spark.delta.sharing.limitPushdown.enabled", "false");
    Dataset<Row> limited = spark.read().format("deltaSharing").load(path).limit(3);
    assertThat(limited.collectAsList()).hasSize(3);
    assertThat(((SharingScan) ((org.apache.spark.sql.execution.datasources.v2.BatchScanExec) limited
        .queryExecution().executedPlan().collectLeaves().head()).scan()).limitHint()).isNull();

    s.requests().clear();
    assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(30);
    int unpaged = s.requests().count(Endpoint.QUERY);
    assertThat(unpaged).as("a count lists the table once").isEqualTo(1);
    s.requests().clear();
    conf("spark.delta.sharing.queryPagination.enabled", "true");
    conf("spark.delta.sharing.maxFilesPerQueryRequest", "2");
    assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(30);
    assertThat(s.requests().count(Endpoint.QUERY)).as("6 files in pages of 2").isEqualTo(3);
  }

  @Test
  void theReferencesNetworkConfsSetRetriesAndTimeouts() throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("n"), ChangeMatrix.SCHEMA).commit();
    t.append(ChangeMatrix.rows(0, 4));
    DeltaSharingServer s = server("n", t);
    String path = s.writeProfile(tmp.resolve("n.share")) + "#s.sc.n";

    conf("spark.delta.sharing.network.numRetries", "1");
    s.faults().failWith(Endpoint.QUERY, 2, 503);
    assertThatThrownBy(() -> spark.read().format("deltaSharing").load(path).count())
        .hasStackTraceContaining("2 attempts");
    s.faults().clear();
    s.faults().failWith(Endpoint.QUERY, 1, 503);
    assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(4); // one retry is enough

    conf("spark.delta.sharing.network.numRetries", "0");
    conf("spark.delta.sharing.network.timeout", "1s");
    s.faults().clear();
    s.faults().delay(Endpoint.QUERY, 1, Duration.ofSeconds(5));
    assertThatThrownBy(() -> spark.read().format("deltaSharing").load(path).count())
        .hasStackTraceContaining("timed out");

    conf("spark.delta.sharing.streaming.queryTableVersionIntervalSeconds", "5s");
    assertThatThrownBy(() -> spark.readStream().format("deltaSharing").load(path))
        .hasMessageContaining("spark.delta.sharing.streaming.queryTableVersionIntervalSeconds must not be less than "
            + "10 seconds");
  }

  @Test
  void requestsNameTheProductItsVersionAndTheEngineAndStreamsSayTheyAreStreams() throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("ua"), ChangeMatrix.SCHEMA).commit();
    t.append(ChangeMatrix.rows(0, 4));
    DeltaSharingServer s = server("ua", t);
    String path = s.writeProfile(tmp.resolve("ua.share")) + "#s.sc.ua";
    String product = "Sharestream-Spark/" + DeltaSharingDataSource.VERSION + " ";
    String engine = "Spark/" + spark.version() + " Scala/";

    assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(4);
    assertThat(s.requests().entries()).extracting(e -> e.userAgent).isNotEmpty()
        .allSatisfy(ua -> assertThat(ua).startsWith(product).contains(engine)
            .doesNotContain(ClientSpec.STREAMING_AGENT));

    s.requests().clear();
    stream(spark.readStream().format("deltaSharing").option("startingVersion", "0"), path, "agent");
    List<RequestLog.Entry> streamed = s.requests().entries().stream()
        .filter(e -> e.endpoint == Endpoint.VERSION || e.endpoint == Endpoint.QUERY).collect(Collectors.toList());
    assertThat(streamed).extracting(e -> e.userAgent).isNotEmpty()
        .allSatisfy(ua -> assertThat(ua).startsWith(product + ClientSpec.STREAMING_AGENT + " ").contains(engine));
  }
}
