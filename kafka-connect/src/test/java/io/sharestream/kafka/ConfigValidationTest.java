package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate()} reports every bad value on its own setting, checks the config against the server, and passes the
 * example configs shipped in {@code config/} (with their profile and tables served by the kit).
 */
class ConfigValidationTest {
  @TempDir static Path tmp;
  static DeltaSharingServer server;
  static String profile;

  @BeforeAll
  static void serve() {
    DeltaTableWriter orders = DeltaTableWriter.create(tmp.resolve("orders"), DeltaType.struct(
        DeltaType.field("order_id", DeltaType.LONG), DeltaType.field("amount", DeltaType.DOUBLE)))
        .changeDataFeed(true).commit();
    DeltaTableWriter customers = DeltaTableWriter.create(tmp.resolve("customers"), DeltaType.struct(
        DeltaType.field("customer_id", DeltaType.LONG))).commit();
    DeltaTableWriter trimmed = DeltaTableWriter.create(tmp.resolve("trimmed"), DeltaType.struct(
        DeltaType.field("customer_id", DeltaType.LONG))).commit();
    for (long i = 0; i < 3; i++) {
      trimmed.append(List.of(Map.of("customer_id", i)));
    }
    trimmed.cleanUpLogBefore(trimmed.checkpoint()); // its history starts at version 3
    server = DeltaSharingServer.builder().table("demo", "sales", "orders", orders.dir(), true)
        .table("demo", "sales", "trimmed", trimmed.dir(), true)
        .table("demo", "sales", "customers", customers.dir(), true)
        .table("demo", "sales", "private", customers.dir(), false)
        .view("demo", "sales", "top_customers", customers.dir()).start();
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Map<String, List<String>> errors(Map<String, String> config) {
    Config result = new DeltaSharingSourceConnector().validate(config);
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (ConfigValue v : result.configValues()) {
      if (!v.errorMessages().isEmpty()) {
        out.put(v.name(), v.errorMessages());
      }
    }
    return out;
  }

  private static Map<String, String> valid(String... extra) {
    Map<String, String> c = new HashMap<>(Map.of("profile.path", profile, "tables", "demo.sales.orders"));
    for (int i = 0; i < extra.length; i += 2) {
      if (extra[i + 1] == null) {
        c.remove(extra[i]);
      } else {
        c.put(extra[i], extra[i + 1]);
      }
    }
    return c;
  }

  @Test
  void aValidConfigHasNoErrors() {
    assertThat(errors(valid())).isEmpty();
    assertThat(errors(valid("profile.path", null, "profile.json", server.profileJson()))).isEmpty();
    assertThat(errors(valid("profile.path", null, "endpoint", server.endpoint(), "bearer.token",
        server.bearerToken()))).isEmpty();
    assertThat(errors(valid("readChangeFeed", "true", "key.columns", "demo.sales.orders:order_id",
        "startingVersion", "0", "time.precision.mode", "string"))).isEmpty();
  }

  @Test
  void eachBadValueIsReportedOnItsOwnSetting() {
    assertThat(errors(valid("tables", "orders"))).containsOnlyKeys("tables");
    assertThat(errors(valid("tables", ""))).containsOnlyKeys("tables");
    assertThat(errors(valid("startingVersion", "-1")).get("startingVersion").get(0)).contains("negative");
    assertThat(errors(valid("startingVersion", "first"))).containsOnlyKeys("startingVersion");
    assertThat(errors(valid("startingTimestamp", "yesterday"))).containsOnlyKeys("startingTimestamp");
    assertThat(errors(valid("startingVersion", "1", "startingTimestamp", "2024-01-01T00:00:00Z")))
        .containsOnlyKeys("startingTimestamp");
    assertThat(errors(valid("skipChangeCommits", "maybe"))).containsOnlyKeys("skipChangeCommits");
    assertThat(errors(valid("time.precision.mode", "nanos"))).containsOnlyKeys("time.precision.mode");
    assertThat(errors(valid("datetimeRebaseMode", "GUESS"))).containsOnlyKeys("datetimeRebaseMode");
    assertThat(errors(valid("poll.interval.ms", "0"))).containsOnlyKeys("poll.interval.ms");
    assertThat(errors(valid("poll.interval.ms", "5000", "poll.interval.max.ms", "4000")).get("poll.interval.max.ms")
        .get(0)).contains("must be at least poll.interval.ms (5000 ms)");
    assertThat(errors(valid("poll.interval.ms", "120000"))).as("the default ceiling gives way").isEmpty();
    assertThat(errors(valid("records.in.flight.max", "0"))).containsOnlyKeys("records.in.flight.max");
    assertThat(errors(valid("batch.max.rows", "-5"))).containsOnlyKeys("batch.max.rows");
    assertThat(errors(valid("topic.template", "${prefix}${owner}"))).containsOnlyKeys("topic.template");
    assertThat(errors(valid("key.columns", "demo.sales.orders"))).containsOnlyKeys("key.columns");
    assertThat(errors(valid("key.columns", "demo.sales.other:id")).get("key.columns").get(0))
        .contains("is not selected by tables");
    assertThat(errors(valid("field.name.adjustment.mode", "avro_unicode")))
        .containsOnlyKeys("field.name.adjustment.mode");
    assertThat(errors(valid("transaction.max.duration.ms", "-1"))).containsOnlyKeys("transaction.max.duration.ms");
    assertThat(errors(valid("starting.overrides", "demo.sales.orders=snapshot, demo.sales.later=12,"
        + "demo.other.t=2026-01-01T00:00:00Z"))).isEmpty();
    assertThat(errors(valid("starting.overrides", "demo.sales.orders")).get("starting.overrides").get(0))
        .contains("<share>.<schema>.<table>=<start>");
    assertThat(errors(valid("starting.overrides", "demo.sales.orders=yesterday")).get("starting.overrides").get(0))
        .contains("demo.sales.orders starts at 'yesterday'");
    assertThat(errors(valid("starting.overrides", "orders=1"))).containsOnlyKeys("starting.overrides");
    assertThat(errors(valid("starting.overrides", "demo.sales.orders=1,demo.sales.orders=2"))
        .get("starting.overrides").get(0)).contains("listed twice");
  }

  @Test
  void connectorTransactionsMustEndBeforeTheConnectorsProducerTransactionTimeout() {
    String boundary = "transaction.boundary";
    String timeout = "producer.override.transaction.timeout.ms";
    String max = "transaction.max.duration.ms";
    assertThat(errors(valid(boundary, "connector", timeout, "20000")).get(max).get(0))
        .contains("must be below producer.override.transaction.timeout.ms (20000 ms)"); // the default, 30000
    assertThat(errors(valid(boundary, "connector", timeout, "20000", max, "20000"))).containsOnlyKeys(max);
    assertThat(errors(valid(boundary, "connector", timeout, "20000", max, "10000"))).isEmpty();
    assertThat(errors(valid(boundary, "connector", timeout, "20000", max, "0"))).as("versions only").isEmpty();
    assertThat(errors(valid(boundary, "poll", timeout, "20000"))).as("transactions the connector does not define")
        .isEmpty();
  }

  @Test
  void exactlyOneCredentialFormIsRequired() {
    assertThat(errors(valid("profile.path", null)).get("profile.path").get(0)).contains("no credentials");
    assertThat(errors(valid("profile.json", server.profileJson())).get("profile.path").get(0))
        .contains("more than one credential form");
    assertThat(errors(valid("profile.path", null, "bearer.token", "t")).get("bearer.token").get(0))
        .contains("endpoint is required");
    assertThat(errors(valid("profile.path", null, "endpoint", server.endpoint(), "oauth.client.id", "c"))
        .get("endpoint").get(0)).contains("OAuth needs all of");
  }

  @Test
  void theServerIsAskedAboutTheProfileAndEveryTable() {
    assertThat(errors(valid("profile.path", tmp.resolve("missing.share").toString())).get("profile.path").get(0))
        .contains("does not exist");
    assertThat(errors(valid("profile.path", null, "endpoint", server.endpoint(), "bearer.token", "wrong")))
        .as("on the token, not the endpoint").containsOnlyKeys("bearer.token");
    assertThat(errors(valid("profile.path", null, "endpoint", server.endpoint(), "bearer.token", "wrong"))
        .get("bearer.token").get(0)).contains("HTTP 401");
    assertThat(errors(valid("tables", "demo.sales.orders,demo.sales.nope")).get("tables").get(0))
        .contains("demo.sales.nope").contains("HTTP 404");
    assertThat(errors(valid("tables", "demo.sales.private")).get("tables").get(0)).contains("WITH HISTORY");
    assertThat(errors(valid("key.columns", "demo.sales.orders:customer")).get("key.columns").get(0))
        .contains("no column 'customer'");
    // change data not recorded is no reason to refuse: its versions are derived
    assertThat(errors(valid("tables", "demo.sales.customers", "readChangeFeed", "true"))).isEmpty();
  }

  @Test
  void tablesAreAskedAboutAtOnceAndTheirProblemsReportedInTheirOrder() throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server.requests().clear();
    // the metadata answer of one shared table stops after a line (the two tables not shared are asked for their
    // metadata too, after their version is refused, and may come first: the rule names its table)
    server.faults().pause(Endpoint.METADATA, "orders", 1, held, release);
    java.util.concurrent.ExecutorService validator = java.util.concurrent.Executors.newSingleThreadExecutor();
    CompletableFuture<Map<String, List<String>>> result = CompletableFuture.supplyAsync(() ->
        errors(valid("tables", "demo.sales.orders,demo.sales.zeta,demo.sales.customers,demo.sales.alpha")),
        validator); // a thread of its own: the shared pool of a busy JVM may start it late
    try {
      if (!held.await(60, TimeUnit.SECONDS)) { // what the server saw and what validate said, to tell why
        throw new AssertionError("no metadata answer was held; the server saw " + server.requests().entries()
            + "; validate " + (result.isDone() ? "returned " + result.getNow(null) : "is still running"));
      }
      // while one table's answer is held back the other three are asked about (one by one, none would be)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (server.requests().entries(Endpoint.VERSION).size() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(server.requests().entries(Endpoint.VERSION)).hasSize(4);
      // and not after the held answer timed out (one by one, its table is asked again before the next table is)
      assertThat(server.requests().entries(Endpoint.METADATA).stream().map(e -> e.path)).doesNotHaveDuplicates();
    } finally {
      release.countDown();
      server.faults().clear();
      validator.shutdown();
    }
    List<String> tables = result.get(60, TimeUnit.SECONDS).get("tables");
    assertThat(tables).hasSize(2);
    assertThat(tables.get(0)).contains("demo.sales.zeta").contains("HTTP 404");
    assertThat(tables.get(1)).contains("demo.sales.alpha").contains("HTTP 404");
  }

  @Test
  void patternsAreListedOnTheServerAndTheTablesTheyMatchThatCannotBeStreamedNeverRefuseTheConfig() {
    // what the provider shares is the provider's: a history-off table, a view and a cleaned-up log are set aside by
    // the task that gets them, and the config (or the update that excludes them) is accepted
    assertThat(errors(valid("tables", "demo.*", "startingVersion", "0"))).isEmpty();
    assertThat(errors(valid("tables", "demo.sales.*", "tables.exclude.regex", ".*\\.(private|top_customers)",
        "key.columns", "demo.sales.customers:customer_id"))).isEmpty();
    assertThat(errors(valid("tables", null, "tables.include.regex", "DEMO\\.sales\\.(orders|customers)")))
        .isEmpty();
    // what the user wrote is still checked: a key column, a table named, a share, the pattern's form
    assertThat(errors(valid("tables", "demo.*", "key.columns", "demo.sales.customers:nope")).get("key.columns")
        .get(0)).contains("no column 'nope'");
    assertThat(errors(valid("tables", "demo.sales.private", "tables.include.regex", "demo\\.sales\\.private"))
        .get("tables").get(0)).contains("WITH HISTORY");
    assertThat(errors(valid("tables", "nope.*")).get("tables").get(0)).contains("HTTP 404");
    assertThat(errors(valid("tables", "demo.*.orders")).get("tables").get(0)).contains("<share>.<schema>.*");
    assertThat(errors(valid("tables", null, "tables.include.regex", "demo(")))
        .containsOnlyKeys("tables.include.regex");
    assertThat(errors(valid("tables", " ")).get("tables").get(0)).contains("or set tables.include.regex");
  }

  @Test
  void aStartingVersionANamedTableNoLongerServesIsRefusedNamingTheSettingsThatStartItAtTheEarliestServed() {
    List<String> start = errors(valid("tables", "demo.sales.trimmed", "startingVersion", "1")).get("startingVersion");
    assertThat(start).hasSize(1);
    assertThat(start.get(0)).contains("demo.sales.trimmed").contains("starting.overrides=demo.sales.trimmed=earliest")
        .contains("starting.unavailable.mode=earliest");
    assertThat(errors(valid("tables", "demo.sales.trimmed", "startingVersion", "1", "starting.unavailable.mode",
        "earliest"))).isEmpty();
    assertThat(errors(valid("tables", "demo.sales.trimmed", "startingVersion", "1", "starting.overrides",
        "demo.sales.trimmed=earliest"))).isEmpty();
    assertThat(errors(valid("tables", "demo.sales.trimmed", "startingVersion", "earliest"))).isEmpty();
    assertThat(errors(valid("starting.unavailable.mode", "skip"))).containsOnlyKeys("starting.unavailable.mode");
  }

  @Test
  void aSharedViewIsRefusedOnTheTablesSettingNamingTheViewAndWhy() {
    List<String> tables = errors(valid("tables", "demo.sales.orders,demo.sales.top_customers")).get("tables");
    assertThat(tables).hasSize(1);
    assertThat(tables.get(0)).contains("demo.sales.top_customers is a shared view or materialized view")
        .contains("no history to stream");
  }

  @Test
  void anUnreachableEndpointIsReportedWithTheUrlTried() throws Exception {
    String closed = "http://127.0.0.1:" + closedPort() + "/delta-sharing";
    String url = closed + "/shares/demo/schemas/sales/tables/orders/version";
    Path file = tmp.resolve("closed.share");
    Files.writeString(file, server.profileJson().replace(server.endpoint(), closed));
    String onPath = errors(valid("profile.path", file.toString())).get("profile.path").get(0);
    assertThat(onPath).startsWith("Cannot reach the Delta Sharing server at " + url).contains("connection refused")
        .doesNotContain(server.bearerToken());
    assertThat(errors(valid("profile.path", null, "endpoint", closed, "bearer.token", server.bearerToken()))
        .get("endpoint").get(0)).startsWith("Cannot reach the Delta Sharing server at " + url);
  }

  @Test
  void oauthFailuresAreReportedOnTheOAuthSettingAtFaultAndNameTheTokenEndpoint() throws Exception {
    server.enableOAuth("app", "secret", java.time.Duration.ofHours(1));
    Map<String, String> oauth = valid("profile.path", null, "endpoint", server.endpoint(), "oauth.token.endpoint",
        server.tokenEndpoint(), "oauth.client.id", "app", "oauth.client.secret", "secret");
    assertThat(errors(oauth)).isEmpty();

    oauth.put("oauth.client.secret", "WRONG-SECRET");
    Map<String, List<String>> refused = errors(oauth);
    assertThat(refused).containsOnlyKeys("oauth.client.secret");
    assertThat(refused.get("oauth.client.secret").get(0))
        .startsWith("The OAuth token endpoint " + server.tokenEndpoint() + " refused the profile's client "
            + "credentials (HTTP 401, invalid_client)")
        .doesNotContain("Delta Sharing server", "WRONG-SECRET");

    oauth.put("oauth.client.secret", "secret");
    String closed = "http://127.0.0.1:" + closedPort() + "/oauth/token";
    oauth.put("oauth.token.endpoint", closed);
    Map<String, List<String>> unreachable = errors(oauth);
    assertThat(unreachable).containsOnlyKeys("oauth.token.endpoint");
    assertThat(unreachable.get("oauth.token.endpoint").get(0))
        .startsWith("Cannot reach the OAuth token endpoint at " + closed).contains("connection refused")
        .doesNotContain("Delta Sharing server");

    oauth.put("oauth.token.endpoint", server.tokenEndpoint().replace("/oauth/token", "/nothing")); // HTTP 404
    assertThat(errors(oauth)).containsOnlyKeys("oauth.token.endpoint");

    // a profile file or JSON: on that setting, naming the token endpoint
    String wrong = server.oauthProfileJson("app", "WRONG-SECRET");
    assertThat(errors(valid("profile.path", null, "profile.json", wrong)).get("profile.json").get(0))
        .startsWith("The OAuth token endpoint " + server.tokenEndpoint()).doesNotContain("WRONG-SECRET");
    Path file = tmp.resolve("oauth.share");
    Files.writeString(file, wrong);
    assertThat(errors(valid("profile.path", file.toString())).get("profile.path").get(0))
        .startsWith("The OAuth token endpoint " + server.tokenEndpoint());
  }

  private static int closedPort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void theShippedExampleConfigsValidate() throws Exception {
    Path config = Path.of("..", "config");
    Properties standalone = new Properties();
    try (InputStream in = Files.newInputStream(config.resolve("delta-sharing-source.properties"))) {
      standalone.load(in);
    }
    Map<String, String> fromProperties = new HashMap<>();
    standalone.stringPropertyNames().forEach(k -> fromProperties.put(k, standalone.getProperty(k)));
    List<Map<String, String>> examples = new java.util.ArrayList<>(List.of(fromProperties));
    for (String json : List.of("delta-sharing-source.json", "delta-sharing-source-avro.json")) {
      JsonNode n = ConnectHarness.JSON.readTree(config.resolve(json).toFile());
      Map<String, String> m = new HashMap<>();
      n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
      examples.add(m);
    }
    for (Map<String, String> example : examples) {
      assertThat(example.get("profile.path")).isEqualTo("/etc/sharestream/example.share");
      example.put("profile.path", profile); // the example profile's server is the kit here
      assertThat(errors(example)).as(example.toString()).isEmpty();
    }
    JsonNode exampleProfile = ConnectHarness.JSON.readTree(config.resolve("example.share").toFile());
    assertThat(exampleProfile.path("shareCredentialsVersion").asInt()).isEqualTo(1);
    assertThat(exampleProfile.path("endpoint").asText()).startsWith("https://");
  }
}
