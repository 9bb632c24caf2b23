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
}
