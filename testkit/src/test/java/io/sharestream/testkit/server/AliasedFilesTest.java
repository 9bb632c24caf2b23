package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.ParquetRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A version of many logical files backed by one physical file ({@link DeltaTableWriter#appendAliases}). */
class AliasedFilesTest {
  private static final int FILES = 1_000;

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Http http;
  long version;

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.EVENTS).commit();
    version = table.appendAliases(Fixtures.events(0, 3), FILES);
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void oneVersionOfDistinctFilesOnOnePhysicalFile() throws Exception {
    assertThat(version).isEqualTo(1);
    try (Stream<Path> s = Files.walk(table.dir())) {
      assertThat(s.filter(f -> f.toString().endsWith(".parquet")).count()).isEqualTo(1);
    }
    assertThat(table.snapshot().files()).hasSize(FILES);
    assertThat(table.readAll()).hasSize(3 * FILES);
  }

  @Test
  void snapshotListsEveryAliasWithItsOwnIdStatsAndSize() {
    List<JsonNode> files = http.query("s.sc.t", "{\"version\": 1}").lines("file");
    assertThat(files).hasSize(FILES);
    assertDistinctAndReadable(files);
  }

  @Test
  void historyListsEveryAliasAsAnAddOfItsVersion() {
    List<JsonNode> adds = http.query("s.sc.t", "{\"startingVersion\": 1}").lines("add");
    assertThat(adds).hasSize(FILES);
    assertThat(adds).allSatisfy(a -> assertThat(a.path("version").asLong()).isEqualTo(1));
    assertDistinctAndReadable(adds);
  }

  @Test
  void deltaFormatListsEveryAlias() {
    List<JsonNode> files = http.query("s.sc.t", "{\"version\": 1}", "delta-sharing-capabilities",
        "responseformat=delta").lines("file");
    assertThat(files).hasSize(FILES);
    Set<String> ids = files.stream().map(f -> f.path("id").asText()).collect(Collectors.toSet());
    assertThat(ids).hasSize(FILES);
  }

  /** Ids and URLs all distinct, stats of 3 records each; a few of the files download as the Parquet of the rows. */
  private void assertDistinctAndReadable(List<JsonNode> files) {
    Set<String> ids = new HashSet<>();
    Set<String> urls = new HashSet<>();
    long size = files.get(0).path("size").asLong();
    for (JsonNode f : files) {
      ids.add(f.path("id").asText());
      urls.add(f.path("url").asText());
      assertThat(f.path("size").asLong()).isEqualTo(size);
      assertThat(f.path("stats").asText()).contains("\"numRecords\":3");
    }
    assertThat(ids).hasSize(FILES);
    assertThat(urls).hasSize(FILES);
    for (JsonNode f : List.of(files.get(0), files.get(FILES / 2), files.get(FILES - 1))) {
      byte[] bytes = Http.downloadBytes(f.path("url").asText(), null);
      assertThat(bytes).hasSize((int) size);
      try {
        Path copy = Files.write(Files.createTempFile(tmp, "alias", ".parquet"), bytes);
        List<Map<String, Object>> rows = ParquetRows.read(copy, Fixtures.EVENTS);
        assertThat(rows).extracting(r -> r.get("id")).containsExactly(0L, 1L, 2L);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  @Test
  void aliasesCannotReachOutsideTheTable() {
    String url = http.query("s.sc.t", "{\"version\": 1}").lines("file").get(0).path("url").asText();
    // a forged alias path keeps the signature check: 403, never a file outside the table
    String forged = url.replaceFirst("/_alias-\\d+/", "/_alias-1/../../");
    assertThat(Http.download(forged, null).status).isEqualTo(403);
  }
}
