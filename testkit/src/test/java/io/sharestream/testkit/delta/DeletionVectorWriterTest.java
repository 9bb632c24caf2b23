package io.sharestream.testkit.delta;

import static io.sharestream.testkit.delta.DeltaType.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CdcFile;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import io.sharestream.testkit.delta.DeltaType.StructType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DML on tables with deletion vectors writes exactly the log actions Delta Lake 3.2 writes. */
class DeletionVectorWriterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void aNewTableWithDeletionVectorsHasTheirPropertyAndTableFeatures() {
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .commit();
    Snapshot s = dv.snapshot();
    assertThat(s.metadata.configuration).containsEntry("delta.enableDeletionVectors", "true");
    assertThat(s.protocol.minReaderVersion).isEqualTo(3);
    assertThat(s.protocol.minWriterVersion).isEqualTo(7);
    assertThat(s.protocol.readerFeatures).containsExactly("deletionVectors");
    assertThat(s.protocol.writerFeatures).containsExactly("deletionVectors");
    Snapshot all = DeltaTableWriter.create(tmp.resolve("all"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .columnMapping("name").changeDataFeed(true).commit().snapshot();
    assertThat(all.protocol.readerFeatures).containsExactly("deletionVectors", "columnMapping");
    assertThat(all.protocol.writerFeatures).containsExactly("deletionVectors", "columnMapping", "changeDataFeed");

    DeltaTableWriter later = DeltaTableWriter.create(tmp.resolve("later"), ChangeMatrix.SCHEMA).changeDataFeed(true)
        .commit();
    later.setProperty("delta.enableDeletionVectors", "true");
    assertThat(later.snapshot().protocol.readerFeatures).containsExactly("deletionVectors");
    assertThat(later.snapshot().protocol.writerFeatures).containsExactly("appendOnly", "invariants",
        "checkConstraints", "changeDataFeed", "generatedColumns", "deletionVectors");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void deletesMarkRowsInGrowingDvsOfTheSameFileAndWriteNoChangeData(boolean inline) {
    DeltaTableWriter t = DeletionVectorMatrix.write(tmp.resolve("t"), true, inline);
    AddFile a = onlyAdd(t, 1, 0);

    List<DeltaAction> v3 = fileActions(t, 3);
    assertThat(v3).hasSize(2);
    RemoveFile removeA = (RemoveFile) v3.get(0);
    assertThat(removeA.path).isEqualTo(a.path);
    assertThat(removeA.deletionVector).isNull();
    assertThat(removeA.dataChange).isTrue();
    assertThat(removeA.size).isEqualTo(a.size);
    AddFile a1 = (AddFile) v3.get(1);
    assertThat(a1.path).isEqualTo(a.path);
    assertThat(a1.dataChange).isTrue();
    assertThat(a1.size).isEqualTo(a.size);
    assertThat(a1.modificationTime).isEqualTo(a.modificationTime);
    assertThat(a1.partitionValues).isEqualTo(a.partitionValues);
    assertThat(json(a1.stats).path("numRecords").asLong()).isEqualTo(3);
    assertThat(json(a1.stats).path("tightBounds").asBoolean(true)).isFalse();
    assertThat(json(a.stats).path("tightBounds").asBoolean()).isTrue();
    assertThat(a1.deletionVector.storageType).isEqualTo(inline ? "i" : "u");
    assertThat(a1.deletionVector.offset).isEqualTo(inline ? null : 1);
    assertThat(a1.deletionVector.cardinality).isEqualTo(1);
    assertThat(a1.deletionVector.rowIndexes(t.dir())).containsExactly(1L);

    List<DeltaAction> v4 = fileActions(t, 4);
    assertThat(((RemoveFile) v4.get(0)).deletionVector).isEqualTo(a1.deletionVector);
    AddFile a2 = (AddFile) v4.get(1);
    assertThat(a2.path).isEqualTo(a.path);
    assertThat(a2.deletionVector.rowIndexes(t.dir())).containsExactly(1L, 2L);
    assertThat(a2.deletionVector.cardinality).isEqualTo(2);

    // every row of C goes: only the remove
    List<DeltaAction> v6 = fileActions(t, 6);
    assertThat(v6).hasSize(1);
    assertThat(((RemoveFile) v6.get(0)).path).isEqualTo(onlyAdd(t, 2, 0).path);
    for (long v : List.of(3L, 4L, 6L)) {
      assertThat(t.log().actions(v)).noneMatch(x -> x instanceof CdcFile);
    }
    assertThat(dvFiles(t)).hasSize(inline ? 0 : 3); // versions 3, 4 and 5 wrote one each
  }

  @Test
  void anUpdateMarksTheOldRowAndWritesTheNewImageWithPreAndPostImages() {
    DeltaTableWriter t = DeletionVectorMatrix.write(tmp.resolve("t"), true, false);
    AddFile b = onlyAdd(t, 1, 1);
    List<DeltaAction> v5 = t.log().actions(5).stream().filter(x -> !(x instanceof DeltaAction.CommitInfo))
        .collect(Collectors.toList());
    assertThat(v5).hasSize(4);
    assertThat(((RemoveFile) v5.get(0)).path).isEqualTo(b.path);
    AddFile reAdded = (AddFile) v5.get(1);
    assertThat(reAdded.path).isEqualTo(b.path);
    assertThat(reAdded.deletionVector.rowIndexes(t.dir())).containsExactly(1L);
    AddFile d = (AddFile) v5.get(2);
    assertThat(d.deletionVector).isNull();
    assertThat(t.readRows(t.log().snapshot(5), d)).containsExactly(row(4L, "x4"));
    assertThat(readChanges(t, (CdcFile) v5.get(3))).containsExactly(change(4L, "u4", "update_preimage"),
        change(4L, "x4", "update_postimage"));

    DeltaTableWriter noCdf = DeletionVectorMatrix.write(tmp.resolve("nocdf"), false, true);
    assertThat(noCdf.log().actions(5)).noneMatch(x -> x instanceof CdcFile);
    assertThat(noCdf.readAll(5)).containsExactlyInAnyOrderElementsOf(rows(DeletionVectorMatrix.rowsAt(5)));
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void readersAndOptimizeHonourDvsAtEveryVersion(boolean inline) {
    DeltaTableWriter t = DeletionVectorMatrix.write(tmp.resolve("t"), false, inline);
    for (long v = 0; v <= DeletionVectorMatrix.LATEST; v++) {
      assertThat(t.readAll(v)).as("version " + v)
          .containsExactlyInAnyOrderElementsOf(rows(DeletionVectorMatrix.rowsAt(v)));
    }
    List<DeltaAction> v7 = fileActions(t, 7);
    assertThat(v7).filteredOn(x -> x instanceof RemoveFile).extracting(x -> ((RemoveFile) x).dataChange)
        .containsOnly(false).hasSize(3);
    assertThat(v7).filteredOn(x -> x instanceof RemoveFile).extracting(x -> ((RemoveFile) x).deletionVector != null)
        .containsExactlyInAnyOrder(true, true, false);
    AddFile optimized = (AddFile) v7.get(v7.size() - 1);
    assertThat(optimized.dataChange).isFalse();
    assertThat(optimized.deletionVector).isNull();
    assertThat(t.log().snapshot(7).files()).extracting(f -> f.path).containsExactly(optimized.path);
    assertThat(json(optimized.stats).path("numRecords").asLong()).isEqualTo(4);
  }

  @Test
  void rowIndexesCountEveryRowOfEveryRowGroup() throws IOException {
    StructType schema = DeltaType.struct(field("id", DeltaType.LONG, false), field("pad", DeltaType.STRING));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("g"), schema).rowGroupBytes(4096).deletionVectors(true)
        .commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 6000; i++) {
      rows.add(Samples.row("id", i, "pad", "x".repeat(40) + i));
    }
    t.append(rows);
    AddFile f = t.snapshot().files().iterator().next();
    assertThat(ParquetRows.rowGroups(t.log().resolve(f.path))).isGreaterThan(3);
    t.deleteWhere(r -> (Long) r.get("id") % 7 == 3 || (Long) r.get("id") >= 5000);
    t.deleteWhere(r -> (Long) r.get("id") == 4000);
    AddFile marked = t.snapshot().files().iterator().next();
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < 6000; i++) {
      if (i % 7 == 3 || i >= 5000 || i == 4000) {
        expected.add(i);
      }
    }
    assertThat(marked.deletionVector.rowIndexes(t.dir())).containsExactlyElementsOf(expected);
    assertThat(marked.deletionVector.cardinality).isEqualTo(expected.size());
    assertThat(t.readAll()).hasSize(6000 - expected.size()).noneMatch(r -> expected.contains((Long) r.get("id")));
  }

  @Test
  void mergeOnAdvTableMarksMatchedRowsAndWritesNewImagesAndInserts() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("m"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .changeDataFeed(true).commit();
    t.append(ChangeMatrix.rows(0, 6), 3); // {0,1,2} {3,4,5}
    AddFile first = onlyAdd(t, 1, 0);
    long v = t.merge(List.of(row(1L, "m1"), row(2L, null), row(9L, "new9")), "id", (target, source) -> {
      if (source.get("name") == null) {
        return null;
      }
      target.put("name", source.get("name"));
      return target;
    }, true);
    assertThat(t.log().actions(v).get(0)).isInstanceOfSatisfying(DeltaAction.CommitInfo.class,
        c -> assertThat(c.operation()).isEqualTo("MERGE"));
    List<DeltaAction> actions = fileActions(t, v);
    assertThat(actions).extracting(x -> x.getClass().getSimpleName())
        .containsExactly("RemoveFile", "AddFile", "AddFile", "CdcFile");
    AddFile reAdded = (AddFile) actions.get(1);
    assertThat(reAdded.path).isEqualTo(first.path);
    assertThat(reAdded.deletionVector.rowIndexes(t.dir())).containsExactly(1L, 2L);
    assertThat(t.readRows(t.snapshot(), (AddFile) actions.get(2))).containsExactly(row(1L, "m1"), row(9L, "new9"));
    assertThat(readChanges(t, (CdcFile) actions.get(3))).containsExactly(change(1L, "u1", "update_preimage"),
        change(1L, "m1", "update_postimage"), change(2L, "u2", "delete"), change(9L, "new9", "insert"));
    assertThat(t.readAll()).extracting(r -> r.get("id") + "/" + r.get("name"))
        .containsExactlyInAnyOrder("0/u0", "1/m1", "3/u3", "4/u4", "5/u5", "9/new9");
  }

  @Test
  void mergeWithoutDvsRewritesTouchedFiles() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("m"), ChangeMatrix.SCHEMA).changeDataFeed(true).commit();
    t.append(ChangeMatrix.rows(0, 6), 3);
    long v = t.merge(List.of(row(4L, "m4"), row(7L, "new7")), "id", (target, source) -> source, false);
    List<DeltaAction> actions = fileActions(t, v);
    assertThat(actions).extracting(x -> x.getClass().getSimpleName()).containsExactly("RemoveFile", "AddFile",
        "CdcFile");
    assertThat(t.readRows(t.snapshot(), (AddFile) actions.get(1))).containsExactly(row(3L, "u3"), row(4L, "m4"),
        row(5L, "u5"));
    assertThat(readChanges(t, (CdcFile) actions.get(2))).containsExactly(change(4L, "u4", "update_preimage"),
        change(4L, "m4", "update_postimage"));
    assertThat(t.readAll()).hasSize(6);
    assertThatThrownBy(() -> t.merge(List.of(row(1L, "a"), row(1L, "b")), "id", (x, y) -> y, true))
        .hasMessageContaining("twice");
  }

  @Test
  void checkpointsKeepDvsSoALogCleanedUpToOneStillReadsThem() {
    DeltaTableWriter t = DeletionVectorMatrix.write(tmp.resolve("t"), false, false);
    t.deleteWhere(r -> r.get("id").equals(10L)); // 9: a DV on the file of version 8
    long cp = t.checkpoint();
    t.append(ChangeMatrix.rows(20, 21)); // 10
    t.cleanUpLogBefore(cp);
    DeltaLog fresh = new DeltaLog(t.dir());
    Snapshot s = fresh.snapshot(cp);
    assertThat(s.files()).filteredOn(f -> f.deletionVector != null).hasSize(1)
        .allSatisfy(f -> assertThat(f.deletionVector.rowIndexes(t.dir())).containsExactly(1L));
    assertThat(t.readAll()).extracting(r -> (Long) r.get("id")).containsExactlyInAnyOrder(0L, 3L, 4L, 5L, 9L, 20L);
  }

  @Test
  void aDeltaWrittenCommitWithTheAddBeforeItsRemoveReplacesTheLogicalFile() throws IOException {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .commit();
    t.append(ChangeMatrix.rows(0, 3));
    AddFile f = t.snapshot().files().iterator().next();
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.inline(List.of(0L));
    // as Delta's DELETE writes it (golden table dv-partitioned-with-checkpoint): add with the DV, then the remove
    Files.writeString(t.log().commitFile(2), "{\"commitInfo\":{\"operation\":\"DELETE\"}}\n"
        + "{\"add\":{\"path\":\"" + f.path + "\",\"partitionValues\":{},\"size\":" + f.size + ",\"modificationTime\":"
        + f.modificationTime + ",\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":3,\\\"tightBounds\\\":false}\","
        + "\"tags\":{\"INSERTION_TIME\":\"1\"},\"deletionVector\":" + dv.toJson() + ",\"baseRowId\":0}}\n"
        + "{\"remove\":{\"path\":\"" + f.path + "\",\"deletionTimestamp\":1,\"dataChange\":true,"
        + "\"extendedFileMetadata\":true,\"partitionValues\":{},\"size\":" + f.size + ",\"tags\":{}}}\n");
    Snapshot s = new DeltaLog(t.dir()).snapshot(2);
    assertThat(s.files()).hasSize(1);
    assertThat(s.files().iterator().next().deletionVector).isEqualTo(dv);
    assertThat(DeltaTableWriter.open(t.dir()).readAll()).extracting(r -> r.get("id")).containsExactly(1L, 2L);
  }

  @Test
  void brokenDvsCommittedOnPurposeFailTheKitsOwnReaders() throws IOException {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .commit();
    t.append(ChangeMatrix.rows(0, 3));
    t.deleteWhere(r -> r.get("id").equals(1L));
    AddFile f = t.snapshot().files().iterator().next();
    DeletionVectorDescriptor good = f.deletionVector;
    DeletionVectorDescriptor wrongCount = new DeletionVectorDescriptor("u", good.pathOrInlineDv, good.offset,
        good.sizeInBytes, 2);
    t.commitActions("DELETE", List.of(f.remove(1, true), new AddFile(f.path, f.partitionValues, f.size,
        f.modificationTime, true, f.stats, wrongCount)));
    assertThatThrownBy(t::readAll).hasMessageContaining("cardinality mismatch");
    Path file = good.absolutePath(t.dir());
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 2] ^= 0x40;
    Files.write(file, bytes);
    assertThatThrownBy(() -> t.readAll(2)).hasMessageContaining("checksum mismatch");
  }

  private static AddFile onlyAdd(DeltaTableWriter t, long version, int index) {
    return (AddFile) t.log().actions(version).stream().filter(x -> x instanceof AddFile).collect(Collectors.toList())
        .get(index);
  }

  static List<DeltaAction> fileActions(DeltaTableWriter t, long version) {
    return t.log().actions(version).stream().filter(x -> x instanceof DeltaAction.FileAction)
        .collect(Collectors.toList());
  }

  private static List<Path> dvFiles(DeltaTableWriter t) {
    try (Stream<Path> files = Files.list(t.dir())) {
      return files.filter(p -> p.getFileName().toString().startsWith("deletion_vector_")).collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Map<String, Object>> readChanges(DeltaTableWriter t, CdcFile f) {
    StructType schema = t.snapshot().metadata.schema().add(field(DeltaTableWriter.CHANGE_TYPE, DeltaType.STRING));
    try {
      return ParquetRows.read(t.log().resolve(f.path), schema);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> row(Long id, String name) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    r.put("name", name);
    return r;
  }

  private static Map<String, Object> change(Long id, String name, String type) {
    Map<String, Object> r = row(id, name);
    r.put(DeltaTableWriter.CHANGE_TYPE, type);
    return r;
  }

  /** {@code id/name} strings as rows. */
  static List<Map<String, Object>> rows(List<String> idNames) {
    return idNames.stream().map(s -> row(Long.parseLong(s.split("/")[0]), s.split("/")[1]))
        .collect(Collectors.toList());
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
