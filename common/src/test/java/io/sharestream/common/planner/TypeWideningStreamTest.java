package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.IncompatibleSchemaChangeException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta's type widening: files written before a column was widened keep its narrow type and are read as the wide
 * one, exactly as Delta casts them; a widening committed while a stream runs stops it at its version (Spark) or gives
 * the versions from it the wide schema (Kafka).
 */
class TypeWideningStreamTest {
  static final DeltaType.StructType NARROW = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("b", DeltaType.BYTE), DeltaType.field("s", DeltaType.SHORT), DeltaType.field("i", DeltaType.INTEGER),
      DeltaType.field("i2d", DeltaType.INTEGER), DeltaType.field("f", DeltaType.FLOAT),
      DeltaType.field("d", DeltaType.decimal(5, 2)), DeltaType.field("i2dec", DeltaType.INTEGER),
      DeltaType.field("l2dec", DeltaType.LONG), DeltaType.field("day", DeltaType.DATE),
      DeltaType.field("nested", DeltaType.struct(DeltaType.field("x", DeltaType.INTEGER))));

  @TempDir Path tmp;
  final ServedTables served = new ServedTables();

  @AfterEach
  void stop() {
    served.close();
  }

  private static Map<String, Object> narrowRow(long id) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    r.put("b", (byte) -id);
    r.put("s", (short) (1000 + id));
    r.put("i", Integer.MAX_VALUE - (int) id);
    r.put("i2d", (int) id * 3);
    r.put("f", 1.5f + id);
    r.put("d", new BigDecimal("-999.9" + id));
    r.put("i2dec", (int) id + 5);
    r.put("l2dec", Long.MIN_VALUE + id);
    r.put("day", LocalDate.of(2024, 2, 28).plusDays(id));
    r.put("nested", Map.of("x", (int) id - 7));
    return r;
  }

  private static Map<String, Object> wideRow(long id) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    r.put("b", (short) -id);
    r.put("s", 1000 + (int) id);
    r.put("i", (long) Integer.MAX_VALUE - id);
    r.put("i2d", id * 3.0);
    r.put("f", 1.5d + id);
    r.put("d", new BigDecimal("-999.9" + id + "00"));
    r.put("i2dec", new BigDecimal((id + 5) + ".00"));
    r.put("l2dec", new BigDecimal(Long.MIN_VALUE + id).setScale(2));
    r.put("day", LocalDate.of(2024, 2, 28).plusDays(id).atStartOfDay());
    r.put("nested", Map.of("x", id - 7));
    return r;
  }

  /** Widens every column of {@link #NARROW} but {@code id}: one commit each. */
  private static void widen(DeltaTableWriter table) {
    table.widenColumn("b", DeltaType.SHORT);
    table.widenColumn("s", DeltaType.INTEGER);
    table.widenColumn("i", DeltaType.LONG);
    table.widenColumn("i2d", DeltaType.DOUBLE);
    table.widenColumn("f", DeltaType.DOUBLE);
    table.widenColumn("d", DeltaType.decimal(10, 4));
    table.widenColumn("i2dec", DeltaType.decimal(12, 2));
    table.widenColumn("l2dec", DeltaType.decimal(22, 2));
    table.widenColumn("day", DeltaType.TIMESTAMP_NTZ);
    table.widenColumn("nested.x", DeltaType.LONG);
  }

  private static List<Map<String, Object>> read(SharingStreamPlanner p, DeltaSharingClient client, Position from) {
    List<Map<String, Object>> out = new ArrayList<>();
    Position pos = from;
    for (int guard = 0; guard < 100; guard++) {
      StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.UNLIMITED);
      for (WorkUnit u : plan.units()) {
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> out.add(ColumnMappingStreamTest.map(c.row())));
        }
      }
      if (plan.end().equals(pos)) {
        break;
      }
      pos = plan.end();
    }
    return out;
  }

  @Test
  void filesWrittenBeforeAWideningAreReadUnderTheWideTypesExactlyAsDeltaCastsThem() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), NARROW).commit(); // 0
    table.append(List.of(narrowRow(0), narrowRow(1))); // 1
    widen(table); // 2..11
    table.append(List.of(wideRow(2))); // 12
    DeltaSharingClient client = served.serve(table, true);

    try (SharingStreamPlanner p = ServedTables.planner(client, StreamOptions.parse(Map.of("startingVersion", "0")))) {
      assertThat(read(p, client, p.initialPosition())).containsExactly(wideRow(0), wideRow(1), wideRow(2));
    }
    try (SharingStreamPlanner p = ServedTables.planner(client, StreamOptions.parse(
        Map.of("startingVersion", "snapshot")))) {
      assertThat(read(p, client, p.initialPosition())).containsExactlyInAnyOrder(wideRow(0), wideRow(1), wideRow(2));
    }
  }

  @Test
  void aWideningWhileStreamingStopsASparkStreamAtItsVersionAndGivesKafkaTheWideSchemaFromIt() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), NARROW).commit(); // 0
    table.append(List.of(narrowRow(0))); // 1
    DeltaSharingClient client = served.serve(table, true);
    StreamSettings spark = StreamOptions.parse(Map.of("startingVersion", "1"));
    StreamSettings kafka = spark.evolvingOnRenameOrDrop();
    try (SharingStreamPlanner s = ServedTables.planner(client, spark);
        SharingStreamPlanner k = ServedTables.planner(client, kafka)) {
      table.widenColumn("i", DeltaType.LONG); // 2
      table.append(List.of(Map.of("id", 1L, "i", 7L))); // 3

      StreamPlanner.Plan first = s.plan(s.initialPosition(), AdmissionLimits.UNLIMITED);
      assertThat(first.units()).extracting(WorkUnit::version).containsExactly(1L);
      assertThatThrownBy(() -> s.plan(first.end(), AdmissionLimits.UNLIMITED))
          .isInstanceOf(IncompatibleSchemaChangeException.class).hasMessageContaining("at version 2")
          .hasMessageContaining("column 'i' widened from integer to long")
          .hasMessageContaining("Restart the stream");

      List<Map<String, Object>> rows = read(k, client, k.initialPosition());
      assertThat(rows).hasSize(2);
      assertThat(rows.get(0).get("i")).isEqualTo(Integer.MAX_VALUE);
      assertThat(rows.get(1).get("i")).isEqualTo(7L);
    }
    // a restart reads the rest with the wide schema
    try (SharingStreamPlanner again = ServedTables.planner(client, StreamOptions.parse(Map.of("startingVersion",
        "2")))) {
      assertThat(read(again, client, again.initialPosition())).extracting(r -> r.get("i")).containsExactly(7L);
    }
  }

  @Test
  void aTypeChangeDeltaDoesNotAllowFailsNamingTheColumn() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), NARROW).commit(); // 0
    table.append(List.of(narrowRow(0))); // 1
    table.widenColumn("i", DeltaType.STRING); // 2: not a widening
    DeltaSharingClient client = served.serve(table, true);
    try (SharingStreamPlanner p = ServedTables.planner(client, StreamOptions.parse(Map.of("startingVersion", "0")))) {
      assertThatThrownBy(() -> read(p, client, p.initialPosition())).isInstanceOf(IncompatibleSchemaChangeException.class)
          .hasMessageContaining("column 'i' changed type from string to integer");
    }
  }
}
