package io.sharestream.testkit.server;

import static io.sharestream.testkit.server.QueryEndpointTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit answers as the reference Delta Sharing server (v1.4.1) was recorded answering, where that differs from the
 * protocol text (one test per recorded difference).
 */
class ReferenceServerAnswersTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter events;
  Http http;

  @BeforeEach
  void start() {
    events = Fixtures.fiveVersions(tmp.resolve("events"), true);
    server = DeltaSharingServer.builder().table("s", "sc", "events", events.dir(), true).start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void serverWritesWithTcpNoDelaySoClientsDoNotWaitForDelayedAcks() throws Exception {
    // read through the JDK's own switch (opened to tests by the surefire argLine): wall-clock checks would be flaky
    Method noDelay = Class.forName("sun.net.httpserver.ServerConfig").getDeclaredMethod("noDelay");
    noDelay.setAccessible(true);
    assertThat((Boolean) noDelay.invoke(null)).isTrue();
  }

  @Test
  void aLogCleanedUpToACheckpointIsServedFromItsFirstRemainingVersion() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("cleaned"), Fixtures.EVENTS).changeDataFeed(true).commit();
    for (int v = 1; v <= 10; v++) {
      t.append(Fixtures.events(v * 10, v * 10 + 10));
    }
    t.checkpoint(); // 10
    for (int v = 11; v <= 20; v++) {
      t.append(Fixtures.events(v * 10, v * 10 + 10));
    }
    t.checkpoint(); // 20
    t.append(Fixtures.events(210, 220)); // 21
    t.cleanUpLogBefore(10);
    server.tables().add("s", "sc", "cleaned", t.dir(), true);
    String path = Http.tablePath("s.sc.cleaned");

    Http.Response meta = http.get(path + "/metadata?version=10");
    assertThat(meta.status).as(meta.raw.body()).isEqualTo(200);
    assertThat(meta.lines("metaData").get(0).path("id").asText()).isEqualTo(t.tableId());
    Http.Response at10 = http.query("s.sc.cleaned", "{\"version\":10}");
    assertThat(at10.status).as(at10.raw.body()).isEqualTo(200);
    assertThat(at10.lines("file")).hasSize(10);
    Http.Response at20 = http.query("s.sc.cleaned", "{\"version\":20}");
    assertThat(at20.status).as(at20.raw.body()).isEqualTo(200);
    assertThat(at20.lines("file")).hasSize(20);
    for (String body : List.of("{\"startingVersion\":10}", "{\"startingVersion\":10,\"maxFiles\":100}")) {
      Http.Response since = http.query("s.sc.cleaned", body);
      assertThat(since.status).as(since.raw.body()).isEqualTo(200);
      assertThat(since.lines("add")).extracting(a -> a.path("version").asLong()).containsExactlyElementsOf(
          List.of(10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L, 21L));
    }
    for (String q : List.of("", "&endingVersion=12", "&includeHistoricalMetadata=true", "&maxFiles=5")) {
      Http.Response changes = http.get(path + "/changes?startingVersion=10" + q);
      assertThat(changes.status).as(q + ": " + changes.raw.body()).isEqualTo(200);
      assertThat(changes.lines("add")).isNotEmpty().allSatisfy(a -> assertThat(a.path("version").asLong())
          .isGreaterThanOrEqualTo(10));
    }

    assertError(http.get(path + "/metadata?version=9"), "MALFORMED_REQUEST", "9");
    assertError(http.query("s.sc.cleaned", "{\"version\":9}"), "MALFORMED_REQUEST", "9");
    assertError(http.query("s.sc.cleaned", "{\"startingVersion\":9}"), "INVALID_PARAMETER_VALUE", "9");
  }

  @Test
  void changesWithoutHistoricalMetadataCarryTheLatestMetadataAndVersion() {
    events.addColumn(DeltaType.field("score", DeltaType.DOUBLE)); // 5
    String path = Http.tablePath("s.sc.events");
    Http.Response r = http.get(path + "/changes?startingVersion=2&endingVersion=2");
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("2");
    List<JsonNode> metas = r.lines("metaData");
    assertThat(metas).hasSize(1);
    assertThat(metas.get(0).path("version").asLong()).isEqualTo(5);
    assertThat(metas.get(0).path("schemaString").asText()).contains("score");

    Http.Response historical = http.get(path + "/changes?startingVersion=2&includeHistoricalMetadata=true");
    List<JsonNode> hm = historical.lines("metaData");
    assertThat(hm).extracting(m -> m.path("version").asLong()).containsExactly(2L, 5L);
    assertThat(hm.get(0).path("schemaString").asText()).doesNotContain("score");
  }

  @Test
  void changesEndingAfterTheLatestVersionAreClampedButAQueryRangeIsNot() {
    Http.Response r = http.get(Http.tablePath("s.sc.events") + "/changes?startingVersion=1&endingVersion=99");
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.lines().stream().filter(l -> l.has("add") || l.has("remove") || l.has("cdf"))
        .map(l -> l.elements().next().path("version").asLong()).max(Long::compare)).contains(3L);
    assertError(http.query("s.sc.events", "{\"startingVersion\":1,\"endingVersion\":99}"), "INVALID_PARAMETER_VALUE",
        "End version");
  }

  @Test
  void changesStartingBeforeTheFirstCommitAreRefused() {
    Http.Response r = http.get(Http.tablePath("s.sc.events") + "/changes?startingTimestamp=2000-01-01T00:00:00Z");
    assertError(r, "INVALID_PARAMETER_VALUE", "is before the earliest version available to this table");
    assertThat(r.message()).contains("Please use a timestamp greater than or equal to");
  }

  @Test
  void aQueryWithOnlyEndingVersionIsAPlainSnapshot() {
    Http.Response r = http.query("s.sc.events", "{\"endingVersion\":1}");
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("4");
    assertThat(r.lines("file")).hasSize(events.snapshot().files().size());
  }

  @Test
  void aQueryWithAnEmptyOrNonJsonBodyIsMalformed() {
    assertError(http.query("s.sc.events", ""), "MALFORMED_REQUEST", "empty");
    assertError(http.query("s.sc.events", "version=1"), "MALFORMED_REQUEST", "JSON");
  }

  @Test
  void snapshotsAtAVersionCarryTheVersionOnFilesButNoTimestampAndNoVersionOnMetadata() {
    long t2 = events.log().timestamp(2);
    for (String body : List.of("{\"version\":2}", "{\"timestamp\":\"" + Instant.ofEpochMilli(t2) + "\"}")) {
      Http.Response r = http.query("s.sc.events", body);
      assertThat(r.lines("metaData").get(0).has("version")).as(body).isFalse();
      assertThat(r.lines("file")).isNotEmpty().allSatisfy(f -> {
        assertThat(f.path("version").asLong()).isEqualTo(2);
        assertThat(f.has("timestamp")).isFalse();
      });
    }
    String path = Http.tablePath("s.sc.events");
    for (String q : List.of("?version=2", "?timestamp=" + Instant.ofEpochMilli(t2))) {
      assertThat(http.get(path + "/metadata" + q).lines("metaData").get(0).has("version")).as(q).isFalse();
    }
  }

  @Test
  void metadataSizesAreLeftOutUnlessTheServerIsSetToSendThem() {
    assertThat(http.query("s.sc.events", "{}").lines("metaData").get(0).has("size")).isFalse();
    try (DeltaSharingServer sizes = DeltaSharingServer.builder().metadataSizes(true)
        .table("s", "sc", "events", events.dir(), true).start()) {
      JsonNode meta = new Http(sizes).query("s.sc.events", "{}").lines("metaData").get(0);
      assertThat(meta.path("numFiles").asLong()).isEqualTo(events.snapshot().files().size());
      assertThat(meta.path("size").asLong()).isEqualTo(events.snapshot().sizeInBytes());
    }
  }

  @Test
  void onlyAnswersToClientsAskingForEndStreamActionSayItInTheCapabilitiesHeader() {
    Http.Response paged = http.query("s.sc.events", "{\"maxFiles\":1}");
    assertThat(paged.header("delta-sharing-capabilities")).isEqualTo("responseformat=parquet");
    assertThat(paged.lines().get(paged.lines().size() - 1).has("endStreamAction")).isTrue();
    Http.Response asked = http.query("s.sc.events", "{}", "delta-sharing-capabilities",
        "responseformat=parquet;includeendstreamaction=true");
    assertThat(asked.header("delta-sharing-capabilities"))
        .isEqualTo("responseformat=parquet;includeendstreamaction=true");
    assertThat(http.query("s.sc.events", "{}").header("delta-sharing-capabilities"))
        .isEqualTo("responseformat=parquet");
  }

  @Test
  void snapshotPathErrorsAreMalformedRequestsWhileRangeErrorsAreInvalidParameters() {
    long last = events.log().timestamp(4);
    assertError(http.query("s.sc.events", "{\"version\":99}"), "MALFORMED_REQUEST", "99");
    assertError(http.query("s.sc.events", "{\"version\":\"abc\"}"), "MALFORMED_REQUEST", "version");
    assertError(http.query("s.sc.events", "{\"timestamp\":\"2000-01-01T00:00:00Z\"}"), "MALFORMED_REQUEST",
        "before");
    assertError(http.query("s.sc.events", "{\"timestamp\":\"" + Instant.ofEpochMilli(last + 60_000) + "\"}"),
        "MALFORMED_REQUEST", "after");
    assertError(http.get(Http.tablePath("s.sc.events") + "/version?startingTimestamp="
        + Instant.ofEpochMilli(last + 60_000)), "MALFORMED_REQUEST", "after");
    assertError(http.query("s.sc.events", "{\"startingVersion\":99}"), "INVALID_PARAMETER_VALUE", "99");
    assertError(http.get(Http.tablePath("s.sc.events") + "/changes?startingVersion=99"), "INVALID_PARAMETER_VALUE",
        "99");
    assertError(http.query("s.sc.events", "{\"maxFiles\":0}"), "INVALID_PARAMETER_VALUE", "maxFiles");
  }

  @Test
  void unauthorizedIsPlainTextAndHeadOfAnUnknownTableHasNoBody() {
    Http.Response unauthorized = new Http(server, "wrong").query("s.sc.events", "{}");
    assertThat(unauthorized.status).isEqualTo(401);
    assertThat(unauthorized.header("Content-Type")).startsWith("text/plain");
    assertThat(unauthorized.raw.body()).isEqualTo("401 Unauthorized");
    HttpRequest head = HttpRequest.newBuilder(URI.create(server.endpoint() + "/shares/s/schemas/sc/tables/nope"))
        .header("Authorization", "Bearer " + server.bearerToken())
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build();
    Http.Response unknown = Http.send(head);
    assertThat(unknown.status).isEqualTo(404);
    assertThat(unknown.raw.body()).isEmpty();
  }

  @Test
  void referenceTimestampResolutionAnswersTheVersionAfterTheOneAsOfTheTimestamp() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("cleaned"), Fixtures.EVENTS).commit();
    for (int v = 1; v <= 12; v++) {
      t.append(Fixtures.events(v, v + 1));
    }
    try (DeltaSharingServer ref = DeltaSharingServer.builder()
        .timestampResolution(DeltaSharingServer.TimestampResolution.REFERENCE)
        .table("s", "sc", "events", events.dir(), true).table("s", "sc", "cleaned", t.dir(), true).start()) {
      Http refHttp = new Http(ref);
      String path = Http.tablePath("s.sc.events") + "/version?startingTimestamp=";
      long t1 = events.log().timestamp(1);
      assertThat(refHttp.get(path + Instant.ofEpochMilli(t1)).header("Delta-Table-Version")).isEqualTo("2");
      long beforeT2 = t1 + (events.log().timestamp(2) - t1 - 1) / 2; // commits may be only 1 ms apart
      assertThat(refHttp.get(path + Instant.ofEpochMilli(beforeT2)).header("Delta-Table-Version")).isEqualTo("2");
      assertThat(refHttp.get(path + "2000-01-01T00:00:00Z").header("Delta-Table-Version")).isEqualTo("0");
      assertError(refHttp.get(path + Instant.ofEpochMilli(events.log().timestamp(4))), "MALFORMED_REQUEST",
          "Cannot load table version 5");
      // the exact server answers the commit itself
      assertThat(http.get(path + Instant.ofEpochMilli(t1)).header("Delta-Table-Version")).isEqualTo("1");

      t.checkpoint(); // 12
      t.append(Fixtures.events(20, 21)); // 13
      t.cleanUpLogBefore(12);
      String cleaned = Http.tablePath("s.sc.cleaned") + "/version?startingTimestamp=2000-01-01T00:00:00Z";
      assertThat(refHttp.get(cleaned).header("Delta-Table-Version")).isEqualTo("0");
    }
  }

  @Test
  void theExactServerAnswersTheFirstRetainedVersionBeforeACleanedLog() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("cleaned"), Fixtures.EVENTS).commit();
    for (int v = 1; v <= 3; v++) {
      t.append(Fixtures.events(v, v + 1));
    }
    t.checkpoint(); // 3
    t.append(Fixtures.events(9, 10)); // 4
    t.cleanUpLogBefore(3);
    server.tables().add("s", "sc", "cleaned", t.dir(), true);
    Http.Response r = http.get(Http.tablePath("s.sc.cleaned") + "/version?startingTimestamp=2000-01-01T00:00:00Z");
    assertThat(r.header("Delta-Table-Version")).isEqualTo("3");
    assertThat(List.of(3L, 4L)).isEqualTo(t.log().timestamps().keySet().stream().collect(Collectors.toList()));
  }

  @Test
  void aNegativeVersionIsAnInvalidParameterRefusedBeforeTheSnapshotPath() {
    assertError(http.query("s.sc.events", "{\"version\":-1}"), "INVALID_PARAMETER_VALUE", "negative");
    assertError(http.query("s.sc.events", "{\"version\":\"abc\"}"), "MALFORMED_REQUEST", "version");
  }

  @Test
  void sharesConfiguredWithoutIdsAreListedWithoutThem() {
    assertThat(http.get("/shares/s").json().path("share").toString()).isEqualTo("{\"name\":\"s\"}");
    assertThat(http.get("/shares").json().path("items").get(0).toString()).isEqualTo("{\"name\":\"s\"}");
    assertThat(http.get("/shares/s/all-tables").json().path("items").get(0).has("shareId")).isFalse();
    assertThat(http.get("/shares/s/schemas/sc/tables").json().path("items").get(0).has("shareId")).isFalse();
  }

  @Test
  void aPagedSnapshotAtAVersionCarriesTheCommitTimestampOnEveryFileLine() {
    Http.Response r = http.query("s.sc.events", "{\"version\":2,\"maxFiles\":2}");
    assertThat(r.lines("file")).hasSize(2).allSatisfy(f -> {
      assertThat(f.path("version").asLong()).isEqualTo(2);
      assertThat(f.path("timestamp").asLong()).isEqualTo(events.log().timestamp(2));
    });
    assertThat(http.query("s.sc.events", "{\"maxFiles\":2}").lines("file"))
        .allSatisfy(f -> assertThat(f.has("timestamp")).isFalse());
  }

  @Test
  void aPagedAnswerOfATableSharedWithoutHistoryKeepsItsChangeDataFeedConfiguration() {
    server.tables().add("s", "sc", "nohistory", events.dir(), false);
    JsonNode paged = http.query("s.sc.nohistory", "{\"maxFiles\":1}").lines("metaData").get(0);
    assertThat(paged.path("configuration").path("enableChangeDataFeed").asText()).isEqualTo("true");
    JsonNode whole = http.query("s.sc.nohistory", "{}").lines("metaData").get(0);
    assertThat(whole.path("configuration").has("enableChangeDataFeed")).isFalse();
  }
}
