package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A table's access modes in the answers (protocol "Access Modes"), and the refusals a dir-only table gives. */
class AccessModesTest {
  private static final String DELTA = "responseformat=delta;readerfeatures=deletionvectors";

  @TempDir Path tmp;
  DeltaSharingServer server;
  Http http;

  @BeforeEach
  void start() {
    Path events = Fixtures.fiveVersions(tmp.resolve("events"), true).dir();
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), Fixtures.EVENTS).deletionVectors(true).commit();
    dv.append(Fixtures.events(0, 4));
    server = DeltaSharingServer.builder()
        .table("s", "sc", "plain", events, true)
        .table("s", "sc", "both", events, true)
        .table("s", "sc", "dironly", events, true)
        .table("s", "sc", "dv", dv.dir(), true)
        .accessModes("s.sc.both", AccessMode.URL, AccessMode.DIR)
        .auxiliaryLocation("s.sc.both", tmp.resolve("aux"))
        .accessModes("s.sc.dironly", AccessMode.DIR)
        .accessModes("s.sc.dv", AccessMode.DIR, AccessMode.URL)
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static JsonNode item(JsonNode items, String name) {
    for (JsonNode i : items) {
      if (i.path("name").asText().equals(name)) {
        return i;
      }
    }
    throw new AssertionError("no item " + name + " in " + items);
  }

  private static List<String> fields(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void tableListsCarryLocationAuxiliaryLocationsAndAccessModesOnceSet() {
    for (String path : new String[] {"/shares/s/schemas/sc/tables", "/shares/s/all-tables"}) {
      JsonNode items = http.get(path).json().path("items");
      assertThat(fields(item(items, "plain"))).containsExactly("name", "schema", "share", "id");
      JsonNode both = item(items, "both");
      assertThat(both.path("location").asText()).isEqualTo("s3://kit/s/sc/both");
      assertThat(both.path("auxiliaryLocations")).extracting(JsonNode::asText).containsExactly("s3://kit/s/sc/both.aux1");
      assertThat(both.path("accessModes")).extracting(JsonNode::asText).containsExactly("url", "dir");
      JsonNode dirOnly = item(items, "dironly");
      assertThat(dirOnly.path("location").asText()).isEqualTo("s3://kit/s/sc/dironly");
      assertThat(dirOnly.has("auxiliaryLocations")).isFalse();
      assertThat(dirOnly.path("accessModes")).extracting(JsonNode::asText).containsExactly("dir");
    }
  }

  @Test
  void metaDataLinesCarryThemInsideMetaDataInParquetFormatAndBesideDeltaMetadataInDeltaFormat() {
    JsonNode parquet = http.get(Http.tablePath("s.sc.both") + "/metadata").lines("metaData").get(0);
    assertThat(parquet.path("id").isTextual()).isTrue();
    assertThat(parquet.path("location").asText()).isEqualTo("s3://kit/s/sc/both");
    assertThat(parquet.path("auxiliaryLocations")).extracting(JsonNode::asText).containsExactly("s3://kit/s/sc/both.aux1");
    assertThat(parquet.path("accessModes")).extracting(JsonNode::asText).containsExactly("url", "dir");
    for (Http.Response r : List.of(http.query("s.sc.both", "{}"), http.query("s.sc.both", "{\"startingVersion\":1}"),
        http.get(Http.tablePath("s.sc.both") + "/changes?startingVersion=1"))) {
      assertThat(r.status).isEqualTo(200);
      assertThat(r.lines("metaData").get(0).path("accessModes")).extracting(JsonNode::asText)
          .containsExactly("url", "dir");
    }
    Http.Response delta = http.get(Http.tablePath("s.sc.dv") + "/metadata", "delta-sharing-capabilities", DELTA);
    JsonNode line = delta.lines("metaData").get(0);
    assertThat(fields(line)).containsExactly("deltaMetadata", "location", "accessModes");
    assertThat(line.path("location").asText()).isEqualTo("s3://kit/s/sc/dv");
    assertThat(line.path("accessModes")).extracting(JsonNode::asText).containsExactly("url", "dir");
    assertThat(line.path("deltaMetadata").has("accessModes")).isFalse();
  }

  /** Until a table's access modes are set, its answers are those of a server that knows nothing of them. */
  @Test
  void aTableWithoutAccessModesAnswersAsBeforeByteForByte() throws Exception {
    Path events = server.tables().get("s.sc.plain").dir();
    try (DeltaSharingServer plainServer = DeltaSharingServer.builder().table("s", "sc", "plain", events, true)
        .start()) {
      Http plain = new Http(plainServer);
      String metadata = Http.tablePath("s.sc.plain") + "/metadata";
      assertThat(http.get(metadata).raw.body()).isEqualTo(plain.get(metadata).raw.body());
      assertThat(http.query("s.sc.plain", "{}").lines("metaData").get(0))
          .isEqualTo(plain.query("s.sc.plain", "{}").lines("metaData").get(0));
      assertThat(fields(http.get(metadata).lines("metaData").get(0))).doesNotContain("location", "accessModes",
          "auxiliaryLocations");
      assertThat(server.tables().get("s.sc.plain").accessModes()).containsExactly(AccessMode.URL);
    }
  }

  @Test
  void aDirOnlyTableRefusesQueryAndChangesButAnswersMetadataAndVersion() {
    String changes = Http.tablePath("s.sc.dironly") + "/changes?startingVersion=1";
    for (Http.Response r : List.of(http.query("s.sc.dironly", "{}"), http.get(changes),
        http.query("s.sc.dironly", "{\"startingVersion\":0}"))) {
      assertThat(r.status).isEqualTo(400);
      assertThat(r.errorCode()).isEqualTo("UNSUPPORTED_OPERATION");
      assertThat(r.message()).contains("s.sc.dironly is shared for directory-based access only (accessModes [\"dir\"])")
          .contains("temporary-table-credentials");
    }
    assertThat(http.get(Http.tablePath("s.sc.dironly") + "/metadata").status).isEqualTo(200);
    assertThat(http.get(Http.tablePath("s.sc.dironly") + "/version").header("Delta-Table-Version")).isEqualTo("4");
    assertThat(DirAccess.vend(http, "s.sc.dironly", "{}").status).isEqualTo(200);
  }

  @Test
  void aTableWithoutDirAccessRefusesTemporaryCredentials() {
    server.tables().accessModes("s.sc.both", AccessMode.URL);
    for (String table : new String[] {"s.sc.plain", "s.sc.both"}) {
      Http.Response r = DirAccess.vend(http, table, "{}");
      assertThat(r.status).isEqualTo(400);
      assertThat(r.errorCode()).isEqualTo("UNSUPPORTED_OPERATION");
      assertThat(r.message()).contains("is not shared for directory-based access (accessModes [\"url\"])");
    }
  }

  @Test
  void aTableMovedFromUrlToDirAccessWhileTheServerRunsIsAnsweredAccordingly() {
    assertThat(http.query("s.sc.plain", "{}").status).isEqualTo(200);
    assertThat(DirAccess.vend(http, "s.sc.plain", "{}").status).isEqualTo(400);

    server.tables().accessModes("s.sc.plain", AccessMode.DIR);
    assertThat(http.query("s.sc.plain", "{}").status).isEqualTo(400);
    assertThat(http.get(Http.tablePath("s.sc.plain") + "/metadata").lines("metaData").get(0).path("accessModes"))
        .extracting(JsonNode::asText).containsExactly("dir");
    assertThat(item(http.get("/shares/s/all-tables").json().path("items"), "plain").path("location").asText())
        .isEqualTo("s3://kit/s/sc/plain");
    assertThat(DirAccess.vend(http, "s.sc.plain", "{}").status).isEqualTo(200);

    server.tables().get("s.sc.plain").accessModes(AccessMode.URL, AccessMode.DIR);
    assertThat(http.query("s.sc.plain", "{}").status).isEqualTo(200);
    assertThat(DirAccess.vend(http, "s.sc.plain", "{}").status).isEqualTo(200);
  }

  @Test
  void aViewCannotBeSharedForDirAccessAndATableNeedsAMode() {
    SharedTable view = server.tables().addView("s", "sc", "v", server.tables().get("s.sc.plain").dir());
    assertThatThrownBy(() -> view.accessModes(AccessMode.DIR)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is a view");
    assertThatThrownBy(() -> server.tables().accessModes("s.sc.plain")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theStandaloneServerTakesAccessModesFromItsConfig() throws Exception {
    Path config = Files.writeString(tmp.resolve("tables.json"), "{\"tables\":["
        + "{\"name\":\"a.b.events\",\"location\":\"events\",\"accessModes\":[\"dir\"]},"
        + "{\"name\":\"a.b.plain\",\"location\":\"events\"}]}");
    try (DeltaSharingServer standalone = ServerMain.start(new String[] {"--config", config.toString(), "--token", "t",
        "--credential-ttl-seconds", "60"})) {
      Http h = new Http(standalone, "t");
      JsonNode items = h.get("/shares/a/all-tables").json().path("items");
      assertThat(item(items, "events").path("accessModes")).extracting(JsonNode::asText).containsExactly("dir");
      assertThat(item(items, "plain").has("accessModes")).isFalse();
      long expiration = DirAccess.credentials(h, "a.b.events").path("expirationTime").asLong();
      assertThat(expiration).isBetween(System.currentTimeMillis() + 50_000, System.currentTimeMillis() + 61_000);
      assertThat(h.query("a.b.events", "{}").status).isEqualTo(400);
    }
  }
}
