package io.sharestream.testkit.server;

import static io.sharestream.testkit.server.QueryEndpointTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Databricks' asynchronous queries: pending submissions, polls of {@code .../queries/{queryId}}, their answers. */
class AsyncQueryTest {
  static final String CAPS = "delta-sharing-capabilities";
  static final String ASYNC = "asyncquery=true";

  @TempDir Path tmp;
  DeltaTableWriter table;
  DeltaSharingServer server;
  Http http;

  @BeforeEach
  void start() {
    table = Fixtures.fiveVersions(tmp.resolve("events"), false); // the latest snapshot: 1 file
    DeltaTableWriter other = DeltaTableWriter.create(tmp.resolve("other"), Fixtures.EVENTS).commit();
    other.append(Fixtures.events(0, 2));
    server = DeltaSharingServer.builder()
        .table("s", "sc", "events", table.dir(), true)
        .table("s", "sc", "other", other.dir(), true)
        .async("s.sc.events", AsyncMode.ALWAYS)
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Http.Response submit(String body) {
    return http.query("s.sc.events", body, CAPS, ASYNC);
  }

  private Http.Response poll(String id, String body) {
    return http.poll("s.sc.events", id, body, CAPS, ASYNC);
  }

  /** Asserts {@code r} is a status answer of {@code status} and returns its queryId. */
  static String assertStatus(Http.Response r, String status, boolean echo) {
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.header("Content-Type")).isEqualTo("application/x-ndjson; charset=utf-8");
    assertThat(r.header("Delta-Table-Version")).isNull();
    assertThat(r.header(CAPS)).isEqualTo(echo ? ASYNC : "responseformat=parquet");
    List<JsonNode> lines = r.lines();
    assertThat(lines).hasSize(1);
    JsonNode s = lines.get(0).get("queryStatus");
    assertThat(s.path("status").asText()).isEqualTo(status);
    assertThat(s.path("queryId").asText()).isNotEmpty();
    return s.path("queryId").asText();
  }

  /** The lines without what differs between two answers of the same query (signed URLs and their expiry). */
  static List<String> stable(Http.Response r) {
    return r.lines().stream().map(l -> {
      ObjectNode copy = l.deepCopy();
      copy.elements().forEachRemaining(body -> ((ObjectNode) body).remove(
          List.of("url", "expirationTimestamp", "minUrlExpirationTimestamp")));
      return copy.toString();
    }).collect(Collectors.toList());
  }

  @Test
  void submissionIsPendingThenPollsAnswerWhatTheSynchronousQueryAnswers() {
    table.append(Fixtures.events(100, 103), 1); // v5: 3 more files
    Http.Response pending = submit("{\"idempotencyKey\":\"k1\",\"predicateHints\":[\"id > 0\"]}");
    String id = assertStatus(pending, "pending", true);
    assertThat(id).doesNotContain("events").doesNotContain("sc").matches("[0-9a-f]{32}");
    assertThat(pending.header("Retry-After")).isNull();
    assertThat(assertStatus(poll(id, "{}"), "pending", true)).isEqualTo(id);
    assertThat(assertStatus(poll(id, "{\"queryId\":\"" + id + "\"}"), "pending", true)).isEqualTo(id);

    Http.Response done = poll(id, "{}");
    Http.Response sync = http.query("s.sc.events", "{\"predicateHints\":[\"id > 0\"]}");
    assertThat(done.status).isEqualTo(200);
    assertThat(done.header("Delta-Table-Version")).isEqualTo("5");
    assertThat(done.header(CAPS)).isEqualTo("responseformat=parquet;asyncquery=true");
    assertThat(done.lines("queryStatus")).isEmpty();
    assertThat(done.lines("file")).hasSize(4);
    assertThat(stable(done)).isEqualTo(stable(sync));
    assertThat(sync.header(CAPS)).isEqualTo("responseformat=parquet");
    assertThat(server.requests().count(Endpoint.QUERY_STATUS)).isEqualTo(3);
  }

  @Test
  void theAnswerIsTheLatestVersionAsOfSubmission() {
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\"}"), "pending", true);
    table.append(Fixtures.events(100, 103), 1); // v5, submitted after
    poll(id, "{}");
    poll(id, "{}");
    Http.Response done = poll(id, "{}");
    assertThat(done.header("Delta-Table-Version")).isEqualTo("4");
    assertThat(done.lines("file")).hasSize(1);
  }

  @Test
  void aRetriedSubmissionWithTheSameKeyAndParametersGetsTheSameQueryId() {
    server.async("s.sc.other", AsyncMode.ALWAYS);
    String first = assertStatus(submit("{\"idempotencyKey\":\"k1\",\"limitHint\":5}"), "pending", true);
    String retried = assertStatus(submit("{\"limitHint\":5,\"idempotency_key\":\"k1\"}"), "pending", true);
    String otherKey = assertStatus(submit("{\"idempotencyKey\":\"k2\",\"limitHint\":5}"), "pending", true);
    String otherParams = assertStatus(submit("{\"idempotencyKey\":\"k1\",\"limitHint\":6}"), "pending", true);
    String otherTable = assertStatus(http.query("s.sc.other", "{\"idempotencyKey\":\"k1\",\"limitHint\":5}", CAPS,
        ASYNC), "pending", true);
    assertThat(retried).isEqualTo(first);
    assertThat(List.of(otherKey, otherParams, otherTable)).doesNotContain(first).doesNotHaveDuplicates();
    List<RequestLog.Entry> log = server.requests().entries(Endpoint.QUERY);
    assertThat(log).extracting(e -> e.idempotencyKey).containsExactly("k1", "k1", "k2", "k1", "k1");
    assertThat(log.get(1).queryId).isEqualTo(log.get(0).queryId).isEqualTo(first);
  }

  @Test
  void aSubmissionWithoutIdempotencyKeyIs400() {
    assertError(submit("{}"), "INVALID_PARAMETER_VALUE", "idempotencyKey is required for async query.");
    assertThat(submit("{}").message()).isEqualTo("idempotencyKey is required for async query.");
    // a client not announcing asyncquery is answered synchronously, without a key
    assertThat(http.query("s.sc.events", "{}").lines("file")).hasSize(1);
    // parameters are checked at submission
    assertError(submit("{\"idempotencyKey\":\"k\",\"version\":1,\"timestamp\":\"x\"}"), "INVALID_PARAMETER_VALUE",
        "one of");
  }

  @Test
  void aBodySettingTheIdempotencyKeyUnderBothNamesIs400AsAProtoJsonParserRefusesIt() {
    assertError(submit("{\"idempotencyKey\":\"k\",\"idempotency_key\":\"k\"}"), "INVALID_PARAMETER_VALUE",
        "set twice");
    assertThat(assertStatus(submit("{\"idempotency_key\":\"k\"}"), "pending", true)).isNotBlank();
  }

  @Test
  void unknownQueryIdsAndQueriesOfAnotherTableAre404() {
    Http.Response unknown = poll("6d3a1f1e9b2c4c8a8e1f2f5b7a9c0d11", "{}");
    assertThat(unknown.status).isEqualTo(404);
    assertThat(unknown.errorCode()).isEqualTo("RESOURCE_DOES_NOT_EXIST");
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\"}"), "pending", true);
    Http.Response elsewhere = http.poll("s.sc.other", id, "{}", CAPS, ASYNC);
    assertThat(elsewhere.status).isEqualTo(404);
    assertThat(elsewhere.errorCode()).isEqualTo("RESOURCE_DOES_NOT_EXIST");
    assertThat(poll(id, "{}").status).isEqualTo(200);
    assertThat(http.get(Http.tablePath("s.sc.events") + "/queries/" + id).status).isEqualTo(405);
  }

  @Test
  void pagesOfTheAnswerComeFromThePollEndpointAndStayOnTheSubmittedVersion() {
    table.append(Fixtures.events(100, 110), 1); // v5: 11 files in all
    server.async("s.sc.events", AsyncMode.ALWAYS.pendingPolls(0));
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\",\"maxFiles\":4}"), "pending", true);
    List<String> ids = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Http.Response r = poll(id, token == null ? "{\"maxFiles\":4}" : "{\"maxFiles\":4,\"pageToken\":\"" + token + "\"}");
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      assertThat(r.header("Delta-Table-Version")).isEqualTo("5");
      assertThat(r.lines().get(0).has("protocol")).isTrue();
      assertThat(r.lines().get(1).has("metaData")).isTrue();
      assertThat(r.lines("file").size()).isLessThanOrEqualTo(4);
      r.lines("file").forEach(f -> ids.add(f.path("id").asText()));
      token = r.lines("endStreamAction").get(0).path("nextPageToken").asText(null);
      if (pages++ == 0) {
        table.append(Fixtures.events(200, 201)); // v6: later pages stay on v5
      }
    } while (token != null);
    assertThat(pages).isEqualTo(3);
    assertThat(ids).hasSize(11).doesNotHaveDuplicates();
    // the poll's maxFiles wins; without one, the submission's applies
    assertThat(poll(id, "{\"maxFiles\":10}").lines("file")).hasSize(10);
    assertThat(poll(id, "{}").lines("file")).hasSize(4);
  }

  @Test
  void slowerThanIsPendingUntilItsDurationHasPassedSinceSubmission() {
    Duration d = Duration.ofMillis(800);
    server.async("s.sc.events", AsyncMode.slowerThan(d));
    long submitted = System.nanoTime();
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\"}"), "pending", true);
    for (int i = 0; i < 3; i++) { // however many polls: still computing
      assertStatus(poll(id, "{}"), "pending", true);
    }
    assertThat(System.nanoTime() - submitted).isLessThan(d.toNanos());
    sleep(d.toMillis() - (System.nanoTime() - submitted) / 1_000_000 + 50);
    Http.Response done = poll(id, "{}");
    assertThat(done.lines("file")).hasSize(1);

    long start = System.nanoTime();
    Http.Response sync = http.query("s.sc.events", "{}");
    assertThat(System.nanoTime() - start).as("a synchronous answer takes the query's time")
        .isGreaterThanOrEqualTo(d.toNanos());
    assertThat(sync.lines("file")).hasSize(1);
  }

  @Test
  void overFilesAnswersAsynchronouslyOnlyAboveTheThreshold() {
    server.async("s.sc.events", AsyncMode.overFiles(3));
    // the latest snapshot has 1 file, version 2's 3: synchronous
    Http.Response latest = submit("{\"idempotencyKey\":\"a\"}");
    assertThat(latest.header("Delta-Table-Version")).isEqualTo("4");
    assertThat(latest.lines("file")).hasSize(1);
    assertThat(submit("{\"idempotencyKey\":\"b\",\"version\":2}").lines("file")).hasSize(3);
    // versions 1 to 4 hold 5 data changes: asynchronous
    assertStatus(submit("{\"idempotencyKey\":\"c\",\"startingVersion\":1}"), "pending", true);
    table.append(Fixtures.events(100, 103), 1); // the latest snapshot: 4 files
    assertStatus(submit("{\"idempotencyKey\":\"d\"}"), "pending", true);
  }

  @Test
  void aFailedQueryAnswersAFailedStatusLine() {
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\"}"), "pending", true);
    server.faults().queryFails(1, "Query failed: out of memory");
    Http.Response failed = poll(id, "{}");
    assertThat(assertStatus(failed, "failed", true)).isEqualTo(id);
    assertThat(failed.lines("queryStatus").get(0).path("errorMessage").asText())
        .isEqualTo("Query failed: out of memory");
    assertStatus(poll(id, "{}"), "pending", true);
    assertThat(server.faults().pending()).isZero();
  }

  @Test
  void faultsOnPollsAnswerAsOnOtherEndpoints() {
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\"}"), "pending", true);
    server.faults().failWith(Endpoint.QUERY_STATUS, 1, 503).rateLimit(Endpoint.QUERY_STATUS, 1, 3);
    Http.Response unavailable = poll(id, "{}");
    assertThat(unavailable.status).isEqualTo(503);
    assertThat(unavailable.errorCode()).isEqualTo("INTERNAL_ERROR");
    assertThat(unavailable.header(CAPS)).isNull();
    Http.Response limited = poll(id, "{}");
    assertThat(limited.status).isEqualTo(429);
    assertThat(limited.header("Retry-After")).isEqualTo("3");
    assertStatus(poll(id, "{}"), "pending", true);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).extracting(e -> e.status)
        .containsExactly(503, 429, 200);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).extracting(e -> e.queryId).containsOnly(id);

    server.async("s.sc.events", AsyncMode.ALWAYS.pendingPolls(0));
    String done = assertStatus(submit("{\"idempotencyKey\":\"k2\"}"), "pending", true);
    server.faults().endStreamError(Endpoint.QUERY_STATUS, 1, "boom").truncate(Endpoint.QUERY_STATUS, 1, 2);
    Http.Response ended = http.poll("s.sc.events", done, "{}", CAPS, ASYNC + ";includeendstreamaction=true");
    assertThat(ended.lines("endStreamAction").get(0).path("errorMessage").asText()).isEqualTo("boom");
    assertThat(ended.header(CAPS)).isEqualTo("responseformat=parquet;includeendstreamaction=true;asyncquery=true");
    assertThatThrownBy(() -> poll(done, "{}")).as("cut after the metaData line").isInstanceOf(UncheckedIOException.class);
    assertThat(poll(done, "{}").lines("file")).hasSize(1);
  }

  @Test
  void pollsAnswerInTheFormatThePollAsksFor() {
    server.async("s.sc.events", AsyncMode.ALWAYS.pendingPolls(0));
    String id = assertStatus(submit("{\"idempotencyKey\":\"k\"}"), "pending", true);
    Http.Response delta = http.poll("s.sc.events", id, "{}", CAPS, "responseformat=delta;" + ASYNC);
    assertThat(delta.header(CAPS)).isEqualTo("responseformat=delta;asyncquery=true");
    assertThat(delta.lines("file").get(0).has("deltaSingleAction")).isTrue();
  }

  @Test
  void pendingAnswersCarryRetryAfterWhenTheModeSaysSo() {
    server.async("s.sc.events", AsyncMode.ALWAYS.retryAfterSeconds(2));
    Http.Response pending = submit("{\"idempotencyKey\":\"k\"}");
    assertThat(pending.header("Retry-After")).isEqualTo("2");
    assertThat(poll(assertStatus(pending, "pending", true), "{}").header("Retry-After")).isEqualTo("2");
  }

  @Test
  void withoutAdvertisingAsyncNoAnswerEchoesIt() {
    try (DeltaSharingServer stub = DeltaSharingServer.builder().asyncAdvertised(false)
        .table("s", "sc", "events", table.dir(), true).async("s.sc.events", AsyncMode.ALWAYS.pendingPolls(1))
        .start()) {
      Http h = new Http(stub);
      Http.Response pending = h.query("s.sc.events", "{\"idempotency_key\":\"k\"}", CAPS, ASYNC);
      String id = assertStatus(pending, "pending", false);
      assertStatus(h.poll("s.sc.events", id, "{}", CAPS, ASYNC), "pending", false);
      Http.Response done = h.poll("s.sc.events", id, "{}", CAPS, ASYNC);
      assertThat(done.header(CAPS)).isEqualTo("responseformat=parquet");
      assertThat(done.lines("file")).hasSize(1);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(Math.max(0, millis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
