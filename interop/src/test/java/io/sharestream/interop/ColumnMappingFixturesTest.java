package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeSet;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;

/**
 * The column mapping fixtures are what {@link DeltaFixtures} says: physical names and field ids in the schema, the
 * footers, the partition directories, partitionValues and stats; renames keep them, a re-added name gets new ones;
 * an upgraded table keeps its old names as physical names and its old files without field ids.
 */
class ColumnMappingFixturesTest {
  static final List<DeltaFixtures.Fixture> FROM_CREATE = DeltaFixtures.prepare(DeltaFixtures::columnMappingName,
      DeltaFixtures::columnMappingId, DeltaFixtures::columnMappingUpgraded).subList(0, 2);
  static final String UUID_NAME = "col-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

  /** A schema field: its logical path ("info.a"), physical name and column mapping id (null without mapping). */
  record Field(String path, String physical, Integer id, JsonNode json) {
  }

  /** The fields of the schema in force at {@code version}, parents before children, by logical path. */
  static Map<String, Field> fields(DeltaFixtures.Fixture f, long version) {
    try {
      JsonNode schema = DeltaFixtures.JSON.readTree(f.metadata(version).path("schemaString").asText());
      Map<String, Field> out = new LinkedHashMap<>();
      walk(schema, "", out);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void walk(JsonNode struct, String prefix, Map<String, Field> out) {
    for (JsonNode field : struct.path("fields")) {
      String path = prefix + field.path("name").asText();
      JsonNode md = field.path("metadata");
      out.put(path, new Field(path, md.path("delta.columnMapping.physicalName").asText(field.path("name").asText()),
          md.has("delta.columnMapping.id") ? md.path("delta.columnMapping.id").asInt() : null, field));
      if (field.path("type").isObject() && field.path("type").path("type").asText().equals("struct")) {
        walk(field.path("type"), path + ".", out);
      }
    }
  }

  private static JsonNode stats(JsonNode add) {
    try {
      return DeltaFixtures.JSON.readTree(add.path("stats").asText());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> names(Iterable<String> it) {
    List<String> out = new ArrayList<>();
    it.forEach(out::add);
    return out;
  }

  @Test
  void tablesCreatedWithColumnMappingNeedReaderTwoWriterFiveAndNameEveryFieldByUuidAndId() {
    for (DeltaFixtures.Fixture f : FROM_CREATE) {
      String mode = f.name().equals("cm-name") ? "name" : "id";
      assertThat(f.protocol(0).toString()).isEqualTo("{\"minReaderVersion\":2,\"minWriterVersion\":5}");
      JsonNode conf = f.metadata(0).path("configuration");
      assertThat(conf.path("delta.columnMapping.mode").asText()).isEqualTo(mode);
      assertThat(conf.path("delta.columnMapping.maxColumnId").asText()).isEqualTo("7");
      Map<String, Field> v0 = fields(f, 0);
      assertThat(v0.keySet()).containsExactly("id", "name", "info", "info.a", "info.b", "score", "part");
      assertThat(v0.values().stream().map(Field::id).toList()).containsExactly(1, 2, 3, 4, 5, 6, 7);
      assertThat(v0.values()).allSatisfy(x -> assertThat(x.physical()).matches(UUID_NAME));
      assertThat(f.metadata(0).path("partitionColumns").toString()).isEqualTo("[\"part\"]"); // logical
    }
  }

  @Test
  void renamesKeepPhysicalNamesAndIdsAndAReAddedNameGetsNewOnes() {
    for (DeltaFixtures.Fixture f : FROM_CREATE) {
      Map<String, Field> before = fields(f, 0);
      long rename = f.version("ALTER TABLE t RENAME COLUMN name");
      long nested = f.version("ALTER TABLE t RENAME COLUMN info.a");
      long drop = f.version("ALTER TABLE t DROP COLUMN score");
      long readd = f.version("ALTER TABLE t ADD COLUMNS (score INT)");
      assertThat(f.actions(rename, "metaData")).hasSize(1);
      assertThat(f.actions(rename, "add")).isEmpty();
      assertThat(fields(f, rename).get("full_name")).extracting(Field::physical, Field::id)
          .containsExactly(before.get("name").physical(), 2);
      assertThat(fields(f, rename)).doesNotContainKey("name");
      assertThat(fields(f, nested).get("info.alpha")).extracting(Field::physical, Field::id)
          .containsExactly(before.get("info.a").physical(), 4);
      assertThat(fields(f, drop).keySet()).containsExactly("id", "full_name", "info", "info.alpha", "info.b", "part");
      assertThat(f.actions(drop, "add")).isEmpty();
      assertThat(f.actions(drop, "remove")).isEmpty();
      Map<String, Field> after = fields(f, readd);
      assertThat(after.keySet()).containsExactly("id", "full_name", "info", "info.alpha", "info.b", "part", "score");
      assertThat(after.get("score").id()).isEqualTo(8);
      assertThat(after.get("score").physical()).matches(UUID_NAME).isNotEqualTo(before.get("score").physical());
      assertThat(f.metadata(readd).path("configuration").path("delta.columnMapping.maxColumnId").asText())
          .isEqualTo("8");
      for (long v = 1; v <= f.latestVersion(); v++) {
        assertThat(f.actions(v, "protocol")).as("%s %d", f, v).isEmpty();
      }
    }
  }

  /** Partition directories, partitionValues and stats use physical names; so do the footers, with field ids. */
  @Test
  void dataFilesUsePhysicalNamesAndFieldIdsEverywhere() {
    for (DeltaFixtures.Fixture f : FROM_CREATE) {
      String part = fields(f, 0).get("part").physical();
      int files = 0;
      for (long v = 1; v <= f.latestVersion(); v++) {
        Map<String, Field> schema = fields(f, v);
        boolean dml = f.operations().get(v).startsWith("DELETE");
        for (JsonNode add : f.actions(v, "add")) {
          files++;
          String value = add.path("partitionValues").path(part).asText();
          assertThat(names(add.path("partitionValues")::fieldNames)).containsExactly(part);
          assertThat(add.path("path").asText()).startsWith(part + "=" + value + "/");
          JsonNode stats = stats(add);
          List<String> physicalTop = schema.values().stream().filter(x -> !x.path().contains("."))
              .filter(x -> !x.path().equals("part")).map(Field::physical).toList();
          assertThat(names(stats.path("minValues")::fieldNames)).isSubsetOf(physicalTop);
          assertThat(names(stats.path("nullCount")::fieldNames)).containsExactlyInAnyOrderElementsOf(physicalTop);
          assertThat(names(stats.path("minValues").path(schema.get("info").physical())::fieldNames))
              .containsExactly(schema.get("info." + (schema.containsKey("info.a") ? "a" : "alpha")).physical(),
                  schema.get("info.b").physical());
          MessageType footer = ParquetFiles.schema(f.dir().resolve(add.path("path").asText()));
          List<String> expected = new ArrayList<>(physicalTop);
          if (dml) {
            expected.add("_change_type"); // DML with the change data feed writes it, all null, into data files
          }
          assertThat(footer.getFields().stream().map(Type::getName).toList()).as("%s %d", f, v)
              .containsExactlyElementsOf(expected);
          for (Field field : schema.values()) {
            if (field.path().equals("part")) {
              continue;
            }
            Type t = footer;
            for (String step : physicalPath(schema, field.path())) {
              t = ((GroupType) t).getType(step);
            }
            assertThat(t.getId()).as("%s %d %s", f, v, field.path()).isNotNull();
            assertThat(t.getId().intValue()).isEqualTo(field.id());
          }
        }
        for (JsonNode cdc : f.actions(v, "cdc")) {
          assertThat(cdc.path("path").asText()).startsWith("_change_data/" + part + "=");
          assertThat(names(cdc.path("partitionValues")::fieldNames)).containsExactly(part);
          assertThat(ParquetFiles.schema(f.dir().resolve(cdc.path("path").asText())).containsField("_change_type"))
              .isTrue();
        }
      }
      assertThat(files).isEqualTo(12); // five appends of two partitions, the DELETE's two rewrites of p0
    }
  }

  private static List<String> physicalPath(Map<String, Field> schema, String logicalPath) {
    List<String> out = new ArrayList<>();
    String[] steps = logicalPath.split("\\.");
    for (int i = 0; i < steps.length; i++) {
      out.add(schema.get(String.join(".", java.util.Arrays.copyOf(steps, i + 1))).physical());
    }
    return out;
  }

  @Test
  void anUpgradedTableKeepsItsNamesAsPhysicalNamesAndItsOldFilesWithoutFieldIds() {
    DeltaFixtures.Fixture f = DeltaFixtures.columnMappingUpgraded();
    long upgrade = f.version("ALTER TABLE t SET TBLPROPERTIES");
    assertThat(f.protocol(0).toString()).isEqualTo("{\"minReaderVersion\":1,\"minWriterVersion\":4}");
    assertThat(f.protocol(upgrade).toString()).isEqualTo("{\"minReaderVersion\":2,\"minWriterVersion\":5}");
    Map<String, Field> mapped = fields(f, upgrade);
    assertThat(fields(f, 0).values()).allSatisfy(x -> assertThat(x.id()).isNull());
    assertThat(mapped.values()).allSatisfy(x -> assertThat(x.physical())
        .isEqualTo(x.path().substring(x.path().lastIndexOf('.') + 1)));
    assertThat(mapped.values().stream().map(Field::id).toList()).containsExactly(1, 2, 3, 4, 5, 6, 7);
    Map<String, Field> last = fields(f, f.latestVersion());
    assertThat(last.get("full_name").physical()).isEqualTo("name");
    assertThat(last.get("info.alpha").physical()).isEqualTo("a");
    assertThat(last.get("score").physical()).matches(UUID_NAME); // while the old files hold a column "score"
    assertThat(last.get("score").id()).isEqualTo(8);

    for (JsonNode add : f.actions(1, "add")) {
      assertThat(add.path("path").asText()).startsWith("part=");
      MessageType footer = ParquetFiles.schema(f.dir().resolve(add.path("path").asText()));
      assertThat(footer.getFields().stream().map(Type::getName).toList())
          .containsExactly("id", "name", "info", "score");
      assertThat(footer.getFields()).allSatisfy(t -> assertThat(t.getId()).isNull());
    }
    for (JsonNode add : f.actions(upgrade + 1, "add")) {
      MessageType footer = ParquetFiles.schema(f.dir().resolve(add.path("path").asText()));
      assertThat(footer.getFields().stream().map(Type::getName).toList())
          .containsExactly("id", "name", "info", "score");
      assertThat(footer.getFields().stream().map(t -> t.getId().intValue()).toList()).containsExactly(1, 2, 3, 6);
      assertThat(names(add.path("partitionValues")::fieldNames)).containsExactly("part");
    }
    long readd = f.version("ALTER TABLE t ADD COLUMNS");
    for (JsonNode add : f.actions(readd + 1, "add")) {
      MessageType footer = ParquetFiles.schema(f.dir().resolve(add.path("path").asText()));
      assertThat(footer.getFields().stream().map(Type::getName).toList())
          .containsExactly("id", "name", "info", last.get("score").physical());
    }
    // Delta: the re-added score is null in every older file, though those hold a physical column named "score"
    List<String> rows = f.snapshotRows(readd + 1);
    assertThat(rows).hasSize(60).allSatisfy(r -> {
      Map<String, Object> m = DeltaFixtures.parse(r);
      long id = ((Number) m.get("id")).longValue();
      assertThat(m.get("score")).as(r).isEqualTo(id >= 50 ? (Object) (int) (id * 10) : null);
      assertThat(m.get("full_name")).isEqualTo("n" + id);
    });
  }

  /** Delta's answers for the {@code name} fixture ({@code id} mode holds the same rows: later readers compare). */
  @Test
  void deltaReadsEveryVersionUnderItsOwnSchemaAndAnswersTheFeedOfEverySingleVersion() {
    for (DeltaFixtures.Fixture f : List.of(DeltaFixtures.columnMappingName())) {
      NavigableMap<Long, List<String>> snapshots = f.snapshotRowsByVersion();
      assertThat(snapshots.get(1L)).contains(
          "{\"id\":0,\"info\":{\"a\":0,\"b\":\"b0\"},\"name\":\"n0\",\"part\":\"p0\",\"score\":0}");
      long readd = f.version("ALTER TABLE t ADD COLUMNS");
      assertThat(snapshots.get(readd)).hasSize(40).allSatisfy(r -> assertThat(r).contains("\"score\":null"));
      assertThat(snapshots.get(f.latestVersion())).hasSize(45).contains(
          "{\"full_name\":\"n1\",\"id\":1,\"info\":{\"alpha\":1,\"b\":\"b1\"},\"part\":\"p1\",\"score\":null}",
          "{\"full_name\":\"n41\",\"id\":41,\"info\":{\"alpha\":1,\"b\":\"b41\"},\"part\":\"p1\",\"score\":410}");
      assertThat(f.changeFeedErrors()).isEmpty();
      NavigableMap<Long, List<String>> feed = f.changeFeedByVersion();
      assertThat(feed.keySet()).containsExactlyElementsOf(f.operations().keySet());
      assertThat(feed.get(f.version("ALTER TABLE t RENAME COLUMN name"))).isEmpty();
      assertThat(feed.get(f.version("ALTER TABLE t DROP"))).isEmpty();
      assertThat(feed.get(f.latestVersion())).hasSize(5).allSatisfy(r -> assertThat(r)
          .contains("\"_change_type\":\"delete\""));
      assertThat(new TreeSet<>(f.schemaByVersion().values())).hasSize(5);
    }
    // a range across a rename (or a drop) is refused
    String path = DeltaFixtures.columnMappingName().path();
    assertThatThrownBy(() -> DeltaFixtures.spark().read().format("delta").option("readChangeFeed", "true")
        .option("startingVersion", 1).option("endingVersion", 3).load(path).collectAsList())
        .hasMessageContaining("DELTA_CHANGE_DATA_FEED_INCOMPATIBLE_DATA_SCHEMA");
  }
}
