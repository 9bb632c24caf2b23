package io.sharestream.testkit.delta;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SPEC §4's matrix as a fixture every engine's tests share: a table with every kind of commit, and the rows each
 * mode must emit from it, written {@code id:changeType@version/name}.
 *
 * <p>Versions: 0 create; 1 append ids 0-5 in files {0,1,2} {3,4,5}; 2 append 6-8; 3 update id 4 (name u4 to x4);
 * 4 delete id 0; 5 OPTIMIZE; 6 add column score; 7 append 9, 10 with scores.
 */
public final class ChangeMatrix {
  public static final DeltaType.StructType SCHEMA = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("name", DeltaType.STRING));
  /** The table's latest version. */
  public static final long LATEST = 7;

  /** The three ways change commits are read. */
  public enum Mode {
    SKIP_CHANGE_COMMITS(Map.of("skipChangeCommits", "true")),
    DEFAULT(Map.of()),
    READ_CHANGE_FEED(Map.of("readChangeFeed", "true"));

    /** The stream options of the mode (besides where to start). */
    public final Map<String, String> options;

    Mode(Map<String, String> options) {
      this.options = options;
    }
  }

  private ChangeMatrix() {}

  /** Writes the table at {@code dir}, with the change data feed recorded or not. */
  public static DeltaTableWriter write(Path dir, boolean changeDataFeed) {
    DeltaTableWriter table = DeltaTableWriter.create(dir, SCHEMA).changeDataFeed(changeDataFeed).commit(); // 0
    table.append(rows(0, 6), 3); // 1
    table.append(rows(6, 9)); // 2
    table.updateWhere(r -> r.get("id").equals(4L), r -> {
      r.put("name", "x4");
      return r;
    }); // 3
    table.deleteWhere(r -> r.get("id").equals(0L)); // 4
    table.compact(); // 5
    table.addColumn(DeltaType.field("score", DeltaType.DOUBLE)); // 6
    List<Map<String, Object>> scored = rows(9, 11);
    scored.forEach(r -> r.put("score", 1.5));
    table.append(scored); // 7
    return table;
  }

  /** Rows {@code id} in [from, to) named {@code u<id>}. */
  public static List<Map<String, Object>> rows(long from, long to) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", i);
      r.put("name", "u" + i);
      out.add(r);
    }
    return out;
  }

  /** What a stream started at version 0 or 1 emits in {@code mode}, in stream order (see {@link #canonical}). */
  public static List<String> expected(Mode mode, boolean changeDataFeed) {
    List<String> out = new ArrayList<>(List.of("0:insert@1/u0", "1:insert@1/u1", "2:insert@1/u2", "3:insert@1/u3",
        "4:insert@1/u4", "5:insert@1/u5", "6:insert@2/u6", "7:insert@2/u7", "8:insert@2/u8"));
    switch (mode) {
      case SKIP_CHANGE_COMMITS:
        break;
      case DEFAULT:
        // new row images: the post-image from change data, else every row of the files a change commit added
        out.addAll(changeDataFeed ? List.of("4:update_postimage@3/x4")
            : List.of("3:insert@3/u3", "4:insert@3/x4", "5:insert@3/u5", "1:insert@4/u1", "2:insert@4/u2"));
        break;
      case READ_CHANGE_FEED:
      default:
        out.addAll(changeDataFeed
            ? List.of("4:update_preimage@3/u4", "4:update_postimage@3/x4", "0:delete@4/u0")
            : List.of("3:delete@3/u3", "4:delete@3/u4", "5:delete@3/u5", "3:insert@3/u3", "4:insert@3/x4",
                "5:insert@3/u5", "0:delete@4/u0", "1:delete@4/u1", "2:delete@4/u2", "1:insert@4/u1",
                "2:insert@4/u2"));
        break;
    }
    out.addAll(List.of("9:insert@7/u9", "10:insert@7/u10"));
    return out;
  }

  /**
   * A comparable form of a row flow: versions in stream order, each with its rows sorted (within a version, rows
   * follow the files' ids, which differ from table to table). Two flows are the same when their forms are equal.
   */
  public static String canonical(List<String> rows) {
    List<String> versions = new ArrayList<>();
    Map<String, List<String>> byVersion = new TreeMap<>();
    for (String r : rows) {
      String v = r.replaceAll(".*@(\\d+).*", "$1");
      if (versions.isEmpty() || !versions.get(versions.size() - 1).equals(v)) {
        versions.add(v);
      }
      byVersion.computeIfAbsent(v, k -> new ArrayList<>()).add(r);
    }
    StringBuilder b = new StringBuilder();
    for (String v : versions) {
      List<String> rs = byVersion.get(v);
      rs.sort(null);
      b.append("v").append(v).append(' ').append(rs).append('\n');
    }
    return b.toString();
  }
}
