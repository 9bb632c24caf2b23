package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VersionAndMetadataEndpointTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Http http;

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.EVENTS).changeDataFeed(true).commit(); // 0
    table.append(Fixtures.events(0, 5)); // 1
    table.addColumn(DeltaType.field("score", DeltaType.DOUBLE)); // 2
    table.append(Fixtures.events(5, 6)); // 3
    DeltaTableWriter.create(tmp.resolve("nh"), Fixtures.EVENTS).changeDataFeed(true).commit();
    server = DeltaSharingServer.builder()
        .table("s", "sc", "t", table.dir(), true)
        .table("s", "sc", "nh", tmp.resolve("nh"), false)
        .table("s", "sc", "missing", tmp.resolve("does-not-exist"), true)
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void versionEndpointAnswersTheLatestVersionInAHeader() {
    Http.Response r = http.get("/shares/s/schemas/sc/tables/t/version");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("3");
    assertThat(r.raw.body()).isEmpty();
    Http.Response legacy = http.head("/shares/s/schemas/sc/tables/t");
    assertThat(legacy.status).isEqualTo(200);
    assertThat(legacy.header("Delta-Table-Version")).isEqualTo("3");
  }

  @Test
  void startingTimestampResolvesToTheFirstVersionAtOrAfterIt() {
    long t1 = table.log().timestamp(1);
    long t2 = table.log().timestamp(2);
    assertThat(versionAt(Instant.ofEpochMilli(t1))).isEqualTo("1");
    assertThat(versionAt(Instant.ofEpochMilli(t1 + 1))).isEqualTo("2");
    assertThat(versionAt(Instant.ofEpochMilli(t2))).isEqualTo("2");
    assertThat(versionAt(Instant.parse("2000-01-01T00:00:00Z"))).isEqualTo("0");
    Http.Response after = http.get("/shares/s/schemas/sc/tables/t/version?startingTimestamp="
        + Instant.ofEpochMilli(table.log().timestamp(3) + 1000));
    assertThat(after.status).isEqualTo(400);
    assertThat(after.errorCode()).isEqualTo("MALFORMED_REQUEST");
    Http.Response bad = http.get("/shares/s/schemas/sc/tables/t/version?startingTimestamp=yesterday");
    assertThat(bad.status).isEqualTo(400);
    assertThat(bad.message()).contains("startingTimestamp");
  }

  private String versionAt(Instant t) {
    Http.Response r = http.get("/shares/s/schemas/sc/tables/t/version?startingTimestamp=" + t);
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    return r.header("Delta-Table-Version");
  }

  @Test
  void metadataReturnsExactlyProtocolAndMetadataLines() {
    Http.Response r = http.get("/shares/s/schemas/sc/tables/t/metadata");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("3");
    List<JsonNode> lines = r.lines();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).path("protocol").path("minReaderVersion").asInt()).isEqualTo(1);
    JsonNode meta = lines.get(1).get("metaData");
    assertThat(meta.path("id").asText()).isEqualTo(table.tableId());
    assertThat(meta.path("schemaString").asText()).contains("score");
    assertThat(meta.path("configuration").path("enableChangeDataFeed").asText()).isEqualTo("true");
    assertThat(meta.has("numFiles")).as("the reference server sends no size/numFiles").isFalse();
    assertThat(meta.has("size")).isFalse();
  }

  @Test
  void metadataAtAVersionOrTimestampIsTheSchemaOfThatVersion() {
    Http.Response v1 = http.get("/shares/s/schemas/sc/tables/t/metadata?version=1");
    assertThat(v1.status).isEqualTo(200);
    assertThat(v1.header("Delta-Table-Version")).isEqualTo("1");
    JsonNode meta = v1.lines("metaData").get(0);
    assertThat(meta.path("schemaString").asText()).doesNotContain("score");
    assertThat(meta.has("version")).as("the reference server sends no version here").isFalse();
    Http.Response ts = http.get("/shares/s/schemas/sc/tables/t/metadata?timestamp="
        + Instant.ofEpochMilli(table.log().timestamp(2)));
    assertThat(ts.lines("metaData").get(0).path("schemaString").asText()).contains("score");
  }

  @Test
  void metadataErrorsAre400WithAReason() {
    Http.Response both = http.get("/shares/s/schemas/sc/tables/t/metadata?version=1&timestamp=2024-01-01T00:00:00Z");
    assertThat(both.status).isEqualTo(400);
    Http.Response tooNew = http.get("/shares/s/schemas/sc/tables/t/metadata?version=9");
    assertThat(tooNew.status).isEqualTo(400);
    assertThat(tooNew.message()).contains("9");
    Http.Response noHistory = http.get("/shares/s/schemas/sc/tables/nh/metadata?version=0");
    assertThat(noHistory.status).isEqualTo(400);
    assertThat(noHistory.message()).contains("history sharing is not enabled on table: s.sc.nh");
  }

  @Test
  void tableWithoutHistoryStillAnswersLatestVersionAndMetadataButNoConfigurationForCdf() {
    assertThat(http.get("/shares/s/schemas/sc/tables/nh/version").status).isEqualTo(200);
    Http.Response meta = http.get("/shares/s/schemas/sc/tables/nh/metadata");
    assertThat(meta.status).isEqualTo(200);
    assertThat(meta.lines("metaData").get(0).path("configuration").has("enableChangeDataFeed")).isFalse();
    Http.Response ts = http.get("/shares/s/schemas/sc/tables/nh/version?startingTimestamp=2024-01-01T00:00:00Z");
    assertThat(ts.status).isEqualTo(400);
  }

  @Test
  void unknownTableIs404AndATableWithoutDeltaLogIs400() {
    Http.Response unknown = http.get("/shares/s/schemas/sc/tables/nope/version");
    assertThat(unknown.status).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("RESOURCE_DOES_NOT_EXIST");
    assertThat(unknown.message()).contains("s/sc/nope");
    assertThat(http.get("/shares/x/schemas/sc/tables/t/metadata").status).isEqualTo(404);
    Http.Response missing = http.get("/shares/s/schemas/sc/tables/missing/metadata");
    assertThat(missing.status).isEqualTo(400);
    assertThat(missing.errorCode()).isEqualTo("MALFORMED_REQUEST");
  }

  @Test
  void wrongMethodIsRefused() {
    Http.Response r = http.post("/shares/s/schemas/sc/tables/t/metadata", "{}");
    assertThat(r.status).isEqualTo(405);
    assertThat(http.get("/shares/s/schemas/sc/tables/t/query").status).isEqualTo(405);
  }
}
