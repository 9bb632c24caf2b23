package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangesEndpointTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter cdf;
  DeltaTableWriter plain;
  Http http;

  @BeforeEach
  void start() {
    cdf = DeltaTableWriter.create(tmp.resolve("cdf"), Fixtures.EVENTS).changeDataFeed(true).commit(); // 0
    cdf.append(Fixtures.events(0, 6), 3); // 1: two adds
    cdf.updateWhere(r -> r.get("id").equals(1L), r -> {
      r.put("user", "changed");
      return r;
    }); // 2: remove + add + cdc
    cdf.deleteWhere(r -> r.get("id").equals(4L)); // 3: remove + add + cdc
    cdf.addColumn(DeltaType.field("score", DeltaType.DOUBLE)); // 4: metadata only
    cdf.overwrite(Fixtures.events(10, 12)); // 5: removes + add, no cdc

    plain = DeltaTableWriter.create(tmp.resolve("plain"), Fixtures.EVENTS).commit(); // 0
    plain.append(Fixtures.events(0, 2)); // 1
    plain.setProperty("delta.enableChangeDataFeed", "true"); // 2
    plain.append(Fixtures.events(2, 4)); // 3
    server = DeltaSharingServer.builder()
        .table("s", "sc", "cdf", cdf.dir(), true)
        .table("s", "sc", "plain", plain.dir(), true)
        .table("s", "sc", "nohistory", cdf.dir(), false)
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Http.Response changes(String table, String query) {
    return http.get(Http.tablePath("s.sc." + table) + "/changes?" + query);
  }

  @Test
  void versionsWithChangeDataFilesAnswerOnlyCdfLinesOthersAddAndRemove() {
    Http.Response r = changes("cdf", "startingVersion=1&endingVersion=5");
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("1");
    List<String> kinds = r.lines().stream().skip(2).map(l -> {
      String k = l.fieldNames().next();
      return k + "@" + l.get(k).path("version").asLong();
    }).collect(Collectors.toList());
    // v2 and v3 each rewrote one of v1's two files, so the overwrite at v5 removes two files
    assertThat(kinds).containsExactly("add@1", "add@1", "cdf@2", "cdf@3", "remove@5", "remove@5", "add@5");
    JsonNode cdfLine = r.lines("cdf").get(0);
    assertThat(cdfLine.path("url").asText()).contains("_change_data");
    assertThat(cdfLine.path("timestamp").asLong()).isEqualTo(cdf.log().timestamp(2));
    assertThat(cdfLine.path("expirationTimestamp").asLong()).isGreaterThan(System.currentTimeMillis());
    assertThat(cdfLine.has("stats")).isFalse();
  }

  @Test
  void historicalMetadataLinesAppearForVersionsThatChangedIt() {
    Http.Response with = changes("cdf", "startingVersion=1&includeHistoricalMetadata=true");
    List<JsonNode> metas = with.lines("metaData");
    assertThat(metas).hasSize(2);
    assertThat(metas.get(0).path("schemaString").asText()).doesNotContain("score"); // at start
    assertThat(metas.get(1).path("version").asLong()).isEqualTo(4);
    assertThat(metas.get(1).path("schemaString").asText()).contains("score");

    Http.Response without = changes("cdf", "startingVersion=1");
    assertThat(without.lines("metaData")).hasSize(1);
    assertThat(without.lines("metaData").get(0).path("schemaString").asText()).contains("score"); // latest
  }

  @Test
  void timestampsSelectTheVersionRange() {
    Http.Response r = changes("cdf", "startingTimestamp=" + Instant.ofEpochMilli(cdf.log().timestamp(2))
        + "&endingTimestamp=" + Instant.ofEpochMilli(cdf.log().timestamp(3) + 0));
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("2");
    assertThat(r.lines("cdf")).extracting(l -> l.path("version").asLong()).containsExactly(2L, 3L);
  }

  @Test
  void changeDataNotRecordedForAVersionIs400NamingIt() {
    Http.Response r = changes("plain", "startingVersion=1&endingVersion=3");
    assertThat(r.status).isEqualTo(400);
    assertThat(r.message()).isEqualTo(
        "Error getting change data for range [1, 3] as change data was not recorded for version [1]");
    Http.Response fromEnabled = changes("plain", "startingVersion=2");
    assertThat(fromEnabled.status).isEqualTo(200);
    assertThat(fromEnabled.lines("add")).extracting(l -> l.path("version").asLong()).containsExactly(3L);
  }

  @Test
  void invalidChangeRequestsAre400() {
    assertBad(changes("cdf", ""), "No startingVersion or startingTimestamp");
    assertBad(changes("cdf", "startingVersion=1&startingTimestamp=2024-01-01T00:00:00Z"), "Multiple starting");
    assertBad(changes("cdf", "startingVersion=9"), "cannot be greater than the latest version of the table(5)");
    assertBad(changes("cdf", "startingVersion=3&endingVersion=2"), "start 3 to end 2");
    assertBad(changes("nohistory", "startingVersion=1"), "cdf is not enabled on table s.sc.nohistory");
    assertThat(changes("unknown", "startingVersion=1").status).isEqualTo(404);
  }

  private static void assertBad(Http.Response r, String message) {
    assertThat(r.status).as(r.raw.body()).isEqualTo(400);
    assertThat(r.errorCode()).isEqualTo("INVALID_PARAMETER_VALUE");
    assertThat(r.message()).contains(message);
  }

  @Test
  void changesPageWithMaxFiles() {
    List<String> all = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Http.Response r = changes("cdf", "startingVersion=1&maxFiles=3" + (token == null ? "" : "&pageToken=" + token));
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      assertThat(r.lines().get(0).has("protocol")).isTrue();
      r.lines().stream().skip(2).filter(l -> !l.has("endStreamAction") && !l.has("metaData"))
          .forEach(l -> all.add(l.fieldNames().next() + ":" + l.elements().next().path("id").asText()));
      token = r.lines("endStreamAction").get(0).path("nextPageToken").asText(null);
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(3);
    assertThat(all).hasSize(7).doesNotHaveDuplicates();
  }
}
