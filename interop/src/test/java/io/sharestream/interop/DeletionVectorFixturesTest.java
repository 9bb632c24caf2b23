package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;

/**
 * The deletion vector fixtures are what {@link DeltaFixtures} says: Delta 3.2 re-adds files with cumulative deletion
 * vectors, removes carry the previous one, and the vectors mark exactly the rows Delta's own reads no longer return.
 */
class DeletionVectorFixturesTest {
  static final List<DeltaFixtures.Fixture> BOTH = DeltaFixtures.prepare(DeltaFixtures::deletionVectors,
      DeltaFixtures::deletionVectorsWithCdf);

  private static JsonNode stats(JsonNode fileAction) {
    try {
      return DeltaFixtures.JSON.readTree(fileAction.path("stats").asText("{}"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static JsonNode only(List<JsonNode> actions) {
    assertThat(actions).hasSize(1);
    return actions.get(0);
  }

  @Test
  void theTablesNeedTheDeletionVectorsReaderFeature() {
    for (DeltaFixtures.Fixture f : BOTH) {
      JsonNode p = f.protocol(0);
      assertThat(p.path("minReaderVersion").asInt()).isEqualTo(3);
      assertThat(p.path("minWriterVersion").asInt()).isEqualTo(7);
      assertThat(p.path("readerFeatures").toString()).isEqualTo("[\"deletionVectors\"]");
      List<String> writerFeatures = new ArrayList<>();
      p.path("writerFeatures").forEach(x -> writerFeatures.add(x.asText()));
      assertThat(writerFeatures).containsExactlyInAnyOrderElementsOf(f.name().equals("dv")
          ? List.of("deletionVectors") : List.of("deletionVectors", "changeDataFeed"));
      assertThat(f.metadata(0).path("configuration").path("delta.enableDeletionVectors").asText()).isEqualTo("true");
      for (long v = 1; v <= f.latestVersion(); v++) {
        assertThat(f.actions(v, "protocol")).as("%s %d", f, v).isEmpty();
      }
    }
  }

  @Test
  void aDeleteReAddsTheFileWithACumulativeDeletionVectorAndTheRemoveCarriesTheOldOne() throws Exception {
    for (DeltaFixtures.Fixture f : BOTH) {
      JsonNode appended = only(f.actions(1, "add"));
      assertThat(stats(appended).path("tightBounds").asBoolean()).isTrue();
      assertThat(appended.has("deletionVector")).isFalse();

      long first = f.version("DELETE FROM t WHERE id = 3");
      JsonNode add4 = only(f.actions(first, "add"));
      JsonNode remove4 = only(f.actions(first, "remove"));
      assertThat(add4.path("path").asText()).isEqualTo(appended.path("path").asText())
          .isEqualTo(remove4.path("path").asText());
      assertThat(add4.path("dataChange").asBoolean()).isTrue();
      assertThat(remove4.path("dataChange").asBoolean()).isTrue();
      assertThat(add4.path("modificationTime").asLong()).isEqualTo(appended.path("modificationTime").asLong());
      assertThat(add4.path("size").asLong()).isEqualTo(appended.path("size").asLong());
      JsonNode dv4 = add4.path("deletionVector");
      assertThat(dv4.path("storageType").asText()).isEqualTo("u");
      assertThat(dv4.path("pathOrInlineDv").asText()).hasSize(20); // no random prefix
      assertThat(dv4.path("offset").asInt()).isEqualTo(1);
      assertThat(dv4.path("sizeInBytes").asInt()).isEqualTo(34);
      assertThat(dv4.path("cardinality").asLong()).isEqualTo(1);
      assertThat(dv4.has("maxRowIndex")).isFalse();
      // stats: unchanged bounds and physical numRecords, no longer tight; the remove keeps only numRecords
      assertThat(stats(add4).path("numRecords").asLong()).isEqualTo(50);
      assertThat(stats(add4).path("tightBounds").asBoolean()).isFalse();
      assertThat(stats(add4).path("minValues")).isEqualTo(stats(appended).path("minValues"));
      assertThat(stats(remove4).toString()).isEqualTo("{\"numRecords\":50}");
      assertThat(remove4.has("deletionVector")).isFalse();
      assertThat(DeletionVectors.rowIndexes(f.dir(), dv4)).containsExactly(3L);
      Path dvFile = DeletionVectors.file(f.dir(), dv4.path("pathOrInlineDv").asText());
      assertThat(DeletionVectors.hex(Files.readAllBytes(dvFile))).isEqualTo(
          "01" + "00000022" + "d1d33964" + "0100000000000000" + "00000000" // size, magic, 1 bucket, key 0
              + "3a300000" + "01000000" + "0000" + "0000" + "10000000" + "0300" // Roaring: 1 array container {3}
              + "dc8be776"); // CRC-32 of the 34 bytes

      JsonNode add5 = only(f.actions(first + 1, "add"));
      JsonNode remove5 = only(f.actions(first + 1, "remove"));
      assertThat(remove5.path("deletionVector")).isEqualTo(dv4);
      assertThat(add5.path("deletionVector").path("cardinality").asLong()).isEqualTo(3);
      assertThat(add5.path("deletionVector").path("sizeInBytes").asInt()).isEqualTo(38);
      assertThat(add5.path("deletionVector").path("pathOrInlineDv").asText())
          .isNotEqualTo(dv4.path("pathOrInlineDv").asText()); // a new file, the old one stays
      assertThat(DeletionVectors.rowIndexes(f.dir(), add5.path("deletionVector"))).containsExactly(3L, 5L, 7L);
      assertThat(add5.path("modificationTime").asLong()).isEqualTo(appended.path("modificationTime").asLong());
      assertThat(Files.exists(dvFile)).isTrue();

      long whole = f.version("DELETE FROM t WHERE id >= 50");
      assertThat(f.actions(whole, "add")).isEmpty();
      JsonNode removeB = only(f.actions(whole, "remove"));
      assertThat(removeB.path("path").asText()).isEqualTo(only(f.actions(2, "add")).path("path").asText());
      assertThat(removeB.has("deletionVector")).isFalse();
      assertThat(only(f.actions(whole, "commitInfo")).path("operationMetrics").path("numDeletedRows").asText())
          .isEqualTo("50");
    }
  }

  @Test
  void updateAndMergeMarkOldRowsInDeletionVectorsAndWriteNewFiles() throws Exception {
    for (DeltaFixtures.Fixture f : BOTH) {
      String a = only(f.actions(1, "add")).path("path").asText();
      String c = only(f.actions(3, "add")).path("path").asText();
      long update = f.version("UPDATE");
      Map<String, JsonNode> adds = byPath(f.actions(update, "add"));
      Map<String, JsonNode> removes = byPath(f.actions(update, "remove"));
      assertThat(removes.keySet()).containsExactlyInAnyOrder(a, c);
      assertThat(removes.get(a).path("deletionVector").path("cardinality").asLong()).isEqualTo(3);
      assertThat(removes.get(c).has("deletionVector")).isFalse();
      assertThat(adds).containsKeys(a, c).hasSize(4);
      assertThat(DeletionVectors.rowIndexes(f.dir(), adds.get(a).path("deletionVector")))
          .containsExactly(1L, 3L, 5L, 7L, 11L, 21L, 31L, 41L);
      assertThat(DeletionVectors.rowIndexes(f.dir(), adds.get(c).path("deletionVector")))
          .containsExactly(1L, 11L, 21L, 31L, 41L);
      List<JsonNode> newFiles = adds.values().stream().filter(x -> !x.has("deletionVector")).toList();
      assertThat(newFiles).hasSize(2).allSatisfy(x -> assertThat(stats(x).path("numRecords").asLong()).isEqualTo(5));
      assertThat(f.actions(update, "cdc")).hasSize(f.name().equals("dv") ? 0 : 2);

      long merge = f.version("MERGE");
      Map<String, JsonNode> mAdds = byPath(f.actions(merge, "add"));
      Map<String, JsonNode> mRemoves = byPath(f.actions(merge, "remove"));
      String updatedC = newFiles.stream().map(x -> x.path("path").asText())
          .filter(p -> ParquetFiles.longs(f.dir().resolve(p), "id").contains(141L)).findFirst().orElseThrow();
      assertThat(mRemoves.keySet()).containsExactlyInAnyOrder(c, updatedC);
      assertThat(mRemoves.get(c).path("deletionVector")).isEqualTo(adds.get(c).path("deletionVector"));
      assertThat(DeletionVectors.rowIndexes(f.dir(), mAdds.get(c).path("deletionVector")))
          .containsExactly(1L, 11L, 21L, 31L, 40L, 41L, 42L, 43L, 44L, 45L, 46L, 47L, 48L, 49L); // a run container
      assertThat(DeletionVectors.rowIndexes(f.dir(), mAdds.get(updatedC).path("deletionVector"))).containsExactly(4L);
      JsonNode inserted = only(mAdds.values().stream().filter(x -> !x.has("deletionVector")).toList());
      assertThat(stats(inserted).path("numRecords").asLong()).isEqualTo(15); // 5 updated + 10 inserted
      assertThat(f.actions(merge, "cdc")).hasSize(f.name().equals("dv") ? 0 : 1);
    }
  }

  @Test
  void deletesWriteNoChangeDataFilesEvenWithTheChangeDataFeed() {
    DeltaFixtures.Fixture f = DeltaFixtures.deletionVectorsWithCdf();
    for (Map.Entry<Long, String> op : f.operations().entrySet()) {
      if (op.getValue().startsWith("DELETE")) {
        assertThat(f.actions(op.getKey(), "cdc")).as(op.getValue()).isEmpty();
      }
    }
  }

  @Test
  void optimizeMaterializesTheDeletionVectorsWithoutDataChangeAndCheckpointsKeepThem() throws Exception {
    for (DeltaFixtures.Fixture f : BOTH) {
      long optimize = f.version("OPTIMIZE");
      JsonNode compacted = only(f.actions(optimize, "add"));
      assertThat(compacted.path("dataChange").asBoolean()).isFalse();
      assertThat(compacted.has("deletionVector")).isFalse();
      assertThat(stats(compacted).path("numRecords").asLong()).isEqualTo(102);
      assertThat(stats(compacted).path("tightBounds").asBoolean()).isTrue();
      assertThat(f.actions(optimize, "remove")).hasSize(5)
          .allSatisfy(r -> assertThat(r.path("dataChange").asBoolean()).isFalse())
          .filteredOn(r -> r.has("deletionVector")).hasSize(3);
      assertThat(f.files(optimize).keySet()).containsExactly(compacted.path("path").asText());

      JsonNode after = only(f.actions(f.version("DELETE FROM t WHERE id = 20"), "add"));
      assertThat(after.path("path").asText()).isEqualTo(compacted.path("path").asText());
      List<Long> ids = ParquetFiles.longs(f.dir().resolve(after.path("path").asText()), "id");
      assertThat(DeletionVectors.rowIndexes(f.dir(), after.path("deletionVector")))
          .containsExactly((long) ids.indexOf(20L));

      Path log = f.dir().resolve("_delta_log");
      assertThat(log.resolve("00000000000000000005.checkpoint.parquet")).exists();
      assertThat(log.resolve("00000000000000000010.checkpoint.parquet")).exists();
      JsonNode last = DeltaFixtures.JSON.readTree(log.resolve("_last_checkpoint").toFile());
      assertThat(last.path("version").asLong()).isEqualTo(10);
      assertThat(last.path("numOfAddFiles").asLong()).isEqualTo(1);
      assertThat(last.has("checksum")).isTrue();
      assertThat(last.path("checkpointSchema").toString()).contains("\"deletionVector\"", "\"maxRowIndex\"");
      // the checkpoint's add holds the same descriptor as the JSON commit (maxRowIndex null)
      Group add = ParquetFiles.rows(log.resolve("00000000000000000010.checkpoint.parquet")).stream()
          .filter(g -> g.getFieldRepetitionCount("add") > 0).map(g -> g.getGroup("add", 0))
          .collect(Collectors.toList()).get(0);
      assertThat(add.getString("path", 0)).isEqualTo(after.path("path").asText());
      Group dv = add.getGroup("deletionVector", 0);
      assertThat(dv.getString("storageType", 0)).isEqualTo("u");
      assertThat(dv.getString("pathOrInlineDv", 0)).isEqualTo(after.path("deletionVector").path("pathOrInlineDv")
          .asText());
      assertThat(dv.getInteger("offset", 0)).isEqualTo(1);
      assertThat(dv.getInteger("sizeInBytes", 0)).isEqualTo(34);
      assertThat(dv.getLong("cardinality", 0)).isEqualTo(1);
      assertThat(dv.getFieldRepetitionCount("maxRowIndex")).isZero();
      assertThat(add.getBoolean("dataChange", 0)).isFalse();
    }
  }

  /** Every version: the ids of the live files minus the rows their vectors mark are exactly the ids Delta reads. */
  @Test
  void theVectorsMarkExactlyTheRowsDeltaNoLongerReturns() {
    DeltaFixtures.Fixture f = DeltaFixtures.deletionVectors();
    NavigableMap<Long, List<String>> snapshots = f.snapshotRowsByVersion();
    assertThat(snapshots.keySet()).containsExactlyElementsOf(f.operations().keySet());
    Map<String, List<Long>> idsByFile = new TreeMap<>();
    for (long v : snapshots.keySet()) {
      List<Long> live = new ArrayList<>();
      for (JsonNode add : f.files(v).values()) {
        List<Long> ids = idsByFile.computeIfAbsent(add.path("path").asText(),
            p -> ParquetFiles.longs(f.dir().resolve(p), "id"));
        Set<Long> deleted = add.has("deletionVector")
            ? new HashSet<>(DeletionVectors.rowIndexes(f.dir(), add.path("deletionVector"))) : Set.of();
        assertThat(deleted).hasSize(add.path("deletionVector").path("cardinality").asInt());
        for (int i = 0; i < ids.size(); i++) {
          if (!deleted.contains((long) i)) {
            live.add(ids.get(i));
          }
        }
      }
      List<Long> delta = snapshots.get(v).stream().map(r -> ((Number) DeltaFixtures.parse(r).get("id")).longValue())
          .collect(Collectors.toList());
      assertThat(new TreeSet<>(live)).as("version %d", v).hasSize(live.size()).isEqualTo(new TreeSet<>(delta));
    }
    assertThat(snapshots.get(0L)).isEmpty();
    assertThat(snapshots.get(f.latestVersion())).hasSize(141)
        .contains("{\"grp\":1,\"id\":1,\"name\":\"u1\"}", "{\"grp\":1,\"id\":141,\"name\":\"m141\"}")
        .doesNotContain("{\"grp\":0,\"id\":20,\"name\":\"n20\"}");
    assertThat(f.changeFeedByVersion()).isEmpty();
    assertThat(f.changeFeedErrors().keySet()).containsExactlyElementsOf(f.operations().keySet());
  }

  /** With the change data feed: Delta's feed per version is the snapshot difference, updates as pre/post images. */
  @Test
  void theChangeDataFeedIsTheSnapshotDifference() {
    DeltaFixtures.Fixture cdf = DeltaFixtures.deletionVectorsWithCdf();
    NavigableMap<Long, List<String>> feed = cdf.changeFeedByVersion();
    assertThat(cdf.changeFeedErrors()).isEmpty();
    assertThat(feed.keySet()).containsExactlyElementsOf(cdf.operations().keySet());
    // the two fixtures hold the same rows at every version: the one without CDF gives the snapshots
    NavigableMap<Long, List<String>> diff = DeltaFixtures.deletionVectors().snapshotDiffByVersion();
    for (long v = 1; v <= cdf.latestVersion(); v++) {
      List<String> asDiff = feed.get(v).stream().map(r -> r.replace("\"update_preimage\"", "\"delete\"")
          .replace("\"update_postimage\"", "\"insert\"")).sorted().collect(Collectors.toList());
      assertThat(asDiff).as("version %d: %s", v, cdf.operations().get(v)).isEqualTo(diff.get(v));
    }
    assertThat(feed.get(0L)).isEmpty();
    assertThat(feed.get(cdf.version("DELETE FROM t WHERE id = 3")))
        .containsExactly("{\"_change_type\":\"delete\",\"grp\":3,\"id\":3,\"name\":\"n3\"}");
    assertThat(changeTypes(feed.get(cdf.version("UPDATE")))).isEqualTo(Map.of("update_preimage", 10L,
        "update_postimage", 10L));
    assertThat(changeTypes(feed.get(cdf.version("MERGE")))).isEqualTo(Map.of("delete", 5L, "update_preimage", 5L,
        "update_postimage", 5L, "insert", 10L));
    assertThat(feed.get(cdf.version("OPTIMIZE"))).isEmpty();
    assertThat(feed.get(cdf.latestVersion())).hasSize(20);
  }

  private static Map<String, Long> changeTypes(List<String> rows) {
    return rows.stream().collect(Collectors.groupingBy(r -> String.valueOf(DeltaFixtures.parse(r)
        .get("_change_type")), Collectors.counting()));
  }

  private static Map<String, JsonNode> byPath(List<JsonNode> actions) {
    Map<String, JsonNode> out = new TreeMap<>();
    actions.forEach(a -> out.put(a.path("path").asText(), a));
    assertThat(out).hasSize(actions.size());
    return out;
  }
}
