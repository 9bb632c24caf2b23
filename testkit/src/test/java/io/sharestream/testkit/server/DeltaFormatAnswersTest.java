package io.sharestream.testkit.server;

import static io.sharestream.testkit.server.QueryEndpointTest.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeletionVectorBitmap;
import io.sharestream.testkit.delta.DeletionVectorDescriptor;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables with deletion vectors or column mapping in the delta response format: the reference server's negotiation
 * and refusals, the delta-format lines (stored DVs as signed URLs of their files), and history answered in delta
 * format as Databricks does, or refused as the reference server v1.4.1 does.
 */
class DeltaFormatAnswersTest {
  static final String CAPS = "delta-sharing-capabilities";
  static final String DELTA = "responseformat=delta;readerfeatures=deletionvectors,columnmapping";
  static final String TOO_NEW = "Delta protocol version (3,7) is too new for this version of Delta Standalone "
      + "Reader/Writer (1,2). Please upgrade to a newer release.";

  @TempDir static Path tmp;
  static DeltaTableWriter dv;
  static DeltaTableWriter inline;
  static DeltaTableWriter cm;
  static DeltaTableWriter switchedOff;
  static DeltaSharingServer server;
  static DeltaSharingServer reference;
  static Http http;

  @BeforeAll
  static void start() {
    dv = DeletionVectorMatrix.write(tmp.resolve("dv"), true, false);
    inline = DeletionVectorMatrix.write(tmp.resolve("inline"), false, true);
    cm = ColumnMappingMatrix.write(tmp.resolve("cm"), "name", false);
    switchedOff = DeltaTableWriter.create(tmp.resolve("off"), ChangeMatrix.SCHEMA).deletionVectors(true).commit();
    switchedOff.append(ChangeMatrix.rows(0, 10)); // 1
    switchedOff.deleteWhere(r -> (Long) r.get("id") < 9); // 2: 9 of the file's 10 rows in its DV
    switchedOff.append(ChangeMatrix.rows(10, 12)); // 3
    switchedOff.setProperty("delta.enableDeletionVectors", "false"); // 4: the DV stays
    DeltaTableWriter plain = ChangeMatrix.write(tmp.resolve("plain"), false);
    server = share(DeltaSharingServer.builder(), plain).start();
    reference = share(DeltaSharingServer.builder().historyInDeltaFormat(false), plain).start();
    http = new Http(server);
  }

  private static DeltaSharingServer.Builder share(DeltaSharingServer.Builder b, DeltaTableWriter plain) {
    return b.table("s", "sc", "dv", dv.dir(), true).table("s", "sc", "inline", inline.dir(), true)
        .table("s", "sc", "cm", cm.dir(), true).table("s", "sc", "off", switchedOff.dir(), true)
        .table("s", "sc", "plain", plain.dir(), true);
  }

  @AfterAll
  static void stop() {
    server.close();
    reference.close();
  }

  @AfterEach
  void clearFaults() {
    server.faults().clear();
  }

  static String path(String table) {
    return Http.tablePath("s.sc." + table);
  }

  @Test
  void parquetOrFeaturelessRequestsOfDvAndMappedTablesAreRefusedAsTheReferenceServerRefusesThem() {
    List<String[]> refused = List.of(new String[0], new String[] {CAPS, "responseformat=parquet"},
        new String[] {CAPS, "responseformat=delta"}, new String[] {CAPS, "responseformat=delta,parquet"});
    for (String table : List.of("dv", "cm")) {
      for (String[] caps : refused) {
        String what = table + " " + String.join(":", caps);
        assertError(http.get(path(table) + "/metadata", caps), "UNSUPPORTED_OPERATION",
            "Unsupported Delta Table Properties");
        assertError(http.query("s.sc." + table, "{}", caps), "UNSUPPORTED_OPERATION",
            "Unsupported Delta Table Properties");
        assertError(http.query("s.sc." + table, "{\"version\":3}", caps), "UNSUPPORTED_OPERATION",
            "Unsupported Delta Table Properties");
        // history goes to the reference server's Delta Standalone, which refuses the protocol before any parameter
        for (String body : List.of("{\"startingVersion\":1}", "{\"startingVersion\":999}", "{\"maxFiles\":1}",
            "{\"maxFiles\":0}", "{\"pageToken\":\"garbage\"}")) {
          Http.Response r = http.query("s.sc." + table, body, caps);
          assertError(r, "UNSUPPORTED_OPERATION", "is too new for this version of Delta Standalone");
          assertThat(r.message()).as(what + body).isEqualTo(table.equals("dv") ? TOO_NEW
              : TOO_NEW.replace("(3,7)", "(2,5)"));
        }
        assertError(http.get(path(table) + "/changes?startingVersion=999", caps), "UNSUPPORTED_OPERATION",
            "is too new");
      }
    }
    // a mapped table needs columnMapping declared, a DV table deletionVectors
    String dvOnly = "responseformat=delta;readerfeatures=deletionvectors";
    assertThat(http.get(path("dv") + "/metadata", CAPS, dvOnly).status).isEqualTo(200);
    assertError(http.get(path("cm") + "/metadata", CAPS, dvOnly), "UNSUPPORTED_OPERATION", "Unsupported Delta");
  }

  @Test
  void theFormatIsNegotiatedAsTheReferenceServerDoesAndEchoed() {
    Http.Response both = http.query("s.sc.plain", "{}", CAPS, "responseformat=delta,parquet");
    assertThat(both.header(CAPS)).isEqualTo("responseformat=parquet");
    assertThat(both.lines("file")).allSatisfy(f -> assertThat(f.has("url")).isTrue());
    Http.Response delta = http.query("s.sc.plain", "{}", CAPS, "responseformat=delta");
    assertThat(delta.header(CAPS)).isEqualTo("responseformat=delta");
    assertThat(delta.lines("file")).allSatisfy(f -> assertThat(f.has("deltaSingleAction")).isTrue());
    // keys and values are case-insensitive; several formats give delta for a table of reader version 3
    Http.Response dvBoth = http.query("s.sc.dv", "{}", CAPS,
        "ResponseFormat=Parquet,Delta;ReaderFeatures=DeletionVectors,ColumnMapping");
    assertThat(dvBoth.status).as(dvBoth.raw.body()).isEqualTo(200);
    assertThat(dvBoth.header(CAPS)).isEqualTo("responseformat=delta");
    Http.Response asked = http.query("s.sc.dv", "{}", CAPS, DELTA + ";includeendstreamaction=true");
    assertThat(asked.header(CAPS)).isEqualTo("responseformat=delta;includeendstreamaction=true");
    assertThat(asked.lines("endStreamAction")).hasSize(1);
  }

  @Test
  void metadataAndSnapshotsAreRealDeltaActionsWithTheirPathsSigned() throws Exception {
    Http.Response meta = http.get(path("dv") + "/metadata", CAPS, DELTA);
    assertThat(meta.lines()).hasSize(2);
    assertThat(meta.lines("protocol").get(0).get("deltaProtocol").toString()).isEqualTo("{\"minReaderVersion\":3,"
        + "\"minWriterVersion\":7,\"readerFeatures\":[\"deletionVectors\"],\"writerFeatures\":[\"deletionVectors\","
        + "\"changeDataFeed\"]}");
    JsonNode deltaMetadata = meta.lines("metaData").get(0).get("deltaMetadata");
    assertThat(deltaMetadata.path("id").asText()).isEqualTo(dv.tableId());
    assertThat(deltaMetadata.path("configuration").path("delta.enableDeletionVectors").asText()).isEqualTo("true");
    assertThat(deltaMetadata.path("configuration").path("delta.enableChangeDataFeed").asText()).isEqualTo("true");
    assertThat(meta.lines("metaData").get(0).has("version")).isFalse();

    Http.Response at5 = http.query("s.sc.dv", "{\"version\":5}", CAPS, DELTA);
    assertThat(at5.status).as(at5.raw.body()).isEqualTo(200);
    List<JsonNode> files = at5.lines("file");
    assertThat(files).hasSize(4); // A dv{1,2}, C, B dv{1}, D
    for (JsonNode f : files) {
      JsonNode add = f.path("deltaSingleAction").path("add");
      String logPath = dv.log().snapshot(5).files().stream().filter(x -> add.path("size").asLong() == x.size
          && add.path("modificationTime").asLong() == x.modificationTime).findFirst().get().path;
      assertThat(f.path("id").asText()).isEqualTo(FileUrls.sha256(logPath)).hasSize(64);
      assertThat(f.path("version").asLong()).isEqualTo(5);
      assertThat(f.has("timestamp")).isFalse();
      assertThat(f.has("deletionVectorFileId")).isFalse();
      assertThat(add.path("path").asText()).startsWith(server.endpoint().replace("/delta-sharing", "/storage/"));
      assertThat(Http.downloadBytes(add.path("path").asText(), "bytes=0-3")).isEqualTo("PAR1".getBytes());
    }
    assertThat(files).filteredOn(f -> f.path("deltaSingleAction").path("add").has("deletionVector")).hasSize(2)
        .allSatisfy(f -> assertThat(f.path("deltaSingleAction").path("add").path("deletionVector")
            .path("storageType").asText()).isEqualTo("p"));
  }

  @Test
  void aStoredDvIsItsFilesSignedUrlWhoseRangeHoldsExactlyItsFrame() {
    DeletionVectorDescriptor logged = withDv(dv, 4).deletionVector;
    JsonNode add = http.query("s.sc.dv", "{\"version\":4}", CAPS, DELTA).lines("file").stream()
        .map(f -> f.path("deltaSingleAction").path("add")).filter(x -> x.has("deletionVector")).findFirst().get();
    JsonNode served = add.get("deletionVector");
    assertThat(served.path("storageType").asText()).isEqualTo("p");
    assertThat(served.path("offset").asInt()).isEqualTo(logged.offset);
    assertThat(served.path("sizeInBytes").asInt()).isEqualTo(logged.sizeInBytes);
    assertThat(served.path("cardinality").asLong()).isEqualTo(2);
    String url = served.path("pathOrInlineDv").asText();
    assertThat(url).contains(logged.relativePath());
    int from = logged.offset;
    int to = from + logged.sizeInBytes + 8 - 1;
    Http.Response range = Http.download(url, "bytes=" + from + "-" + to);
    assertThat(range.status).isEqualTo(206);
    byte[] frame = Http.downloadBytes(url, "bytes=" + from + "-" + to);
    assertThat(frame).hasSize(logged.sizeInBytes + 8);
    ByteBuffer b = ByteBuffer.wrap(frame);
    assertThat(b.getInt()).isEqualTo(logged.sizeInBytes);
    byte[] bitmap = Arrays.copyOfRange(frame, 4, 4 + logged.sizeInBytes);
    CRC32 crc = new CRC32();
    crc.update(bitmap);
    assertThat(b.getInt(4 + logged.sizeInBytes)).isEqualTo((int) crc.getValue());
    assertThat(DeletionVectorBitmap.deserialize(bitmap)).containsExactly(1L, 2L);

    server.faults().urlTtl(Duration.ofMillis(1));
    JsonNode expiring = http.query("s.sc.dv", "{\"version\":4}", CAPS, DELTA).lines("file").stream()
        .map(f -> f.path("deltaSingleAction").path("add")).filter(x -> x.has("deletionVector")).findFirst().get();
    sleep(20);
    assertThat(Http.download(expiring.path("deletionVector").path("pathOrInlineDv").asText(), null).status)
        .isEqualTo(403);
  }

  @Test
  void inlineDvsPassThroughAsTheyAreInTheLog() {
    List<JsonNode> files = http.query("s.sc.inline", "{\"version\":5}", CAPS, DELTA).lines("file");
    List<String> served = files.stream().map(f -> f.path("deltaSingleAction").path("add"))
        .filter(a -> a.has("deletionVector")).map(a -> a.get("deletionVector").toString())
        .collect(Collectors.toList());
    List<String> logged = inline.log().snapshot(5).files().stream().filter(f -> f.deletionVector != null)
        .map(f -> f.deletionVector.toJson().toString()).collect(Collectors.toList());
    assertThat(served).hasSize(2).containsExactlyInAnyOrderElementsOf(logged);
    assertThat(served).allSatisfy(s -> assertThat(s).contains("\"storageType\":\"i\""));
  }

  @Test
  void historyIsAnsweredInDeltaFormatWithRemovesCarryingTheDvOfTheFileTheyRemove() {
    Http.Response r = http.query("s.sc.dv", "{\"startingVersion\":3}", CAPS, DELTA);
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.header("Delta-Table-Version")).isEqualTo("3");
    assertThat(r.lines("metaData").get(0).path("version").asLong()).isEqualTo(3);
    List<JsonNode> files = r.lines("file");
    assertThat(files).allSatisfy(f -> assertThat(f.path("timestamp").asLong())
        .isEqualTo(dv.log().timestamp(f.path("version").asLong())));
    assertThat(files).extracting(f -> f.path("version").asLong() + ":" + f.path("deltaSingleAction").fieldNames()
        .next()).containsExactly("3:remove", "3:add", "4:remove", "4:add", "5:remove", "5:add", "5:add", "6:remove",
            "8:add");
    JsonNode addAt3 = files.get(1).path("deltaSingleAction").path("add");
    JsonNode removeAt4 = files.get(2).path("deltaSingleAction").path("remove");
    assertThat(files.get(0).path("deltaSingleAction").path("remove").has("deletionVector")).isFalse();
    assertThat(removeAt4.path("deletionVector").path("storageType").asText()).isEqualTo("p");
    assertThat(removeAt4.path("deletionVector").path("cardinality").asLong()).isEqualTo(1);
    assertThat(removeAt4.path("deletionVector").path("offset")).isEqualTo(addAt3.path("deletionVector")
        .path("offset"));
    assertThat(removeAt4.path("size").asLong()).isPositive();
    assertThat(removeAt4.path("deletionTimestamp").asLong()).isPositive();
    assertThat(removeAt4.path("extendedFileMetadata").asBoolean()).isTrue();
    assertThat(removeAt4.has("partitionValues")).isTrue();
    assertThat(files.get(2).path("id").asText()).isEqualTo(files.get(1).path("id").asText());

    Http.Response changes = http.get(path("dv") + "/changes?startingVersion=3&endingVersion=6", CAPS, DELTA);
    assertThat(changes.status).as(changes.raw.body()).isEqualTo(200);
    assertThat(changes.lines("file")).extracting(f -> f.path("version").asLong() + ":" + f.path("deltaSingleAction")
        .fieldNames().next()).containsExactly("3:remove", "3:add", "4:remove", "4:add", "5:cdc", "6:remove");
    assertThat(changes.lines("file").get(4).path("deltaSingleAction").path("cdc").has("deletionVector")).isFalse();

    Http.Response page = http.query("s.sc.dv", "{\"startingVersion\":3,\"maxFiles\":2}", CAPS, DELTA);
    assertThat(page.lines("file")).hasSize(2);
    assertThat(page.lines("endStreamAction").get(0).path("nextPageToken").asText()).isNotEmpty();
    assertThat(http.query("s.sc.cm", "{\"maxFiles\":1}", CAPS, DELTA).lines("file")).hasSize(1);
  }

  @Test
  void withHistoryInDeltaFormatOffHistoryIsRefusedEvenToClientsListingEveryFeature() {
    Http ref = new Http(reference);
    for (String table : List.of("dv", "cm")) {
      assertError(ref.query("s.sc." + table, "{\"startingVersion\":1}", CAPS, DELTA), "UNSUPPORTED_OPERATION",
          "too new for this version of Delta Standalone");
      assertError(ref.query("s.sc." + table, "{\"maxFiles\":1}", CAPS, DELTA), "UNSUPPORTED_OPERATION", "too new");
      assertError(ref.get(path(table) + "/changes?startingVersion=1", CAPS, DELTA), "UNSUPPORTED_OPERATION",
          "too new");
      assertThat(ref.get(path(table) + "/metadata", CAPS, DELTA).status).isEqualTo(200);
      assertThat(ref.query("s.sc." + table, "{\"version\":3}", CAPS, DELTA).status).isEqualTo(200);
      assertThat(ref.query("s.sc." + table, "{}", CAPS, DELTA).lines("file")).isNotEmpty();
    }
    assertThat(ref.query("s.sc.plain", "{\"startingVersion\":1}").status).isEqualTo(200);
  }

  @Test
  void limitHintCountsOnlyTheLiveRowsOfFilesWithDvs() {
    String caps = "responseformat=delta;readerfeatures=deletionvectors";
    // version 3: a file of 10 rows with 9 deleted, then a file of 2
    assertThat(http.query("s.sc.off", "{\"version\":3,\"limitHint\":2}", CAPS, caps).lines("file")).hasSize(2);
    assertThat(http.query("s.sc.off", "{\"version\":3,\"limitHint\":1}", CAPS, caps).lines("file")).hasSize(1);
  }

  @Test
  void aDvShownToAClientNotListingDeletionVectorsIsRefused() {
    // the property is off, but the file of version 1 keeps its DV
    for (String caps : List.of("responseformat=delta", "responseformat=delta;readerfeatures=columnmapping")) {
      assertError(http.query("s.sc.off", "{}", CAPS, caps), "UNSUPPORTED_OPERATION",
          "Deletion Vector property disabled");
      assertError(http.query("s.sc.off", "{\"startingVersion\":1}", CAPS, caps), "UNSUPPORTED_OPERATION",
          "Deletion Vector property disabled");
      // no file of version 4 has one
      assertThat(http.query("s.sc.off", "{\"startingVersion\":4}", CAPS, caps).status).isEqualTo(200);
    }
  }

  @Test
  void mappedTablesAnswerPhysicalPartitionAndStatsKeysAndTheirFullSchema() throws Exception {
    Http.Response r = http.query("s.sc.cm", "{}", CAPS, DELTA);
    assertThat(r.status).as(r.raw.body()).isEqualTo(200);
    assertThat(r.lines("protocol").get(0).get("deltaProtocol").toString())
        .isEqualTo("{\"minReaderVersion\":2,\"minWriterVersion\":5}");
    JsonNode m = r.lines("metaData").get(0).get("deltaMetadata");
    assertThat(m.path("partitionColumns").toString()).isEqualTo("[\"area\"]");
    assertThat(m.path("schemaString").asText()).contains("delta.columnMapping.physicalName")
        .contains("delta.columnMapping.id");
    assertThat(m.path("configuration").path("delta.columnMapping.mode").asText()).isEqualTo("name");
    assertThat(m.path("configuration").path("delta.columnMapping.maxColumnId").asText()).isEqualTo("12");
    String area = cm.snapshot().metadata.schema().field("area").metadata.get("delta.columnMapping.physicalName")
        .toString();
    String id = cm.snapshot().metadata.schema().field("id").metadata.get("delta.columnMapping.physicalName")
        .toString();
    List<JsonNode> adds = r.lines("file").stream().map(f -> f.path("deltaSingleAction").path("add"))
        .collect(Collectors.toList());
    assertThat(adds).allSatisfy(a -> {
      assertThat(a.path("partitionValues").has(area)).isTrue();
      assertThat(Http.JSON.readTree(a.path("stats").asText()).path("minValues").has(id)).isTrue();
    });
    // predicate hints name logical columns; the kit looks them up by physical name
    String usOnly = "{\"jsonPredicateHints\":\"{\\\"op\\\":\\\"equal\\\",\\\"children\\\":[{\\\"op\\\":\\\"column\\\","
        + "\\\"name\\\":\\\"area\\\",\\\"valueType\\\":\\\"string\\\"},{\\\"op\\\":\\\"literal\\\",\\\"value\\\":"
        + "\\\"US\\\",\\\"valueType\\\":\\\"string\\\"}]}\"}";
    List<JsonNode> us = http.query("s.sc.cm", usOnly, CAPS, DELTA).lines("file");
    assertThat(us).isNotEmpty().hasSizeLessThan(adds.size()).allSatisfy(f -> assertThat(f
        .path("deltaSingleAction").path("add").path("partitionValues").path(area).asText()).isEqualTo("US"));
    String idSeven = usOnly.replace("area", "id").replace("\\\"US\\\",\\\"valueType\\\":\\\"string\\\"",
        "\\\"7\\\",\\\"valueType\\\":\\\"long\\\"").replace("\\\"string\\\"}", "\\\"long\\\"}");
    assertThat(http.query("s.sc.cm", idSeven, CAPS, DELTA).lines("file")).hasSize(1);
  }

  @Test
  void deletionVectorFileIdsAreSentOnlyWhenSwitchedOn() {
    try (DeltaSharingServer ids = DeltaSharingServer.builder().deletionVectorFileIds(true)
        .table("s", "sc", "dv", dv.dir(), true).table("s", "sc", "inline", inline.dir(), true).start()) {
      Http idsHttp = new Http(ids);
      AddFile a = withDv(dv, 4);
      JsonNode withDv = idsHttp.query("s.sc.dv", "{\"version\":4}", CAPS, DELTA).lines("file").stream()
          .filter(f -> f.path("deltaSingleAction").path("add").has("deletionVector")).findFirst().get();
      assertThat(withDv.path("deletionVectorFileId").asText()).isEqualTo(FileUrls.sha256(a.deletionVector.uniqueId()));
      assertThat(idsHttp.query("s.sc.inline", "{\"version\":4}", CAPS, DELTA).lines("file"))
          .noneMatch(f -> f.has("deletionVectorFileId"));
    }
  }

  /** The file of the snapshot at {@code version} that has a deletion vector. */
  private static AddFile withDv(DeltaTableWriter t, long version) {
    return t.log().snapshot(version).files().stream().filter(f -> f.deletionVector != null).findFirst().get();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
