package io.sharestream.testkit.delta;

import static io.sharestream.testkit.delta.DeltaType.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CdcFile;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.StructType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Column-mapped tables on disk as Delta Lake 3.2 writes them, and renames, drops and re-adds read back. */
class ColumnMappingWriterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"name", "id"})
  void filesUsePhysicalNamesAndFieldIdsAtEveryLevelUnderARandomPrefix(String mode) throws IOException {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), ColumnMappingMatrix.SCHEMA).partitionedBy("region")
        .columnMapping(mode).commit();
    t.append(List.of(ColumnMappingMatrix.row(1, 0)));
    Snapshot s = t.snapshot();
    assertThat(s.protocol.minReaderVersion).isEqualTo(2);
    assertThat(s.protocol.minWriterVersion).isEqualTo(5);
    assertThat(s.protocol.readerFeatures).isNull();
    assertThat(s.metadata.configuration).containsEntry("delta.columnMapping.mode", mode)
        .containsEntry("delta.columnMapping.maxColumnId", "11");
    assertThat(s.metadata.partitionColumns).containsExactly("region");
    StructType schema = s.metadata.schema();
    Set<Object> ids = new HashSet<>();
    collectIds(schema, ids);
    assertThat(ids).hasSize(11).allSatisfy(id -> assertThat((Integer) id).isBetween(1, 11));

    AddFile f = s.files().iterator().next();
    Field region = schema.field("region");
    // partition directories named by the physical name, as Delta Lake 3.2 writes them
    assertThat(f.path).matches(java.util.regex.Pattern.quote(physical(region)) + "=US/part-00000-.*\\.c000\\.snappy"
        + "\\.parquet");
    assertThat(f.partitionValues).containsOnlyKeys(physical(region)).containsEntry(physical(region), "US");
    JsonNode stats = JSON.readTree(f.stats);
    assertThat(stats.path("minValues").has(physical(schema.field("id")))).isTrue();
    assertThat(stats.path("minValues").has("id")).isFalse();

    MessageType footer = ParquetRows.fileSchema(t.log().resolve(f.path));
    assertThat(footer.getFields()).extracting(Type::getName).containsExactlyElementsOf(schema.without(
        List.of("region")).fields.stream().map(ColumnMappingWriterTest::physical).collect(Collectors.toList()));
    assertMapped(footer, schema.without(List.of("region")));
    GroupType items = footer.getType(physical(schema.field("items"))).asGroupType();
    assertThat(items.getType(0).asGroupType().getType(0).getName()).isEqualTo("element");
    GroupType attrs = footer.getType(physical(schema.field("attrs"))).asGroupType();
    assertThat(attrs.getType(0).asGroupType().getFields()).extracting(Type::getName).containsExactly("key", "value");
    assertThat(t.readAll()).containsExactly(ColumnMappingMatrix.row(1, 0));
  }

  /** Each Parquet struct field has its Delta field's physical name and its column mapping id as field id. */
  private static void assertMapped(GroupType group, StructType struct) {
    for (Field f : struct.fields) {
      Type t = group.getType(physical(f));
      assertThat(t.getId()).as(f.name).isNotNull();
      assertThat(t.getId().intValue()).as(f.name).isEqualTo(f.metadata.get("delta.columnMapping.id"));
      if (f.type instanceof StructType) {
        assertMapped(t.asGroupType(), (StructType) f.type);
      } else if (f.type instanceof DeltaType.ArrayType
          && ((DeltaType.ArrayType) f.type).elementType instanceof StructType) {
        assertMapped(t.asGroupType().getType(0).asGroupType().getType(0).asGroupType(),
            (StructType) ((DeltaType.ArrayType) f.type).elementType);
      }
    }
  }

  private static void collectIds(DeltaType type, Set<Object> ids) {
    if (type instanceof StructType) {
      for (Field f : ((StructType) type).fields) {
        assertThat(f.metadata.get("delta.columnMapping.physicalName").toString()).startsWith("col-");
        assertThat(ids.add(f.metadata.get("delta.columnMapping.id"))).isTrue();
        collectIds(f.type, ids);
      }
    } else if (type instanceof DeltaType.ArrayType) {
      collectIds(((DeltaType.ArrayType) type).elementType, ids);
    } else if (type instanceof DeltaType.MapType) {
      collectIds(((DeltaType.MapType) type).valueType, ids);
    }
  }

  static String physical(Field f) {
    return f.metadata.get("delta.columnMapping.physicalName").toString();
  }

  @ParameterizedTest
  @CsvSource({"name,false", "id,true"})
  void everyVersionReadsAsDeltaReadsItUnderItsOwnAndTheLatestSchema(String mode, boolean deletionVectors) {
    DeltaTableWriter t = ColumnMappingMatrix.write(tmp.resolve("t"), mode, deletionVectors);
    assertThat(t.version()).isEqualTo(ColumnMappingMatrix.LATEST);
    Snapshot latest = t.snapshot();
    for (long v = 0; v <= ColumnMappingMatrix.LATEST; v++) {
      Snapshot at = t.log().snapshot(v);
      assertThat(t.readAll(v)).as("version %d, own schema", v)
          .containsExactlyInAnyOrderElementsOf(ColumnMappingMatrix.rowsAt(v));
      assertThat(at.files().stream().flatMap(f -> t.readRows(latest, f).stream()).collect(Collectors.toList()))
          .as("version %d, latest schema", v)
          .containsExactlyInAnyOrderElementsOf(ColumnMappingMatrix.rowsAtUnderLatestSchema(v));
    }
    assertThat(latest.metadata.partitionColumns).containsExactly("area");
    assertThat(t.log().actions(11)).anyMatch(a -> a instanceof AddFile
        && (((AddFile) a).deletionVector != null) == deletionVectors);
  }

  @Test
  void renamesKeepIdAndPhysicalNameAndAReAddedNameGetsANewOne() {
    DeltaTableWriter t = ColumnMappingMatrix.write(tmp.resolve("t"), "name", false);
    StructType v1 = t.log().snapshot(1).metadata.schema();
    StructType latest = t.snapshot().metadata.schema();
    assertThat(physical(latest.field("full_name"))).isEqualTo(physical(v1.field("name")));
    assertThat(latest.field("full_name").metadata.get("delta.columnMapping.id"))
        .isEqualTo(v1.field("name").metadata.get("delta.columnMapping.id"));
    StructType info = (StructType) latest.field("info").type;
    assertThat(physical(info.field("town"))).isEqualTo(physical(((StructType) v1.field("info").type).field("city")));
    assertThat(physical(latest.field("note"))).isNotEqualTo(physical(v1.field("note")));
    assertThat(latest.field("note").metadata.get("delta.columnMapping.id")).isEqualTo(12);
    assertThat(t.snapshot().metadata.configuration).containsEntry("delta.columnMapping.maxColumnId", "12");
    assertThat(physical(latest.field("area"))).isEqualTo(physical(v1.field("region")));
    assertThat(t.log().actions(2).get(0)).isInstanceOfSatisfying(DeltaAction.CommitInfo.class,
        c -> assertThat(c.operation()).isEqualTo("RENAME COLUMN"));
    assertThat(t.log().actions(6)).hasSize(2); // commitInfo + metaData: a drop rewrites nothing
    assertThatThrownBy(() -> t.dropColumn("area")).hasMessageContaining("partition column");
    assertThatThrownBy(() -> t.renameColumn("nope", "x")).hasMessageContaining("no field nope");
    assertThatThrownBy(() -> t.renameColumn("id", "full_name")).hasMessageContaining("already exists");
  }

  @Test
  void renamingOrDroppingWithoutColumnMappingIsRefused() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("plain"), ChangeMatrix.SCHEMA).commit();
    assertThatThrownBy(() -> t.renameColumn("name", "n")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no column mapping");
    assertThatThrownBy(() -> t.dropColumn("name")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no column mapping");
  }

  @Test
  void changeDataFilesOfMappedTablesUsePhysicalNames() throws IOException {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("cdf"), ChangeMatrix.SCHEMA).columnMapping("name")
        .changeDataFeed(true).commit();
    t.append(ChangeMatrix.rows(0, 3));
    long v = t.updateWhere(r -> r.get("id").equals(1L), r -> {
      r.put("name", "x1");
      return r;
    });
    CdcFile cdc = (CdcFile) t.log().actions(v).stream().filter(a -> a instanceof CdcFile).findFirst().get();
    StructType schema = t.snapshot().metadata.schema();
    MessageType footer = ParquetRows.fileSchema(t.log().resolve(cdc.path));
    assertThat(footer.getFields()).extracting(Type::getName).containsExactly(physical(schema.field("id")),
        physical(schema.field("name")), DeltaTableWriter.CHANGE_TYPE);
    assertThat(t.readAll()).extracting(r -> r.get("name")).containsExactlyInAnyOrder("u0", "x1", "u2");
  }
}
