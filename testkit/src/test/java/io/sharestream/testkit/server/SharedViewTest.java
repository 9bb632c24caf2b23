package io.sharestream.testkit.server;

import static io.sharestream.testkit.server.QueryEndpointTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shared views and materialized views as Databricks serves them: the latest state, no versions, no history. */
class SharedViewTest {
  static final String CAPS = "delta-sharing-capabilities";
  static final String NO_HISTORY = "s.sc.v is a view and has no history: time travel, change data feed and "
      + "streaming are not available.";

  @TempDir Path tmp;
  DeltaTableWriter table;
  DeltaSharingServer server;
  Http http;

  @BeforeEach
  void start() {
    table = Fixtures.fiveVersions(tmp.resolve("events"), true); // change data feed on
    table.append(Fixtures.events(100, 104), 1); // v5: 5 files in all
    server = DeltaSharingServer.builder()
        .table("s", "sc", "events", table.dir(), true)
        .view("s", "sc", "v", table.dir())
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static String path(String name) {
    return Http.tablePath("s.sc." + name);
  }

  private static List<String> ids(Http.Response r) {
    return r.lines("file").stream().map(f -> f.path("id").asText()).collect(Collectors.toList());
  }

  @Test
  void viewsAreListedLikeTables() {
    assertThat(http.get("/shares/s/schemas/sc/tables").json().path("items")).extracting(n -> n.path("name").asText())
        .containsExactly("events", "v");
    assertThat(http.get("/shares/s/all-tables").json().path("items")).hasSize(2);
    assertThat(server.tables().get("s.sc.v").view).isTrue();
    assertThat(server.tables().get("s.sc.events").view).isFalse();
  }

  @Test
  void versionAnswersWithoutAVersionHeaderOrBody() {
    Http.Response view = http.get(path("v") + "/version");
    assertThat(view.status).isEqualTo(200);
    assertThat(view.header("Delta-Table-Version")).isNull();
    assertThat(view.raw.body()).isEmpty();
    assertThat(http.head(path("v")).header("Delta-Table-Version")).isNull();
    assertThat(http.get(path("events") + "/version").header("Delta-Table-Version")).isEqualTo("5");
  }

  @Test
  void aServerRefusingViewVersionsAnswersThem400() {
    try (DeltaSharingServer refusing = DeltaSharingServer.builder().viewVersionRefused(true)
        .table("s", "sc", "events", table.dir(), true).view("s", "sc", "v", table.dir()).start()) {
      Http refusingHttp = new Http(refusing);
      Http.Response view = refusingHttp.get(path("v") + "/version");
      assertThat(view.status).isEqualTo(400);
      assertThat(view.json().path("errorCode").asText()).isEqualTo("INVALID_PARAMETER_VALUE");
      assertThat(refusingHttp.get(path("events") + "/version").header("Delta-Table-Version")).isEqualTo("5");
      assertThat(refusingHttp.get(path("v") + "/metadata").header("Delta-Table-Version")).isNull();
    }
  }

  @Test
  void metadataIsTheLatestStateWithoutVersionOrChangeDataFeed() {
    Http.Response r = http.get(path("v") + "/metadata");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isNull();
    List<JsonNode> lines = r.lines();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).path("protocol").path("minReaderVersion").asInt()).isEqualTo(1);
    JsonNode meta = lines.get(1).get("metaData");
    assertThat(meta.path("id").asText()).isEqualTo(table.tableId());
    assertThat(meta.has("version")).isFalse();
    assertThat(meta.path("configuration").size()).isZero();
    // the table itself says its change data feed is on
    assertThat(http.get(path("events") + "/metadata").lines("metaData").get(0).path("configuration")
        .path("enableChangeDataFeed").asText()).isEqualTo("true");

    Http.Response delta = http.get(path("v") + "/metadata", CAPS, "responseformat=delta");
    JsonNode deltaMeta = delta.lines("metaData").get(0);
    assertThat(delta.header("Delta-Table-Version")).isNull();
    assertThat(deltaMeta.has("version")).isFalse();
    assertThat(deltaMeta.path("deltaMetadata").path("configuration").has("delta.enableChangeDataFeed")).isFalse();
  }

  @Test
  void historyEndpointsAre400SayingTheViewHasNoHistory() {
    String at = Instant.ofEpochMilli(table.log().timestamp(2)).toString();
    List<Http.Response> refused = List.of(
        http.get(path("v") + "/metadata?version=2"),
        http.get(path("v") + "/metadata?timestamp=" + at),
        http.get(path("v") + "/version?startingTimestamp=" + at),
        http.query("s.sc.v", "{\"version\":2}"),
        http.query("s.sc.v", "{\"timestamp\":\"" + at + "\"}"),
        http.query("s.sc.v", "{\"startingVersion\":1}"),
        http.query("s.sc.v", "{\"startingVersion\":1,\"idempotencyKey\":\"k\"}", CAPS, "asyncquery=true"),
        http.get(path("v") + "/changes?startingVersion=1"));
    for (Http.Response r : refused) {
      assertError(r, "INVALID_PARAMETER_VALUE", "is a view");
      assertThat(r.message()).isEqualTo(NO_HISTORY);
    }
    assertThat(http.get(path("events") + "/changes?startingVersion=1").status).isEqualTo(200);
  }

  @Test
  void latestQueryIsAsynchronousForAsyncClientsAndCarriesNoVersions() {
    Http.Response pending = http.query("s.sc.v", "{\"idempotencyKey\":\"k\"}", CAPS, "asyncquery=true");
    String id = AsyncQueryTest.assertStatus(pending, "pending", true);
    AsyncQueryTest.assertStatus(http.poll("s.sc.v", id, "{}", CAPS, "asyncquery=true"), "pending", true);
    AsyncQueryTest.assertStatus(http.poll("s.sc.v", id, "{}", CAPS, "asyncquery=true"), "pending", true);
    Http.Response done = http.poll("s.sc.v", id, "{}", CAPS, "asyncquery=true");
    assertThat(done.status).isEqualTo(200);
    assertThat(done.header("Delta-Table-Version")).isNull();
    assertThat(done.lines("metaData").get(0).has("version")).isFalse();
    assertThat(done.lines("file")).hasSize(5).allSatisfy(f -> {
      assertThat(f.has("version")).isFalse();
      assertThat(f.has("timestamp")).isFalse();
    });
    assertThat(ids(done)).isEqualTo(ids(http.query("s.sc.v", "{}")));
  }

  @Test
  void latestQueryIsSynchronousForOtherClientsWithStableIdsAndNoVersions() {
    Http.Response r = http.query("s.sc.v", "{}", CAPS, "responseformat=delta,parquet");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isNull();
    assertThat(r.header(CAPS)).isEqualTo("responseformat=parquet");
    assertThat(r.lines("metaData").get(0).path("configuration").size()).isZero();
    assertThat(r.lines("file")).hasSize(5).allSatisfy(f -> assertThat(f.has("version")).isFalse());
    Http.Response again = http.query("s.sc.v", "{}");
    assertThat(ids(again)).isEqualTo(ids(r));
    assertThat(again.lines("file").get(0).path("url").asText()).isNotEqualTo(r.lines("file").get(0).path("url")
        .asText());
    Http.Response delta = http.query("s.sc.v", "{}", CAPS, "responseformat=delta");
    assertThat(delta.header("Delta-Table-Version")).isNull();
    assertThat(delta.lines("file")).hasSize(5).allSatisfy(f -> {
      assertThat(f.has("version")).isFalse();
      assertThat(f.path("deltaSingleAction").path("add").path("path").asText()).startsWith("http://");
    });
  }

  @Test
  void pagesHintsAndLimitsWorkAsOnALatestSnapshot() {
    List<String> ids = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Http.Response r = http.query("s.sc.v", token == null ? "{\"maxFiles\":2}"
          : "{\"maxFiles\":2,\"pageToken\":\"" + token + "\"}");
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      assertThat(r.header("Delta-Table-Version")).isNull();
      assertThat(r.lines("metaData").get(0).path("configuration").size()).isZero();
      r.lines("file").forEach(f -> {
        assertThat(f.has("version")).isFalse();
        assertThat(f.has("timestamp")).isFalse();
        ids.add(f.path("id").asText());
      });
      token = r.lines("endStreamAction").get(0).path("nextPageToken").asText(null);
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(3);
    assertThat(ids).hasSize(5).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(
        ids(http.query("s.sc.v", "{}")));

    assertThat(http.query("s.sc.v", "{\"limitHint\":1}").lines("file")).hasSize(1);
    String hint = Http.JSON.getNodeFactory().textNode(
        "{\"op\":\"greaterThan\",\"children\":[{\"op\":\"column\",\"name\":\"id\",\"valueType\":\"long\"},"
            + "{\"op\":\"literal\",\"value\":\"101\",\"valueType\":\"long\"}]}").toString();
    assertThat(http.query("s.sc.v", "{\"jsonPredicateHints\":" + hint + "}").lines("file")).hasSize(2);
  }

  @Test
  void viewsCanBeAddedAndMadeSynchronousAtRuntime() {
    server.tables().addView("s", "sc", "mv", table.dir());
    assertThat(server.tables().get("s.sc.mv").asyncMode()).isSameAs(AsyncMode.ALWAYS);
    Http.Response pending = http.query("s.sc.mv", "{\"idempotencyKey\":\"k\"}", CAPS, "asyncquery=true");
    AsyncQueryTest.assertStatus(pending, "pending", true);
    server.async("s.sc.mv", AsyncMode.NEVER);
    Http.Response sync = http.query("s.sc.mv", "{\"idempotencyKey\":\"k\"}", CAPS, "asyncquery=true");
    assertThat(sync.lines("file")).hasSize(5);
    assertThat(sync.header("Delta-Table-Version")).isNull();
  }
}
