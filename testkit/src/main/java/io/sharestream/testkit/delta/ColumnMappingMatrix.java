package io.sharestream.testkit.delta;

import static io.sharestream.testkit.delta.DeltaType.field;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SPEC §4b's column mapping case as a fixture every engine's tests share: a table (mode {@code name} or {@code id},
 * with or without deletion vectors) whose columns are renamed, dropped and re-added, and the rows Delta reads at each
 * version, under that version's own schema and under the latest one.
 *
 * <p>Schema at version 0: {@code id long not null, name string, info struct<city string, zip int>,
 * items array<struct<sku string, qty int>>, attrs map<string,long>, note string, region string}, partitioned by
 * {@code region}. Row {@code i}: name {@code n<i>}, info {@code {c<i>, i}}, items {@code [{s<i>, i}]}, attrs
 * {@code {k: i}}, note {@code note<i>}, region {@code US} when {@code i % 3 == 1}, else {@code EU}.
 *
 * <p>Versions: 0 create; 1 append ids 0, 1, 2 (files EU {0,2} and US {1}); 2 RENAME name to full_name; 3 append 3;
 * 4 RENAME info.city to info.town; 5 append 4; 6 DROP note; 7 append 5 (no note); 8 ADD note (a new column with a
 * new physical name: null in every older file); 9 append 6 (with the new note); 10 RENAME the partition column
 * region to area; 11 DELETE id 0 (a DV on the EU file of version 1, or a rewrite of it without DVs); 12 append 7.
 */
public final class ColumnMappingMatrix {
  public static final DeltaType.StructType SCHEMA = DeltaType.struct(
      field("id", DeltaType.LONG, false),
      field("name", DeltaType.STRING),
      field("info", DeltaType.struct(field("city", DeltaType.STRING), field("zip", DeltaType.INTEGER))),
      field("items", DeltaType.array(DeltaType.struct(field("sku", DeltaType.STRING),
          field("qty", DeltaType.INTEGER)), true)),
      field("attrs", DeltaType.map(DeltaType.STRING, DeltaType.LONG, true)),
      field("note", DeltaType.STRING),
      field("region", DeltaType.STRING));
  /** The table's latest version. */
  public static final long LATEST = 12;

  private ColumnMappingMatrix() {}

  /** Writes the table at {@code dir} with column mapping {@code mode} ({@code name} or {@code id}). */
  public static DeltaTableWriter write(Path dir, String mode, boolean deletionVectors) {
    DeltaTableWriter t = DeltaTableWriter.create(dir, SCHEMA).partitionedBy("region").columnMapping(mode)
        .deletionVectors(deletionVectors).commit(); // 0
    t.append(written(0, 3, 1)); // 1
    t.renameColumn("name", "full_name"); // 2
    t.append(written(3, 4, 3)); // 3
    t.renameColumn("info.city", "town"); // 4
    t.append(written(4, 5, 5)); // 5
    t.dropColumn("note"); // 6
    t.append(written(5, 6, 7)); // 7
    t.addColumn(field("note", DeltaType.STRING)); // 8
    t.append(written(6, 7, 9)); // 9
    t.renameColumn("region", "area"); // 10
    t.deleteWhere(r -> r.get("id").equals(0L)); // 11
    t.append(written(7, 8, 12)); // 12
    return t;
  }

  private static List<Map<String, Object>> written(long from, long to, long version) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(row(i, version));
    }
    return out;
  }

  /** The live rows at {@code version} under that version's schema, by id. */
  public static List<Map<String, Object>> rowsAt(long version) {
    return rows(version, version);
  }

  /**
   * The live rows at {@code version} under the latest schema: old values under current names, the dropped note
   * absent, the re-added note null in files written before it was added.
   */
  public static List<Map<String, Object>> rowsAtUnderLatestSchema(long version) {
    return rows(version, LATEST);
  }

  private static List<Map<String, Object>> rows(long version, long schemaVersion) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = 0; i < 8; i++) {
      if (version >= appendedAt(i) && !(i == 0 && version >= 11)) {
        out.add(row(i, schemaVersion));
      }
    }
    return out;
  }

  private static long appendedAt(long id) {
    return id < 3 ? 1 : new long[] {3, 5, 7, 9, 12}[(int) id - 3];
  }

  /** Row {@code id} as Delta reads it under the schema of {@code schemaVersion} (every column, nulls included). */
  public static Map<String, Object> row(long id, long schemaVersion) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    r.put(schemaVersion < 2 ? "name" : "full_name", "n" + id);
    Map<String, Object> info = new LinkedHashMap<>();
    info.put(schemaVersion < 4 ? "city" : "town", "c" + id);
    info.put("zip", (int) id);
    r.put("info", info);
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("sku", "s" + id);
    item.put("qty", (int) id);
    r.put("items", List.of(item));
    r.put("attrs", Map.of("k", id));
    if (schemaVersion < 6) {
      r.put("note", "note" + id);
    } else if (schemaVersion >= 8) {
      r.put("note", appendedAt(id) >= 9 ? "note" + id : null);
    }
    r.put(schemaVersion < 10 ? "region" : "area", id % 3 == 1 ? "US" : "EU");
    return r;
  }
}
