package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryEndpointTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Http http;

  @BeforeEach
  void start() {
    table = Fixtures.fiveVersions(tmp.resolve("events"), false);
    DeltaTableWriter.create(tmp.resolve("nohistory"), Fixtures.EVENTS).commit().append(Fixtures.events(0, 3));
    server = DeltaSharingServer.builder()
        .table("s", "sc", "events", table.dir(), true)
        .table("s", "sc", "nohistory", tmp.resolve("nohistory"), false)
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void latestSnapshotHasProtocolMetadataThenOneFileLinePerLiveFile() {
    Http.Response r = http.query("s.sc.events", "{}");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("4");
    assertThat(r.header("Content-Type")).startsWith("application/x-ndjson");
    List<JsonNode> lines = r.lines();
    assertThat(lines.get(0).path("protocol").path("minReaderVersion").asInt()).isEqualTo(1);
    JsonNode meta = lines.get(1).get("metaData");
    assertThat(meta.path("id").asText()).isEqualTo(table.tableId());
    assertThat(meta.path("format").path("provider").asText()).isEqualTo("parquet");
    assertThat(meta.path("partitionColumns").size()).isZero();
    assertThat(meta.has("version")).as("version only for versioned queries").isFalse();
    List<JsonNode> files = r.lines("file");
    assertThat(files).hasSize(table.snapshot().files().size());
    for (JsonNode f : files) {
      assertThat(f.path("id").asText()).hasSize(32);
      assertThat(f.path("url").asText()).startsWith("http://127.0.0.1:");
      assertThat(f.path("size").asLong()).isPositive();
      assertThat(f.path("expirationTimestamp").asLong()).isGreaterThan(System.currentTimeMillis());
      assertThat(f.path("stats").asText()).contains("numRecords");
      assertThat(f.has("version")).isFalse();
    }
    assertThat(r.lines("endStreamAction")).isEmpty();
  }

  @Test
  void startingVersionReturnsDataChangeActionsWithTheirVersionAndTimestamp() {
    Http.Response r = http.query("s.sc.events", "{\"startingVersion\":1,\"endingVersion\":4}");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("1");
    assertThat(r.lines().get(1).get("metaData").path("version").asLong()).isEqualTo(1);
    List<JsonNode> adds = r.lines("add");
    List<JsonNode> removes = r.lines("remove");
    // v1: 2 files, v2: 1 file, v3: delete id<3 rewrites the first file of v1; v4 (compaction) contributes nothing
    assertThat(adds.stream().map(a -> a.path("version").asLong()).collect(Collectors.toList()))
        .containsExactly(1L, 1L, 2L, 3L);
    assertThat(removes).hasSize(1);
    assertThat(removes.get(0).path("version").asLong()).isEqualTo(3);
    for (JsonNode a : adds) {
      assertThat(a.path("timestamp").asLong()).isEqualTo(table.log().timestamp(a.path("version").asLong()));
    }
  }

  @Test
  void snapshotAtVersionOrTimestampCarriesThatVersionOnFileLinesOnly() {
    Http.Response r = http.query("s.sc.events", "{\"version\":2}");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("2");
    // as the reference server: no version on the metaData line, a version but no timestamp on file lines
    assertThat(r.lines("metaData").get(0).has("version")).isFalse();
    List<JsonNode> files = r.lines("file");
    assertThat(files).hasSize(3);
    assertThat(files).allSatisfy(f -> {
      assertThat(f.path("version").asLong()).isEqualTo(2);
      assertThat(f.has("timestamp")).isFalse();
    });
    Http.Response byTime = http.query("s.sc.events",
        "{\"timestamp\":\"" + java.time.Instant.ofEpochMilli(table.log().timestamp(1)) + "\"}");
    assertThat(byTime.header("Delta-Table-Version")).isEqualTo("1");
    assertThat(byTime.lines("file")).hasSize(2);
  }

  @Test
  void fileIdsAreStableAcrossRequestsWhileUrlsAreNot() {
    List<JsonNode> a = http.query("s.sc.events", "{\"version\":2}").lines("file");
    List<JsonNode> b = http.query("s.sc.events", "{\"version\":2}").lines("file");
    assertThat(a).extracting(f -> f.path("id").asText()).isEqualTo(b.stream().map(f -> f.path("id").asText())
        .collect(Collectors.toList()));
    assertThat(a.get(0).path("url").asText()).isNotEqualTo(b.get(0).path("url").asText());
  }

  @Test
  void maxFilesPagesRepeatProtocolAndMetadataAndEndWithEndStreamAction() {
    table.append(Fixtures.events(100, 110), 1); // v5: 10 more files
    List<String> ids = new java.util.ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      String body = token == null ? "{\"maxFiles\":4}" : "{\"maxFiles\":4,\"pageToken\":\"" + token + "\"}";
      Http.Response r = http.query("s.sc.events", body);
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      List<JsonNode> lines = r.lines();
      assertThat(lines.get(0).has("protocol")).isTrue();
      assertThat(lines.get(1).has("metaData")).isTrue();
      assertThat(lines.get(lines.size() - 1).has("endStreamAction")).isTrue();
      assertThat(r.lines("file").size()).isLessThanOrEqualTo(4);
      r.lines("file").forEach(f -> ids.add(f.path("id").asText()));
      JsonNode end = r.lines("endStreamAction").get(0);
      assertThat(end.path("minUrlExpirationTimestamp").asLong()).isGreaterThan(System.currentTimeMillis());
      token = end.path("nextPageToken").asText(null);
      if (pages == 0) {
        table.append(Fixtures.events(200, 201)); // the table moves on: later pages stay on the pinned version
      }
      pages++;
    } while (token != null);
    // v4 holds 1 compacted file, v5 adds 10: 11 files in pages of 4, 4, 3
    assertThat(pages).isEqualTo(3);
    assertThat(ids).hasSize(11).doesNotHaveDuplicates();
  }

  @Test
  void startingVersionPagesResumeInsideAVersion() {
    table.append(Fixtures.events(100, 107), 1); // v5: 7 files
    List<String> seen = new java.util.ArrayList<>();
    String token = null;
    do {
      String body = "{\"startingVersion\":1,\"maxFiles\":3" + (token == null ? "" : ",\"pageToken\":\"" + token + "\"") + "}";
      Http.Response r = http.query("s.sc.events", body);
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      r.lines().stream().filter(l -> l.has("add") || l.has("remove")).forEach(l -> {
        JsonNode f = l.has("add") ? l.get("add") : l.get("remove");
        seen.add((l.has("add") ? "add" : "remove") + "@" + f.path("version").asLong() + ":" + f.path("id").asText());
      });
      token = r.lines("endStreamAction").get(0).path("nextPageToken").asText(null);
    } while (token != null);
    Http.Response whole = http.query("s.sc.events", "{\"startingVersion\":1}");
    List<String> expected = whole.lines().stream().filter(l -> l.has("add") || l.has("remove")).map(l -> {
      JsonNode f = l.has("add") ? l.get("add") : l.get("remove");
      return (l.has("add") ? "add" : "remove") + "@" + f.path("version").asLong() + ":" + f.path("id").asText();
    }).collect(Collectors.toList());
    assertThat(seen).isEqualTo(expected).hasSize(12);
  }

  @Test
  void pageTokenOfAnotherQueryIsRejected() {
    table.append(Fixtures.events(100, 105), 1);
    String token = http.query("s.sc.events", "{\"maxFiles\":1}").lines("endStreamAction").get(0)
        .path("nextPageToken").asText();
    Http.Response r = http.query("s.sc.events", "{\"version\":5,\"maxFiles\":1,\"pageToken\":\"" + token + "\"}");
    assertThat(r.status).isEqualTo(400);
    assertThat(r.message()).contains("pageToken");
  }

  @Test
  void endStreamActionIsSentWhenTheCapabilityAsksForIt() {
    Http.Response r = http.query("s.sc.events", "{}", "delta-sharing-capabilities",
        "responseformat=parquet;includeendstreamaction=true");
    assertThat(r.header("delta-sharing-capabilities")).contains("includeendstreamaction=true")
        .contains("responseformat=parquet");
    List<JsonNode> lines = r.lines();
    assertThat(lines.get(lines.size() - 1).has("endStreamAction")).isTrue();
  }

  @Test
  void refreshTokenPinsTheSnapshotItWasIssuedFor() {
    Http.Response first = http.query("s.sc.events", "{\"includeRefreshToken\":true}");
    String refresh = first.lines("endStreamAction").get(0).path("refreshToken").asText();
    assertThat(refresh).isNotEmpty();
    table.append(Fixtures.events(300, 301));
    Http.Response again = http.query("s.sc.events", "{\"refreshToken\":\"" + refresh + "\"}");
    assertThat(again.header("Delta-Table-Version")).isEqualTo("4");
    assertThat(again.lines("file")).extracting(f -> f.path("id").asText())
        .containsExactlyElementsOf(first.lines("file").stream().map(f -> f.path("id").asText())
            .collect(Collectors.toList()));
    assertThat(http.query("s.sc.events", "{\"version\":1,\"includeRefreshToken\":true}").status).isEqualTo(400);
  }

  @Test
  void limitHintStopsOnceEnoughRowsWereListed() {
    table.append(Fixtures.events(100, 110), 2); // 5 files of 2 rows
    Http.Response r = http.query("s.sc.events", "{\"limitHint\":3}");
    assertThat(r.lines("file").size()).isBetween(1, 3);
  }

  @Test
  void partitionValuesAreStringsAndNullsStayNull() {
    io.sharestream.testkit.delta.DeltaType.StructType schema = io.sharestream.testkit.delta.DeltaType.struct(
        io.sharestream.testkit.delta.DeltaType.field("id", io.sharestream.testkit.delta.DeltaType.LONG),
        io.sharestream.testkit.delta.DeltaType.field("day", io.sharestream.testkit.delta.DeltaType.DATE));
    DeltaTableWriter p = DeltaTableWriter.create(tmp.resolve("p"), schema).partitionedBy("day").commit();
    p.append(List.of(Fixtures.row("id", 1L, "day", java.time.LocalDate.of(2024, 2, 3)), Fixtures.row("id", 2L)));
    server.tables().add("s", "sc", "parts", p.dir(), true);
    Http.Response r = http.query("s.sc.parts", "{}");
    assertThat(r.lines("metaData").get(0).path("partitionColumns").get(0).asText()).isEqualTo("day");
    assertThat(r.lines("file")).extracting(f -> f.path("partitionValues").get("day").isNull() ? null
        : f.path("partitionValues").get("day").asText()).containsExactlyInAnyOrder("2024-02-03", null);
  }

  @Test
  void invalidQueriesAre400WithAReason() {
    assertError(http.query("s.sc.events", "not json"), "MALFORMED_REQUEST", "JSON");
    assertError(http.query("s.sc.events", "{\"version\":1,\"startingVersion\":1}"), "INVALID_PARAMETER_VALUE", "one of");
    assertError(http.query("s.sc.events", "{\"version\":-1}"), "INVALID_PARAMETER_VALUE", "negative");
    assertError(http.query("s.sc.events", "{\"version\":99}"), "MALFORMED_REQUEST", "99");
    assertError(http.query("s.sc.events", "{\"startingVersion\":9}"), "INVALID_PARAMETER_VALUE",
        "cannot be greater than the latest version of the table(4)");
    assertError(http.query("s.sc.events", "{\"startingVersion\":1,\"endingVersion\":9}"), "INVALID_PARAMETER_VALUE",
        "End version");
    assertError(http.query("s.sc.events", "{\"startingVersion\":3,\"endingVersion\":2}"), "INVALID_PARAMETER_VALUE",
        "start 3 to end 2");
    assertError(http.query("s.sc.events", "{\"maxFiles\":0}"), "INVALID_PARAMETER_VALUE", "maxFiles");
    assertError(http.query("s.sc.events", "{\"timestamp\":\"2000-01-01T00:00:00Z\"}"), "MALFORMED_REQUEST",
        "before the earliest version");
    assertError(http.query("s.sc.nohistory", "{\"startingVersion\":0}"), "INVALID_PARAMETER_VALUE",
        "history sharing is not enabled on table: s.sc.nohistory");
    assertThat(http.query("s.sc.nohistory", "{}").status).isEqualTo(200);
    assertThat(http.query("s.sc.unknown", "{}").status).isEqualTo(404);
  }

  @Test
  void tablesNeedingDeltaFormatAreRefusedInParquetFormatAndServedInDelta() {
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), Fixtures.EVENTS)
        .protocol(3, 7, List.of("deletionVectors"), List.of("deletionVectors")).commit();
    dv.append(Fixtures.events(0, 2));
    server.tables().add("s", "sc", "dv", dv.dir(), true);
    Http.Response parquet = http.query("s.sc.dv", "{}");
    assertError(parquet, "UNSUPPORTED_OPERATION", "responseFormat=delta");
    assertThat(parquet.message()).contains("(3,7)").contains("deletionVectors");

    Http.Response delta = http.query("s.sc.dv", "{}", "delta-sharing-capabilities", "responseformat=delta,parquet");
    assertThat(delta.status).isEqualTo(200);
    assertThat(delta.header("delta-sharing-capabilities")).contains("responseformat=delta");
    assertThat(delta.lines("protocol").get(0).path("deltaProtocol").path("minReaderVersion").asInt()).isEqualTo(3);
    assertThat(delta.lines("metaData").get(0).path("deltaMetadata").path("id").asText()).isEqualTo(dv.tableId());
    JsonNode file = delta.lines("file").get(0);
    assertThat(file.path("deltaSingleAction").path("add").path("path").asText()).startsWith("http://127.0.0.1:");
  }

  static void assertError(Http.Response r, String code, String messagePart) {
    assertThat(r.status).as(r.raw.body()).isEqualTo(400);
    assertThat(r.errorCode()).isEqualTo(code);
    assertThat(r.message()).contains(messagePart);
  }
}
