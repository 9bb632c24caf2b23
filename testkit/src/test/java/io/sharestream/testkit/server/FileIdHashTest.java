package io.sharestream.testkit.server;

import static io.sharestream.testkit.server.QueryEndpointTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code fileidhash} header: the file-id scheme of query, changes and poll answers, echoed. */
class FileIdHashTest {
  static final String CAPS = "delta-sharing-capabilities";
  static final String DELTA = "responseformat=delta";
  static final String PARQUET = "responseformat=parquet";

  @TempDir Path tmp;
  DeltaTableWriter table;
  DeltaSharingServer server;
  Http http;

  @BeforeEach
  void start() {
    table = Fixtures.fiveVersions(tmp.resolve("events"), true);
    table.append(Fixtures.events(100, 104), 1); // v5: 4 more files
    server = DeltaSharingServer.builder().table("s", "sc", "events", table.dir(), true).start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** The ids of every file line (file, add, remove, cdf) of an answer, in order. */
  static List<String> ids(Http.Response r) {
    return r.lines().stream().filter(l -> l.has("file") || l.has("add") || l.has("remove") || l.has("cdf"))
        .map(l -> l.elements().next().path("id").asText()).collect(Collectors.toList());
  }

  private Set<String> latestPaths() {
    return table.snapshot().files().stream().map(f -> f.path).collect(Collectors.toSet());
  }

  @Test
  void parquetSchemeGivesMd5IdsInBothFormatsAndIsEchoedLowerCased() {
    Set<String> md5 = latestPaths().stream().map(FileUrls::fileId).collect(Collectors.toSet());
    for (String format : List.of(PARQUET, DELTA)) {
      Http.Response r = http.query("s.sc.events", "{}", CAPS, format, "fileidhash", "PARQUET");
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      assertThat(r.header(CAPS)).startsWith(format);
      assertThat(r.header("fileidhash")).isEqualTo("parquet");
      assertThat(ids(r)).hasSize(5).containsExactlyInAnyOrderElementsOf(md5);
    }
  }

  @Test
  void deltaSchemeGivesSha256IdsInBothFormatsAndIsEchoed() {
    Set<String> sha256 = latestPaths().stream().map(FileUrls::sha256).collect(Collectors.toSet());
    for (String format : List.of(PARQUET, DELTA)) {
      Http.Response r = http.query("s.sc.events", "{\"version\":5}", CAPS, format, "fileidhash", "Delta");
      assertThat(r.status).as(r.raw.body()).isEqualTo(200);
      assertThat(r.header("fileidhash")).isEqualTo("delta");
      assertThat(ids(r)).hasSize(5).containsExactlyInAnyOrderElementsOf(sha256);
    }
  }

  @Test
  void changesAndStartingVersionAnswersFollowTheSchemeWhateverTheFormat() {
    String changes = Http.tablePath("s.sc.events") + "/changes?startingVersion=1";
    List<String> deltaIds = ids(http.get(changes, CAPS, DELTA));
    List<String> parquetIds = ids(http.get(changes, CAPS, PARQUET));
    assertThat(deltaIds).hasSize(parquetIds.size()).isNotEqualTo(parquetIds);
    Http.Response asDelta = http.get(changes, CAPS, PARQUET, "fileidhash", "delta");
    assertThat(asDelta.header("fileidhash")).isEqualTo("delta");
    assertThat(asDelta.lines("cdf")).isNotEmpty();
    assertThat(ids(asDelta)).isEqualTo(deltaIds);
    assertThat(ids(http.get(changes, CAPS, DELTA, "fileidhash", "parquet"))).isEqualTo(parquetIds);

    String since = "{\"startingVersion\":1}";
    assertThat(ids(http.query("s.sc.events", since, CAPS, PARQUET, "fileidhash", "delta")))
        .isEqualTo(ids(http.query("s.sc.events", since, CAPS, DELTA)));
  }

  @Test
  void withoutTheHeaderEachFormatKeepsItsOwnIdsAndNothingIsEchoed() {
    Http.Response parquet = http.query("s.sc.events", "{}", CAPS, PARQUET);
    Http.Response delta = http.query("s.sc.events", "{}", CAPS, DELTA);
    assertThat(parquet.header("fileidhash")).isNull();
    assertThat(delta.header("fileidhash")).isNull();
    assertThat(ids(parquet)).containsExactlyInAnyOrderElementsOf(
        latestPaths().stream().map(FileUrls::fileId).collect(Collectors.toList()));
    assertThat(ids(delta)).containsExactlyInAnyOrderElementsOf(
        latestPaths().stream().map(FileUrls::sha256).collect(Collectors.toList()));
  }

  @Test
  void anotherValueIs400NamingTheHeaderAndItsValues() {
    Http.Response query = http.query("s.sc.events", "{}", "fileidhash", "md5");
    assertError(query, "INVALID_PARAMETER_VALUE", "fileidhash");
    assertThat(query.message()).contains("parquet").contains("delta").contains("md5");
    assertThat(query.header("fileidhash")).isNull();
    assertError(http.get(Http.tablePath("s.sc.events") + "/changes?startingVersion=1", "fileidhash", "sha256"),
        "INVALID_PARAMETER_VALUE", "fileidhash");
    assertError(http.poll("s.sc.events", "0123", "{}", "fileidhash", ""), "INVALID_PARAMETER_VALUE", "fileidhash");
    // metadata has no file lines: the header is not looked at
    assertThat(http.get(Http.tablePath("s.sc.events") + "/metadata", "fileidhash", "md5").status).isEqualTo(200);
  }

  @Test
  void pollAnswersFollowThePollsHeader() {
    server.async("s.sc.events", AsyncMode.ALWAYS.pendingPolls(1));
    Http.Response pending = http.query("s.sc.events", "{\"idempotencyKey\":\"k\"}", CAPS, "asyncquery=true",
        "fileidhash", "delta");
    assertThat(pending.header("fileidhash")).as("the reference client checks the submission's echo")
        .isEqualTo("delta");
    String id = pending.lines("queryStatus").get(0).path("queryId").asText();
    Http.Response stillPending = http.poll("s.sc.events", id, "{}", CAPS, "asyncquery=true", "fileidhash", "delta");
    assertThat(stillPending.lines("queryStatus")).hasSize(1);
    Http.Response done = http.poll("s.sc.events", id, "{}", CAPS, "asyncquery=true", "fileidhash", "delta");
    assertThat(done.header("fileidhash")).isEqualTo("delta");
    assertThat(done.header(CAPS)).startsWith("responseformat=parquet");
    assertThat(ids(done)).hasSize(5).containsExactlyInAnyOrderElementsOf(
        latestPaths().stream().map(FileUrls::sha256).collect(Collectors.toList()));
  }

  @Test
  void aServerNotHonouringTheHeaderIgnoresIt() {
    try (DeltaSharingServer ignoring = DeltaSharingServer.builder().honourFileIdHash(false)
        .table("s", "sc", "events", table.dir(), true).start()) {
      Http h = new Http(ignoring);
      Http.Response r = h.query("s.sc.events", "{}", CAPS, PARQUET, "fileidhash", "delta");
      assertThat(r.status).isEqualTo(200);
      assertThat(r.header("fileidhash")).isNull();
      assertThat(ids(r)).containsExactlyInAnyOrderElementsOf(
          table.snapshot().files().stream().map((AddFile f) -> FileUrls.fileId(f.path)).collect(Collectors.toList()));
      Http.Response bogus = h.get(Http.tablePath("s.sc.events") + "/changes?startingVersion=1", "fileidhash", "md5");
      assertThat(bogus.status).isEqualTo(200);
      assertThat(bogus.header("fileidhash")).isNull();
      JsonNode first = bogus.lines().get(2);
      assertThat(first.elements().next().path("id").asText()).hasSize(32);
    }
  }
}
