package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.net.ForwardProxy;
import io.sharestream.testkit.net.TestCertificates;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffset;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorOffsets;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;
import org.apache.kafka.connect.runtime.rest.errors.ConnectRestException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector in a real Connect worker over a real broker, deployed over REST, reading tables the kit serves:
 * what flows, from where, in which order and form, and how it survives faults and restarts.
 */
class ConnectorStreamingTest {
  static final Duration WAIT = Duration.ofSeconds(60);
  static final DeltaType.StructType EVENTS = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("user", DeltaType.STRING), DeltaType.field("day", DeltaType.DATE),
      DeltaType.field("at", DeltaType.TIMESTAMP), DeltaType.field("amount", DeltaType.decimal(12, 2)));

  static ConnectHarness harness;
  @TempDir Path tmp;
  DeltaSharingServer server;
  final List<DeltaSharingServer> servers = new ArrayList<>();

  @BeforeAll
  static void startCluster() {
    harness = new ConnectHarness("streaming", false);
  }

  @AfterAll
  static void stopCluster() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void stopServers() {
    harness.connect.connectors().forEach(c -> harness.connect.deleteConnector((String) c));
    servers.forEach(DeltaSharingServer::close);
  }

  static List<Map<String, Object>> events(long from, long to) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      Map<String, Object> r = new HashMap<>();
      r.put("id", i);
      r.put("user", "u" + (i % 3));
      r.put("day", LocalDate.of(2024, 1, 1).plusDays(i % 28));
      r.put("at", Instant.parse("2024-01-01T00:00:00.123456Z").plusSeconds(i));
      r.put("amount", BigDecimal.valueOf(i * 25, 2));
      rows.add(r);
    }
    return rows;
  }

  private String serve(String name, DeltaTableWriter table) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", name, table.dir(), true).start();
    servers.add(s);
    server = s;
    return s.writeProfile(tmp.resolve(name + ".share")).toString();
  }

  private static Set<Long> ids(List<ConnectHarness.Rec> records) {
    return records.stream().filter(r -> r.value != null).map(ConnectHarness.Rec::id)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<Long> range(long from, long to) {
    Set<Long> out = new TreeSet<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  @Test
  void aConnectorsOwnProxyAndTrustedCertificatesCarryItsRequestsToATlsServerAndValidationNamesWhatIsMissing()
      throws Exception {
    TestCertificates certificates = TestCertificates.create();
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("tls"), EVENTS).commit();
    table.append(events(0, 10), 5);
    server = DeltaSharingServer.builder().tls(certificates).table("s", "sc", "t", table.dir(), true).start();
    servers.add(server);
    String profile = server.writeProfile(tmp.resolve("tls.share")).toString();
    String ca = certificates.writeCaPem(tmp.resolve("ca.pem")).toString();
    try (ForwardProxy proxy = ForwardProxy.withBasicAuth("proxy-user", "proxy-secret-42")) {
      Map<String, String> config = ConnectHarness.config(profile, "s.sc.t", "startingVersion", "0",
          "topic.prefix", "proxied.", "http.proxy.url", proxy.url(), "http.proxy.user", "proxy-user",
          "http.proxy.password", "proxy-secret-42", "http.ssl.truststore.location", ca);
      harness.deploy("proxied", config, 1);
      assertThat(ids(harness.read("proxied.s.sc.t", 10, WAIT))).isEqualTo(range(0, 10));
      assertThat(proxy.requests()).as("tunnels to the server, each let through after its credentials")
          .anyMatch(r -> r.allowed && r.target.equals("127.0.0.1:" + server.port()));

      Map<String, String> noPassword = new HashMap<>(config);
      noPassword.remove("http.proxy.password");
      assertThat(validationErrors(noPassword)).containsOnlyKeys("http.proxy.user");
      Map<String, String> noTrust = new HashMap<>(config);
      noTrust.remove("http.ssl.truststore.location");
      assertThat(validationErrors(noTrust)).containsOnlyKeys("http.ssl.truststore.location");
      Map<String, String> missingFile = new HashMap<>(config);
      missingFile.put("http.ssl.truststore.location", tmp.resolve("none.pem").toString());
      assertThat(validationErrors(missingFile).get("http.ssl.truststore.location").get(0)).contains("none.pem");
      Map<String, String> badUrl = new HashMap<>(config);
      badUrl.put("http.proxy.url", "https://proxy:3128");
      assertThat(validationErrors(badUrl)).containsKey("http.proxy.url");
      assertThat(validationErrors(noPassword).toString()).doesNotContain("proxy-secret-42");
    }
  }

  private static Map<String, List<String>> validationErrors(Map<String, String> config) {
    Map<String, List<String>> out = new java.util.LinkedHashMap<>();
    for (org.apache.kafka.common.config.ConfigValue v : new DeltaSharingSourceConnector().validate(config)
        .configValues()) {
      if (!v.errorMessages().isEmpty()) {
        out.put(v.name(), v.errorMessages());
      }
    }
    return out;
  }

  @Test
  void aProfileFileReplacedWithARotatedTokenKeepsTheStreamGoingWithoutARestart() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("rotated"), EVENTS).commit();
    table.append(events(0, 10));
    String profile = serve("rotated", table);
    harness.deploy("rotation", ConnectHarness.config(profile, "s.sc.rotated", "startingVersion", "0",
        "topic.prefix", "rotation."), 1);
    harness.read("rotation.s.sc.rotated", 10, WAIT);

    server.rotateBearerToken(); // the provider rotates the token; the recipient's tooling replaces the file
    server.writeProfile(Path.of(profile));
    table.append(events(10, 20));

    assertThat(ids(harness.read("rotation.s.sc.rotated", 20, WAIT))).isEqualTo(range(0, 20));
    harness.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning("rotation", 1, "the task failed");
    javax.management.MBeanServer jmx = java.lang.management.ManagementFactory.getPlatformMBeanServer();
    Set<javax.management.ObjectName> credentials = jmx.queryNames(new javax.management.ObjectName(
        "io.sharestream.kafka:type=credentials,connector=\"rotation\",*"), null);
    assertThat(credentials).hasSize(1);
    assertThat(jmx.getAttribute(credentials.iterator().next(), "ProfileReloads")).isEqualTo(1L);
    assertThat(jmx.getAttribute(credentials.iterator().next(), "SecondsToExpiry")).isEqualTo(-1L);
  }

  @Test
  void credentialsComeFromTheWorkersConfigProvidersAndTheConfigItServesKeepsOnlyTheReference() throws Exception {
    String token = System.getenv("SHARESTREAM_TEST_BEARER_TOKEN"); // set for this JVM by the build
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("provided"), EVENTS).commit();
    table.append(events(0, 5));
    server = DeltaSharingServer.builder().bearerToken(token).table("s", "sc", "t", table.dir(), true).start();
    servers.add(server);
    Path properties = Files.write(tmp.resolve("credentials.properties"),
        ("token=" + token + "\n").getBytes(StandardCharsets.UTF_8));
    Path directory = Files.createDirectories(tmp.resolve("secrets"));
    Files.write(directory.resolve("token"), token.getBytes(StandardCharsets.UTF_8));
    Map<String, String> references = Map.of("provided-env", "${env:SHARESTREAM_TEST_BEARER_TOKEN}",
        "provided-file", "${file:" + properties + ":token}", "provided-dir", "${directory:" + directory + ":token}");
    for (Map.Entry<String, String> r : references.entrySet()) {
      Map<String, String> config = ConnectHarness.config("", "s.sc.t", "startingVersion", "0", "topic.prefix",
          r.getKey() + ".", "endpoint", server.endpoint(), "bearer.token", r.getValue());
      config.remove("profile.path");
      harness.deploy(r.getKey(), config, 1);
      assertThat(ids(harness.read(r.getKey() + ".s.sc.t", 5, WAIT))).as(r.getKey()).isEqualTo(range(0, 5));
      assertThat(harness.connect.connectorInfo(r.getKey()).config().get("bearer.token")).isEqualTo(r.getValue());
      assertThat(harness.connect.taskConfigs(r.getKey()).toString()).doesNotContain(token);
    }
  }

  @Test
  void whatTheProviderDoesToOtherTablesSetsThemAsideWithTheirReasonsWhileEachRowOfTheRestFlowsOnce()
      throws Exception {
    ProviderActions.run(harness, tmp, "provider-alo", false);
  }

  @Test
  void appendsFlowWithTheirValuesKeysHeadersTimestampsAndOffsets() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("events"), EVENTS).commit();
    table.append(events(0, 5), 2); // 1
    String profile = serve("events", table);
    harness.deploy("appends", ConnectHarness.config(profile, "s.sc.events", "startingVersion", "0",
        "key.columns", "s.sc.events:id", "topic.prefix", "appends."), 1);
    table.append(events(5, 8)); // 2: while running

    List<ConnectHarness.Rec> records = harness.read("appends.s.sc.events", 8, WAIT);
    assertThat(records).hasSize(8);
    assertThat(ids(records)).isEqualTo(range(0, 8));
    ConnectHarness.Rec six = records.stream().filter(r -> r.id() == 6).findFirst().orElseThrow();
    assertThat(six.key.path("id").asLong()).isEqualTo(6);
    assertThat(six.value.path("user").asText()).isEqualTo("u0");
    assertThat(six.value.path("amount").decimalValue()).isEqualByComparingTo("1.50");
    assertThat(six.value.path("day").asLong()).isEqualTo(LocalDate.of(2024, 1, 7).toEpochDay());
    assertThat(six.value.path("at").asLong()).isEqualTo(Instant.parse("2024-01-01T00:00:06.123Z").toEpochMilli());
    assertThat(six.timestamp).isEqualTo(table.log().timestamp(2));
    assertThat(six.headers).containsEntry(RecordConverter.HEADER_TABLE, "s.sc.events")
        .containsEntry(RecordConverter.HEADER_VERSION, "2").containsEntry(RecordConverter.HEADER_CHANGE_TYPE, "insert")
        .containsEntry(RecordConverter.HEADER_TIMESTAMP, DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(table.log().timestamp(2))));
    // versions in order; within version 1, file by file
    assertThat(records.stream().map(r -> r.headers.get(RecordConverter.HEADER_VERSION)).collect(Collectors.toList()))
        .containsExactly("1", "1", "1", "1", "1", "2", "2", "2");

    // the stored offset: after the last row of version 2, i.e. nothing of version 3 read yet
    Map<String, Object> offset = awaitOffset("appends", o -> ((Number) o.get("tableVersion")).longValue() == 3);
    assertThat(offset).containsEntry("offsetFormat", 1).containsEntry("index", -1).containsEntry("row", -1)
        .containsEntry("tableId", table.tableId()).containsEntry("isStartingVersion", false);

    ObjectName metrics = new ObjectName("io.sharestream.kafka:type=table-metrics,connector=\"appends\",task=\"0\","
        + "table=\"s.sc.events\"");
    assertThat((Long) ManagementFactory.getPlatformMBeanServer().getAttribute(metrics, "Records")).isEqualTo(8);
    assertThat((Long) ManagementFactory.getPlatformMBeanServer().getAttribute(metrics, "FilesRead")).isEqualTo(4);
    assertThat((Long) ManagementFactory.getPlatformMBeanServer().getAttribute(metrics, "BytesRead")).isPositive();
  }

  /** Waits until the connector's stored offset satisfies {@code done}; returns it. */
  private Map<String, Object> awaitOffset(String connector, java.util.function.Predicate<Map<String, Object>> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Map<String, Object> last = null;
    while (System.nanoTime() < deadline) {
      ConnectorOffsets offsets = harness.connect.connectorOffsets(connector);
      for (ConnectorOffset o : offsets.offsets()) {
        last = new HashMap<>(o.offset());
        if (done.test(last)) {
          return last;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("offset of " + connector + " never reached the expected value; last " + last);
  }

  @Test
  void eachStartingPointFormStartsWhereTheSpecSays() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("starts"), EVENTS).commit();
    table.append(events(0, 2)); // 1
    table.append(events(2, 4)); // 2
    table.deleteWhere(r -> r.get("id").equals(0L)); // 3
    String profile = serve("starts", table);
    Instant atVersion2 = Instant.ofEpochMilli(table.log().timestamp(2));
    harness.deploy("latest", ConnectHarness.config(profile, "s.sc.starts", "topic.prefix", "latest."), 1);
    harness.deploy("snapshot", ConnectHarness.config(profile, "s.sc.starts", "topic.prefix", "snapshot.",
        "startingVersion", "snapshot"), 1);
    harness.deploy("version2", ConnectHarness.config(profile, "s.sc.starts", "topic.prefix", "version2.",
        "startingVersion", "2", "skipChangeCommits", "true"), 1);
    harness.deploy("timestamp", ConnectHarness.config(profile, "s.sc.starts", "topic.prefix", "timestamp.",
        "startingTimestamp", atVersion2.toString(), "skipChangeCommits", "true"), 1);
    harness.deploy("future", ConnectHarness.config(profile, "s.sc.starts", "topic.prefix", "future.",
        "startingVersion", "5"), 1);
    Thread.sleep(1000); // every connector has settled where it starts
    table.append(events(10, 11)); // 4
    table.append(events(20, 21)); // 5

    assertThat(ids(harness.read("latest.s.sc.starts", 2, WAIT))).containsExactly(10L, 20L);
    List<ConnectHarness.Rec> snapshot = harness.read("snapshot.s.sc.starts", 5, WAIT);
    assertThat(ids(snapshot)).containsExactly(1L, 2L, 3L, 10L, 20L);
    assertThat(snapshot.subList(0, 3)).allSatisfy(r -> assertThat(r.headers)
        .containsEntry(RecordConverter.HEADER_VERSION, "3").containsEntry(RecordConverter.HEADER_CHANGE_TYPE,
            "insert"));
    assertThat(ids(harness.read("version2.s.sc.starts", 4, WAIT))).containsExactly(2L, 3L, 10L, 20L);
    assertThat(ids(harness.read("timestamp.s.sc.starts", 4, WAIT))).containsExactly(2L, 3L, 10L, 20L);
    assertThat(ids(harness.read("future.s.sc.starts", 1, WAIT))).containsExactly(20L);
    assertThat(harness.readAll("latest.s.sc.starts", false)).hasSize(2);
  }

  @Test
  void perTableStartingPointsOverrideTheConnectorsForTheTablesTheyName() throws Exception {
    DeltaSharingServer.Builder b = DeltaSharingServer.builder();
    DeltaTableWriter c = null;
    for (String name : List.of("a", "b", "c")) {
      DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("own-" + name), EVENTS).commit();
      t.append(events(0, 2)); // 1
      t.append(events(2, 4)); // 2
      b.table("s", "own", name, t.dir(), true);
      c = t;
    }
    DeltaSharingServer s = b.start();
    servers.add(s);
    String profile = s.writeProfile(tmp.resolve("own.share")).toString();
    harness.deploy("own", ConnectHarness.config(profile, "s.own.*", "topic.prefix", "own.", "startingVersion", "2",
        "starting.overrides", "s.own.a=snapshot, s.own.c=latest,s.other.t=1"), 1);
    assertThat(ids(harness.read("own.s.own.a", 4, WAIT))).as("a: its own snapshot start")
        .containsExactly(0L, 1L, 2L, 3L);
    assertThat(ids(harness.read("own.s.own.b", 2, WAIT))).as("b: the connector's startingVersion=2")
        .containsExactly(2L, 3L);
    Thread.sleep(1000); // c has settled at its latest version
    c.append(events(10, 11)); // 3
    assertThat(ids(harness.read("own.s.own.c", 1, WAIT))).as("c: latest, only what comes after")
        .containsExactly(10L);
  }

  @Test
  void everyModeEmitsTheRowsOfTheSpecMatrix() throws Exception {
    DeltaTableWriter cdf = ChangeMatrix.write(tmp.resolve("cdf"), true);
    DeltaTableWriter plain = ChangeMatrix.write(tmp.resolve("plain"), false);
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "cdf", cdf.dir(), true)
        .table("s", "sc", "plain", plain.dir(), true).start();
    servers.add(s);
    String profile = s.writeProfile(tmp.resolve("matrix.share")).toString();
    for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
      Map<String, String> c = ConnectHarness.config(profile, "s.sc.cdf,s.sc.plain", "startingVersion", "0",
          "topic.prefix", mode.name().toLowerCase() + ".", "tasks.max", "2", "key.columns", "s.sc.cdf:id",
          "tombstones.on.delete", "true");
      c.putAll(mode.options);
      harness.deploy("matrix-" + mode.name().toLowerCase(), c, 2);
    }
    for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
      for (boolean withCdf : new boolean[] {true, false}) {
        List<String> expected = ChangeMatrix.expected(mode, withCdf);
        String topic = mode.name().toLowerCase() + ".s.sc." + (withCdf ? "cdf" : "plain");
        boolean tombstones = withCdf && mode == ChangeMatrix.Mode.READ_CHANGE_FEED;
        List<ConnectHarness.Rec> records = harness.read(topic, expected.size() + (tombstones ? 1 : 0), WAIT);
        List<String> flow = records.stream().filter(r -> r.value != null).map(ConnectHarness.Rec::flow)
            .collect(Collectors.toList());
        assertThat(ChangeMatrix.canonical(flow)).as(topic).isEqualTo(ChangeMatrix.canonical(expected));
        if (tombstones) { // the delete of id 0, then its tombstone
          int delete = flow.indexOf("0:delete@4/u0");
          ConnectHarness.Rec tombstone = records.get(delete + 1);
          assertThat(tombstone.value).isNull();
          assertThat(tombstone.key.path("id").asLong()).isZero();
        }
        assertThat(harness.readAll(topic, false)).as(topic + ": nothing more")
            .hasSize(expected.size() + (tombstones ? 1 : 0));
      }
    }
  }

  @Test
  void twoTablesAreSpreadOverTwoTasks() throws Exception {
    DeltaTableWriter a = DeltaTableWriter.create(tmp.resolve("a"), EVENTS).commit();
    a.append(events(0, 3));
    DeltaTableWriter b = DeltaTableWriter.create(tmp.resolve("b"), EVENTS).commit();
    b.append(events(100, 104));
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "a", a.dir(), true)
        .table("s", "sc", "b", b.dir(), true).start();
    servers.add(s);
    String profile = s.writeProfile(tmp.resolve("ab.share")).toString();
    harness.deploy("two", ConnectHarness.config(profile, " s.sc.a , s.sc.b, s.sc.a ", "startingVersion", "0",
        "tasks.max", "4", "topic.template", "two-${table}"), 2);
    assertThat(harness.connect.taskConfigs("two")).hasSize(2);
    assertThat(ids(harness.read("two-a", 3, WAIT))).isEqualTo(range(0, 3));
    assertThat(ids(harness.read("two-b", 4, WAIT))).isEqualTo(range(100, 104));
  }

  @Test
  void aWorkerRestartMidFileLosesNothing() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("big"), EVENTS).commit();
    table.append(events(0, 60_000)); // one file
    String profile = serve("big", table);
    harness.deploy("restart", ConnectHarness.config(profile, "s.sc.big", "startingVersion", "0",
        "batch.max.rows", "200", "topic.prefix", "restart."), 1);
    harness.read("restart.s.sc.big", 1000, WAIT);
    harness.connect.removeWorker(); // mid-file
    harness.connect.addWorker();
    harness.connect.assertions().assertConnectorAndExactlyNumTasksAreRunning("restart", 1, "did not restart");
    List<ConnectHarness.Rec> all = harness.read("restart.s.sc.big", 60_000, WAIT);
    assertThat(ids(all)).isEqualTo(range(0, 60_000));
  }

  @Test
  void injectedServerAndStorageFaultsAreSurvivedWithNothingLostOrRepeated() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("faults"), EVENTS).commit();
    String profile = serve("faults", table);
    server.faults().rateLimit(Endpoint.QUERY, 2, 1).failWith(Endpoint.QUERY, 1, 503)
        .truncate(Endpoint.QUERY, 1, 2).failWith(Endpoint.STORAGE, 2, 500).failWith(Endpoint.VERSION, 1, 502);
    harness.deploy("faults", ConnectHarness.config(profile, "s.sc.faults", "startingVersion", "0",
        "topic.prefix", "faults.", "http.retry.backoff.ms", "50", "http.retry.backoff.max.ms", "200"), 1);
    table.append(events(0, 50), 10); // 1
    server.faults().urlTtl(Duration.ofMillis(500)).storageLatency(Duration.ofMillis(300));
    table.append(events(50, 100), 10); // 2: URLs expire while files wait their turn
    List<ConnectHarness.Rec> records = harness.read("faults.s.sc.faults", 100, WAIT);
    assertThat(ids(records)).isEqualTo(range(0, 100));
    assertThat(harness.readAll("faults.s.sc.faults", false)).hasSize(100);
    assertThat(server.faults().pending()).isZero();
  }

  @Test
  void aRecreatedTableAloneInItsTaskFailsItWithAMessageThatSaysSo() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("orig"), EVENTS).commit();
    table.append(events(0, 2));
    String profile = serve("recreated", table);
    harness.deploy("recreated", ConnectHarness.config(profile, "s.sc.recreated", "startingVersion", "0",
        "topic.prefix", "recreated."), 1);
    harness.read("recreated.s.sc.recreated", 2, WAIT);
    DeltaTableWriter again = DeltaTableWriter.create(tmp.resolve("again"), EVENTS).commit();
    again.append(events(0, 1));
    again.append(events(1, 2));
    again.append(events(2, 3));
    server.tables().relocate("s.sc.recreated", again.dir());
    harness.connect.assertions().assertConnectorIsRunningAndTasksHaveFailed("recreated", 1, "task did not fail");
    ConnectorStateInfo status = harness.connect.connectorStatus("recreated");
    assertThat(status.tasks().get(0).trace()).contains("Every table of this task is set aside")
        .contains("s.sc.recreated").contains("was recreated").contains("start the stream again");
  }

  @Test
  void versionsWithoutRowsAreStoredByHeartbeats() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("quiet"), EVENTS).commit();
    table.append(events(0, 2), 1); // 1
    String profile = serve("quiet", table);
    harness.deploy("quiet", ConnectHarness.config(profile, "s.sc.quiet", "startingVersion", "0",
        "topic.prefix", "quiet.", "heartbeat.interval.ms", "100", "heartbeat.topic", "quiet-heartbeats"), 1);
    harness.read("quiet.s.sc.quiet", 2, WAIT);
    awaitOffset("quiet", o -> ((Number) o.get("tableVersion")).longValue() == 2);
    table.compact(); // 2: no data change
    table.setProperty("owner", "x"); // 3: metadata only
    Map<String, Object> offset = awaitOffset("quiet", o -> ((Number) o.get("tableVersion")).longValue() == 4);
    assertThat(offset).containsEntry("index", -1);
    List<ConnectHarness.Rec> beats = harness.read("quiet-heartbeats", 1, WAIT);
    assertThat(beats.get(0).key.asText()).isEqualTo("s.sc.quiet");
    assertThat(beats.get(beats.size() - 1).value.path("tableVersion").asLong()).isEqualTo(4);
    assertThat(harness.readAll("quiet.s.sc.quiet", false)).hasSize(2);
  }

  @Test
  void offsetsCanBeResetToAVersionOverRestAndBadOnesAreRefused() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("reset"), EVENTS).commit();
    table.append(events(0, 2)); // 1
    table.append(events(2, 4)); // 2
    String profile = serve("reset", table);
    harness.deploy("reset", ConnectHarness.config(profile, "s.sc.reset", "startingVersion", "0",
        "topic.prefix", "reset."), 1);
    harness.read("reset.s.sc.reset", 4, WAIT);
    awaitOffset("reset", o -> ((Number) o.get("tableVersion")).longValue() == 3);
    harness.connect.stopConnector("reset");
    harness.connect.assertions().assertConnectorIsStopped("reset", "did not stop");

    Map<String, Object> toVersion2 = new HashMap<>(Map.of("offsetFormat", 1, "tableId", table.tableId(),
        "tableVersion", 2, "index", -1, "row", -1, "isStartingVersion", false));
    harness.connect.alterSourceConnectorOffset("reset", Map.of("table", "s.sc.reset"), toVersion2);
    Map<String, Object> otherTable = new HashMap<>(toVersion2);
    otherTable.put("tableId", "another-id");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> harness.connect.alterSourceConnectorOffset("reset",
        Map.of("table", "s.sc.reset"), otherTable)).isInstanceOf(ConnectRestException.class)
        .hasMessageContaining("recreated");
    Map<String, Object> tooFar = new HashMap<>(toVersion2);
    tooFar.put("tableVersion", 9);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> harness.connect.alterSourceConnectorOffset("reset",
        Map.of("table", "s.sc.reset"), tooFar)).isInstanceOf(ConnectRestException.class)
        .hasMessageContaining("latest version is 2");

    harness.connect.resumeConnector("reset");
    List<ConnectHarness.Rec> again = harness.read("reset.s.sc.reset", 6, WAIT);
    assertThat(again.subList(4, 6)).extracting(ConnectHarness.Rec::id).containsExactlyInAnyOrder(2L, 3L);
  }

  @Test
  void validationOverRestReportsEachProblemOnItsSetting() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("valid"), EVENTS).commit();
    String profile = serve("valid", table);
    DeltaSharingServer nohistory = DeltaSharingServer.builder().table("s", "sc", "nohistory", table.dir(), false)
        .start();
    servers.add(nohistory);
    String noHistoryProfile = nohistory.writeProfile(tmp.resolve("nohistory.share")).toString();

    Map<String, List<String>> ok = errors(ConnectHarness.config(profile, "s.sc.valid"));
    assertThat(ok).isEmpty();
    assertThat(errors(ConnectHarness.config(profile, "s.sc.valid", "startingVersion", "yesterday")))
        .containsOnlyKeys("startingVersion");
    assertThat(errors(ConnectHarness.config(profile, "s.sc.missing")).get("tables").get(0)).contains("s.sc.missing")
        .contains("HTTP 404");
    assertThat(errors(ConnectHarness.config(noHistoryProfile, "s.sc.nohistory")).get("tables").get(0))
        .contains("WITH HISTORY");
    assertThat(errors(ConnectHarness.config(tmp.resolve("nope.share").toString(), "s.sc.valid")))
        .containsOnlyKeys("profile.path");
  }

  private Map<String, List<String>> errors(Map<String, String> config) {
    config.put("name", "validated");
    Map<String, List<String>> out = new HashMap<>();
    harness.connect.validateConnectorConfig(DeltaSharingSourceConnector.class.getSimpleName(), config).values()
        .forEach(v -> {
          if (!v.configValue().errors().isEmpty()) {
            out.put(v.configValue().name(), v.configValue().errors());
          }
        });
    return out;
  }
}
