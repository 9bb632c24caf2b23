package io.sharestream.testkit.server;

import static io.sharestream.testkit.delta.DeltaType.field;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.DeltaType.StructType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small tables the server tests share. */
final class Fixtures {
  static final StructType EVENTS = DeltaType.struct(
      field("id", DeltaType.LONG, false),
      field("user", DeltaType.STRING),
      field("day", DeltaType.DATE));

  private Fixtures() {}

  static Map<String, Object> row(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  static List<Map<String, Object>> events(long from, long to) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(row("id", i, "user", "u" + (i % 3), "day", java.time.LocalDate.of(2024, 1, 1 + (int) (i % 28))));
    }
    return rows;
  }

  /** A table of 5 versions: create(0), append 0..10 in 2 files(1), append 10..15(2), delete id<3(3), compact(4). */
  static DeltaTableWriter fiveVersions(Path dir, boolean cdf) {
    DeltaTableWriter w = DeltaTableWriter.create(dir, EVENTS).changeDataFeed(cdf).commit();
    w.append(events(0, 10), 5);
    w.append(events(10, 15));
    w.deleteWhere(r -> (Long) r.get("id") < 3);
    w.compact();
    return w;
  }
}
