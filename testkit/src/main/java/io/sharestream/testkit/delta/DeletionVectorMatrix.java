package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.ChangeMatrix.Mode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SPEC §4b's matrix as a fixture every engine's tests share: a table with deletion vectors and every kind of commit
 * over them, the rows each mode must emit ({@code id:changeType@version/name}, as {@link ChangeMatrix}) and the live
 * rows at each version.
 *
 * <p>Versions (schema {@code id long not null, name string}, names {@code u<id>}): 0 create with deletion vectors;
 * 1 append ids 0-5, three rows per file: A {0,1,2}, B {3,4,5}; 2 append 6-8: C; 3 DELETE id 1 (remove A, add A with
 * DV {1}); 4 DELETE id 2 (remove A with DV {1}, add A with DV {1,2}); 5 UPDATE id 4 to name x4 (remove B, add B with
 * DV {1}, add D {4:x4}; update pre/post images in change data files with the change data feed); 6 DELETE ids 6, 7, 8
 * (remove C only: all its rows go); 7 OPTIMIZE (the live rows 0, 3, 5, 4:x4 rewritten into one file,
 * {@code dataChange=false}); 8 append 9, 10. DELETEs write no change data files, as Delta does with DVs.
 */
public final class DeletionVectorMatrix {
  public static final DeltaType.StructType SCHEMA = ChangeMatrix.SCHEMA;
  /** The table's latest version. */
  public static final long LATEST = 8;

  private DeletionVectorMatrix() {}

  /** Writes the table at {@code dir}; DVs inline in the log or in {@code deletion_vector_*.bin} files. */
  public static DeltaTableWriter write(Path dir, boolean changeDataFeed, boolean inline) {
    DeltaTableWriter table = DeltaTableWriter.create(dir, SCHEMA).changeDataFeed(changeDataFeed)
        .deletionVectors(true).inlineDeletionVectors(inline).commit(); // 0
    table.append(ChangeMatrix.rows(0, 6), 3); // 1
    table.append(ChangeMatrix.rows(6, 9)); // 2
    table.deleteWhere(r -> r.get("id").equals(1L)); // 3
    table.deleteWhere(r -> r.get("id").equals(2L)); // 4
    table.updateWhere(r -> r.get("id").equals(4L), r -> {
      r.put("name", "x4");
      return r;
    }); // 5
    table.deleteWhere(r -> (Long) r.get("id") >= 6); // 6
    table.compact(); // 7
    table.append(ChangeMatrix.rows(9, 11)); // 8
    return table;
  }

  /** What a stream started at version 0 or 1 emits in {@code mode}, in stream order (see ChangeMatrix#canonical). */
  public static List<String> expected(Mode mode, boolean changeDataFeed) {
    List<String> out = new ArrayList<>(List.of("0:insert@1/u0", "1:insert@1/u1", "2:insert@1/u2", "3:insert@1/u3",
        "4:insert@1/u4", "5:insert@1/u5", "6:insert@2/u6", "7:insert@2/u7", "8:insert@2/u8"));
    switch (mode) {
      case SKIP_CHANGE_COMMITS:
        break;
      case DEFAULT:
        // the new row images: B re-added with a grown DV brings no rows, D brings the updated row
        out.add(changeDataFeed ? "4:update_postimage@5/x4" : "4:insert@5/x4");
        break;
      case READ_CHANGE_FEED:
      default:
        out.addAll(List.of("1:delete@3/u1", "2:delete@4/u2"));
        out.addAll(changeDataFeed ? List.of("4:update_preimage@5/u4", "4:update_postimage@5/x4")
            : List.of("4:delete@5/u4", "4:insert@5/x4"));
        out.addAll(List.of("6:delete@6/u6", "7:delete@6/u7", "8:delete@6/u8"));
        break;
    }
    out.addAll(List.of("9:insert@8/u9", "10:insert@8/u10"));
    return out;
  }

  /** The live rows at {@code version} as {@code id/name}, by id. */
  public static List<String> rowsAt(long version) {
    Map<Long, String> rows = new TreeMap<>();
    if (version >= 1) {
      for (long i = 0; i < 6; i++) {
        rows.put(i, "u" + i);
      }
    }
    if (version >= 2) {
      for (long i = 6; i < 9; i++) {
        rows.put(i, "u" + i);
      }
    }
    if (version >= 3) {
      rows.remove(1L);
    }
    if (version >= 4) {
      rows.remove(2L);
    }
    if (version >= 5) {
      rows.put(4L, "x4");
    }
    if (version >= 6) {
      rows.keySet().removeIf(id -> id >= 6);
    }
    if (version >= 8) {
      rows.put(9L, "u9");
      rows.put(10L, "u10");
    }
    List<String> out = new ArrayList<>();
    rows.forEach((id, name) -> out.add(id + "/" + name));
    return out;
  }
}
