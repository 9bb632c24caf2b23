package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The test kit serves the parquet-format fixture ({@link DeltaFixtures#cdf()}, written by Delta Lake 3.2) version by
 * version exactly as its log says: the files of every snapshot, and per version the change data files of commits that
 * have them, else their data-changing adds and removes.
 */
class KitServesDeltaWrittenTablesTest {
  static DeltaFixtures.Fixture table;
  static DeltaSharingServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final String BASE = "/shares/s/schemas/sc/tables/t";

  @BeforeAll
  static void serve() {
    table = DeltaFixtures.cdf();
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static List<JsonNode> lines(HttpRequest.Builder request) throws Exception {
    HttpResponse<String> r = HTTP.send(request.header("Authorization", "Bearer " + server.bearerToken())
        .timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    for (String line : r.body().split("\n")) {
      if (!line.isBlank()) {
        out.add(DeltaFixtures.JSON.readTree(line));
      }
    }
    return out;
  }

  /** The log path a served URL points at (the kit's URLs carry it before the query string). */
  private static String pathOf(JsonNode file, Iterable<String> candidates) {
    String url = file.path("url").asText();
    for (String p : candidates) {
      if (url.contains("/" + p + "?")) {
        return p;
      }
    }
    throw new AssertionError("no log path in " + url);
  }

  @Test
  void everySnapshotListsExactlyTheLiveFilesOfTheLog() throws Exception {
    for (long v = 0; v <= table.latestVersion(); v++) {
      Map<String, JsonNode> live = table.files(v);
      List<JsonNode> answer = lines(HttpRequest.newBuilder(URI.create(server.endpoint() + BASE + "/query"))
          .POST(HttpRequest.BodyPublishers.ofString("{\"version\": " + v + "}")));
      assertThat(answer.get(0).has("protocol")).isTrue();
      assertThat(answer.get(1).has("metaData")).isTrue();
      Map<String, JsonNode> served = new TreeMap<>();
      for (JsonNode n : answer) {
        if (n.has("file")) {
          served.put(pathOf(n.get("file"), live.keySet()), n.get("file"));
        }
      }
      assertThat(served.keySet()).as("version %d", v).containsExactlyInAnyOrderElementsOf(live.keySet());
      for (Map.Entry<String, JsonNode> e : served.entrySet()) {
        JsonNode add = live.get(e.getKey());
        assertThat(e.getValue().path("partitionValues")).isEqualTo(add.path("partitionValues"));
        assertThat(e.getValue().path("size").asLong()).isEqualTo(add.path("size").asLong());
        assertThat(e.getValue().path("stats").asText()).isEqualTo(add.path("stats").asText());
      }
    }
  }

  @Test
  void theChangesOfEveryVersionAreItsChangeDataFilesElseItsDataChangingFileActions() throws Exception {
    List<JsonNode> answer = lines(HttpRequest.newBuilder(URI.create(server.endpoint() + BASE
        + "/changes?startingVersion=0&endingVersion=" + table.latestVersion())).GET());
    Map<Long, List<String>> served = new TreeMap<>();
    for (JsonNode n : answer) {
      for (String kind : List.of("add", "remove", "cdf")) {
        if (n.has(kind)) {
          served.computeIfAbsent(n.get(kind).path("version").asLong(), x -> new ArrayList<>()).add(kind);
        }
      }
    }
    Map<Long, List<String>> expected = new TreeMap<>();
    for (long v = 0; v <= table.latestVersion(); v++) {
      List<JsonNode> cdc = table.actions(v, "cdc");
      List<String> kinds = new ArrayList<>();
      if (!cdc.isEmpty()) {
        cdc.forEach(x -> kinds.add("cdf"));
      } else {
        table.actions(v, "add").stream().filter(a -> a.path("dataChange").asBoolean()).forEach(x -> kinds.add("add"));
        table.actions(v, "remove").stream().filter(a -> a.path("dataChange").asBoolean())
            .forEach(x -> kinds.add("remove"));
      }
      if (!kinds.isEmpty()) {
        expected.put(v, kinds);
      }
    }
    assertThat(served.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach((v, kinds) -> assertThat(served.get(v)).as("version %d", v)
        .containsExactlyInAnyOrderElementsOf(kinds));
    // Delta 3.2 wrote change data files for UPDATE, DELETE and MERGE of this table (no deletion vectors)
    assertThat(expected.get(table.version("UPDATE"))).containsOnly("cdf");
    assertThat(expected.get(table.version("DELETE"))).containsOnly("cdf");
    assertThat(expected.get(table.version("MERGE"))).containsOnly("cdf");
  }
}
