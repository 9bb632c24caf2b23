package io.sharestream.testkit.server;

import static io.sharestream.testkit.delta.DeltaType.field;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jsonPredicateHints} prune snapshot files on partition values and stats, best effort, never an error. */
class PredicateHintsTest {
  static final DeltaType.StructType SCHEMA = DeltaType.struct(
      field("id", DeltaType.LONG), field("name", DeltaType.STRING), field("day", DeltaType.DATE),
      field("region", DeltaType.STRING));

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Http http;

  @BeforeEach
  void start() {
    // partitioned by region (with an escaped value and a null); ids 0..9 in "eu", 10..19 in "us/east", 20..21 null
    table = DeltaTableWriter.create(tmp.resolve("t"), SCHEMA).partitionedBy("region").commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 22; i++) {
      String region = i < 10 ? "eu" : i < 20 ? "us/east" : null;
      rows.add(Fixtures.row("id", i, "name", "n" + i, "day", LocalDate.of(2024, 1, 1).plusDays(i), "region", region));
    }
    table.append(rows, 5); // eu: ids 0-4, 5-9; us/east: 10-14, 15-19; null: 20-21
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Set<Long> minIds(String hint, String extra) {
    String body = "{\"jsonPredicateHints\":" + Http.JSON.getNodeFactory().textNode(hint) + extra + "}";
    Http.Response r = http.query("s.sc.t", body);
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    Set<Long> out = new TreeSet<>();
    for (JsonNode f : r.lines("file")) {
      try {
        out.add(Http.JSON.readTree(f.path("stats").asText()).path("minValues").path("id").asLong());
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
    return out;
  }

  private static String cmp(String op, String column, String type, String value) {
    return "{\"op\":\"" + op + "\",\"children\":[{\"op\":\"column\",\"name\":\"" + column + "\",\"valueType\":\""
        + type + "\"},{\"op\":\"literal\",\"value\":\"" + value + "\",\"valueType\":\"" + type + "\"}]}";
  }

  private static String op(String op, String... children) {
    return "{\"op\":\"" + op + "\",\"children\":[" + String.join(",", children) + "]}";
  }

  @Test
  void partitionValuesSelectFilesExactlyIncludingEscapedAndNullValues() {
    assertThat(minIds(cmp("equal", "region", "string", "eu"), "")).containsExactly(0L, 5L);
    assertThat(minIds(cmp("equal", "region", "string", "us/east"), "")).containsExactly(10L, 15L);
    assertThat(minIds(op("isNull", "{\"op\":\"column\",\"name\":\"region\",\"valueType\":\"string\"}"), ""))
        .containsExactly(20L);
    // SQL semantics: NOT (region = 'eu') leaves out the null partition too
    assertThat(minIds(op("not", cmp("equal", "region", "string", "eu")), "")).containsExactly(10L, 15L);
  }

  @Test
  void statsPruneDataColumnsByMinAndMax() {
    assertThat(minIds(cmp("greaterThan", "id", "long", "14"), "")).containsExactly(15L, 20L);
    assertThat(minIds(cmp("lessThanOrEqual", "id", "int", "5"), "")).containsExactly(0L, 5L);
    assertThat(minIds(cmp("equal", "day", "date", "2024-01-08"), "")).containsExactly(5L);
    assertThat(minIds(op("or", cmp("equal", "id", "long", "3"), cmp("equal", "id", "long", "21")), ""))
        .containsExactly(0L, 20L);
    assertThat(minIds(op("and", cmp("equal", "region", "string", "eu"), cmp("greaterThanOrEqual", "id", "long", "7")),
        "")).containsExactly(5L);
  }

  @Test
  void hintsApplyWithVersionsAndPagingButNotToChanges() {
    table.append(List.of(Fixtures.row("id", 100L, "region", "eu"))); // version 2
    assertThat(minIds(cmp("equal", "region", "string", "eu"), ",\"version\":1")).containsExactly(0L, 5L);
    String hint = Http.JSON.getNodeFactory().textNode(cmp("equal", "region", "string", "eu")).toString();
    Http.Response page1 = http.query("s.sc.t", "{\"jsonPredicateHints\":" + hint + ",\"maxFiles\":2}");
    assertThat(page1.lines("file")).hasSize(2);
    String token = page1.lines("endStreamAction").get(0).path("nextPageToken").asText();
    Http.Response page2 = http.query("s.sc.t", "{\"jsonPredicateHints\":" + hint + ",\"maxFiles\":2,\"pageToken\":\""
        + token + "\"}");
    assertThat(page2.lines("file")).hasSize(1);
    assertThat(page2.lines("endStreamAction").get(0).has("nextPageToken")).isFalse();
    Http.Response since = http.query("s.sc.t", "{\"jsonPredicateHints\":" + hint + ",\"startingVersion\":1}");
    assertThat(since.lines("add")).hasSize(6); // ignored: every added file of versions 1 and 2
  }

  @Test
  void unusableHintsReturnEveryFile() {
    Set<Long> all = Set.of(0L, 5L, 10L, 15L, 20L);
    assertThat(minIds("not json", "")).containsExactlyInAnyOrderElementsOf(all);
    assertThat(minIds(cmp("equal", "nope", "string", "x"), "")).containsExactlyInAnyOrderElementsOf(all);
    assertThat(minIds(cmp("equal", "id", "date", "2024-01-01"), "")).containsExactlyInAnyOrderElementsOf(all);
    assertThat(minIds(cmp("equal", "id", "long", "abc"), "")).containsExactlyInAnyOrderElementsOf(all);
    assertThat(minIds("{\"op\":\"like\",\"children\":[]}", "")).containsExactlyInAnyOrderElementsOf(all);
    Http.Response legacy = http.query("s.sc.t", "{\"predicateHints\":[\"region = 'eu'\"]}");
    assertThat(legacy.lines("file")).hasSize(5);
  }

  @Test
  void limitHintStopsOnceTheFilesHoldEnoughRows() {
    Http.Response r = http.query("s.sc.t", "{\"limitHint\":6}");
    assertThat(r.lines("file")).hasSize(2); // 5 rows, then 10 >= 6
    Http.Response filtered = http.query("s.sc.t", "{\"limitHint\":1,\"jsonPredicateHints\":"
        + Http.JSON.getNodeFactory().textNode(cmp("equal", "region", "string", "us/east")) + "}");
    assertThat(filtered.lines("file")).hasSize(1);
  }
}
