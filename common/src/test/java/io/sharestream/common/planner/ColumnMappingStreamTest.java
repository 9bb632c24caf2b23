package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.IncompatibleSchemaChangeException;
import io.sharestream.common.errors.InvalidDataFileException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.ParquetRows;
import io.sharestream.testkit.delta.ParquetSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §4b's column mapping: history read under the schema a stream starts with, by physical name (mode name) or
 * column id (mode id), nested fields and partition values too; a RENAME or DROP after the start stops a stream at
 * its version (Spark) or gives the versions from it the new schema (Kafka); a file without the table's physical
 * columns is refused.
 */
class ColumnMappingStreamTest {
  static final TableRef T = ServedTables.T;
  @TempDir Path tmp;
  final ServedTables served = new ServedTables();

  @AfterEach
  void stop() {
    served.close();
  }

  private DeltaSharingClient serve(DeltaTableWriter table, boolean history) {
    return served.serve(table, history);
  }

  private static SharingStreamPlanner planner(DeltaSharingClient client, StreamSettings settings) {
    return ServedTables.planner(client, settings);
  }

  /** Every row of every unit of the stream from {@code from}, read with the unit's schema, as nested maps. */
  private static List<Map<String, Object>> read(SharingStreamPlanner p, DeltaSharingClient client, Position from,
      List<Long> versions) {
    List<Map<String, Object>> out = new ArrayList<>();
    Position pos = from;
    for (int guard = 0; guard < 100; guard++) {
      StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.files(2));
      for (WorkUnit u : plan.units()) {
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> {
            out.add(map(c.row()));
            versions.add(u.version());
          });
        }
      }
      if (plan.end().equals(pos)) {
        break;
      }
      pos = plan.end();
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Row row) {
    Map<String, Object> m = new LinkedHashMap<>();
    StructType schema = row.schema();
    for (int i = 0; i < row.size(); i++) {
      m.put(schema.field(i).name(), value(row.get(i)));
    }
    return m;
  }

  private static Object value(Object v) {
    if (v instanceof Row) {
      return map((Row) v);
    }
    if (v instanceof List) {
      List<Object> l = new ArrayList<>();
      ((List<?>) v).forEach(x -> l.add(value(x)));
      return l;
    }
    if (v instanceof Map) {
      Map<Object, Object> m = new LinkedHashMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> m.put(value(k), value(x)));
      return m;
    }
    return v;
  }

  @Test
  void historyIsReadUnderTheStartSchemaByPhysicalNameOrColumnId() {
    for (String mode : List.of("name", "id")) {
      for (boolean dv : new boolean[] {true, false}) {
        DeltaTableWriter table = ColumnMappingMatrix.write(tmp.resolve(mode + dv), mode, dv);
        for (boolean history : new boolean[] {true, false}) {
          DeltaSharingClient client = serve(table, history);
          List<Long> versions = new ArrayList<>();
          List<Map<String, Object>> rows;
          try (SharingStreamPlanner p = planner(client, StreamOptions.parse(Map.of("startingVersion", "1")))) {
            rows = read(p, client, p.initialPosition(), versions);
          }
          List<Map<String, Object>> expected = new ArrayList<>();
          for (long id = 0; id < 8; id++) {
            expected.add(ColumnMappingMatrix.row(id, ColumnMappingMatrix.LATEST));
          }
          if (!dv) { // the DELETE of id 0 rewrote its file: the default mode emits its other row again
            expected.add(ColumnMappingMatrix.row(2, ColumnMappingMatrix.LATEST));
          }
          assertThat(rows).as("mode=%s dv=%s history=%s", mode, dv, history)
              .containsExactlyInAnyOrderElementsOf(expected);
          List<Long> appended = new ArrayList<>(List.of(1L, 3L, 5L, 7L, 9L, 12L));
          if (!dv) {
            appended.add(11L);
          }
          assertThat(versions).as("the rows' versions").containsOnlyElementsOf(appended).containsAll(appended);
        }
      }
    }
  }

  /** A column-mapped table at version 1 (ids 0, 1); the stream starts there; a rename and a drop come after. */
  private DeltaTableWriter renamedAfterTheStart(String dir) {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve(dir), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("name", DeltaType.STRING),
        DeltaType.field("note", DeltaType.STRING))).columnMapping("name").commit(); // 0
    t.append(List.of(row(0, "name", "a0", "note", "n0"), row(1, "name", "a1", "note", "n1"))); // 1
    return t;
  }

  private static Map<String, Object> row(long id, Object... values) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    for (int i = 0; i < values.length; i += 2) {
      r.put((String) values[i], values[i + 1]);
    }
    return r;
  }

  @Test
  void aRenameAfterTheStartStopsASparkStreamAtItsVersionAndARestartGoesOnWithTheNewSchema() {
    DeltaTableWriter table = renamedAfterTheStart("stop");
    DeltaSharingClient client = serve(table, true);
    SharingStreamPlanner p = planner(client, StreamOptions.parse(Map.of("startingVersion", "1")));
    table.append(List.of(row(2, "name", "a2", "note", "n2"))); // 2
    table.renameColumn("name", "full_name"); // 3
    table.append(List.of(row(3, "full_name", "a3", "note", "n3"))); // 4
    Position pos = p.initialPosition();
    StreamPlanner.Plan before = p.plan(pos, AdmissionLimits.UNLIMITED);
    assertThat(before.units()).extracting(WorkUnit::version).containsExactly(1L, 2L);
    assertThat(before.end()).isEqualTo(Position.beforeVersion(p.metadata().id(), 3, false));
    assertThatThrownBy(() -> p.plan(before.end(), AdmissionLimits.UNLIMITED))
        .isInstanceOf(IncompatibleSchemaChangeException.class)
        .hasMessageContaining("changed at version 3").hasMessageContaining("column 'name' was renamed to 'full_name'")
        .hasMessageContaining("Restart the stream");
    p.close();
    // a restart (the schema is now the latest) reads the rest from the same position
    List<Long> versions = new ArrayList<>();
    try (SharingStreamPlanner again = planner(client, StreamOptions.parse(Map.of()))) {
      assertThat(read(again, client, before.end(), versions))
          .containsExactly(row(3, "full_name", "a3", "note", "n3"));
    }
  }

  @Test
  void aRenameOrDropAfterTheStartGivesKafkaTheNewSchemaFromItsVersion() {
    DeltaTableWriter table = renamedAfterTheStart("evolve");
    DeltaSharingClient client = serve(table, true);
    StreamSettings kafka = StreamOptions.parse(Map.of("startingVersion", "1")).evolvingOnRenameOrDrop();
    try (SharingStreamPlanner p = planner(client, kafka)) {
      table.renameColumn("name", "full_name"); // 2
      table.append(List.of(row(2, "full_name", "a2", "note", "n2"))); // 3
      table.dropColumn("note"); // 4
      table.append(List.of(row(3, "full_name", "a3"))); // 5
      List<Long> versions = new ArrayList<>();
      List<Map<String, Object>> rows = read(p, client, p.initialPosition(), versions);
      assertThat(rows).containsExactly(row(0, "name", "a0", "note", "n0"), row(1, "name", "a1", "note", "n1"),
          row(2, "full_name", "a2", "note", "n2"), row(3, "full_name", "a3"));
      assertThat(versions).containsExactly(1L, 1L, 3L, 5L);
    }
  }

  @Test
  void aFileWithoutTheTablesPhysicalColumnsIsRefusedNamingIt() throws Exception {
    DeltaTableWriter table = renamedAfterTheStart("foreign");
    // a file written under the logical names (not for this table's mapping), added by hand
    Path file = table.dir().resolve("foreign.parquet");
    ParquetRows.write(file, DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
        DeltaType.field("name", DeltaType.STRING)), List.of(row(9, "name", "x")),
        ParquetSchemas.TimestampEncoding.INT96, 1 << 20);
    table.commitActions("WRITE", List.of(new DeltaAction.AddFile("foreign.parquet", Map.of(), Files.size(file),
        System.currentTimeMillis(), true, null))); // 2
    DeltaSharingClient client = serve(table, true);
    try (SharingStreamPlanner p = planner(client, StreamOptions.parse(Map.of("startingVersion", "2")))) {
      WorkUnit u = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units().get(0);
      assertThatThrownBy(() -> UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0).hasNext())
          .isInstanceOf(InvalidDataFileException.class).hasMessageContaining(u.describe())
          .hasMessageContaining("physical names").hasMessageContaining("[id, name]");
    }
  }
}
