package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.Primitive;
import io.sharestream.testkit.delta.DeltaType.StructType;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * Per-file statistics as Delta writes them: {@code numRecords}, {@code nullCount}, min/max of simple columns, and on
 * tables with deletion vectors {@code tightBounds}.
 */
final class Stats {
  private Stats() {}

  static String of(StructType schema, List<Map<String, Object>> rows) {
    return of(schema, rows, null);
  }

  /** The stats of a new file; {@code tightBounds} is added when not null. */
  static String of(StructType schema, List<Map<String, Object>> rows, Boolean tightBounds) {
    ObjectNode stats = DeltaAction.JSON.createObjectNode();
    stats.put("numRecords", rows.size());
    ObjectNode min = stats.putObject("minValues");
    ObjectNode max = stats.putObject("maxValues");
    ObjectNode nulls = stats.putObject("nullCount");
    for (Field f : schema.fields) {
      long nullCount = rows.stream().filter(r -> r.get(f.name) == null).count();
      if (!(f.type instanceof Primitive)) {
        continue;
      }
      nulls.put(f.name, nullCount);
      String type = ((Primitive) f.type).name;
      if (!List.of("byte", "short", "integer", "long", "string", "date").contains(type)) {
        continue;
      }
      Comparable<Object> lo = null;
      Comparable<Object> hi = null;
      for (Map<String, Object> r : rows) {
        @SuppressWarnings("unchecked")
        Comparable<Object> v = (Comparable<Object>) r.get(f.name);
        if (v == null) {
          continue;
        }
        lo = lo == null || v.compareTo(lo) < 0 ? v : lo;
        hi = hi == null || v.compareTo(hi) > 0 ? v : hi;
      }
      if (lo != null) {
        put(min, f.name, lo);
        put(max, f.name, hi);
      }
    }
    if (tightBounds != null) {
      stats.put("tightBounds", tightBounds);
    }
    return stats.toString();
  }

  /**
   * The stats of a file re-added with a grown deletion vector: the same {@code numRecords} (physical rows) and
   * bounds, which may now be wider than the live rows ({@code tightBounds=false}).
   */
  static String looseBounds(String stats) {
    if (stats == null) {
      return null;
    }
    try {
      ObjectNode n = (ObjectNode) DeltaAction.JSON.readTree(stats);
      n.put("tightBounds", false);
      return n.toString();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("stats are not JSON: " + stats, e);
    }
  }

  private static void put(ObjectNode n, String name, Object v) {
    if (v instanceof Number) {
      n.put(name, ((Number) v).longValue());
    } else if (v instanceof LocalDate) {
      n.put(name, v.toString());
    } else {
      String s = v.toString();
      n.put(name, s.length() > 32 ? s.substring(0, 32) : s);
    }
  }
}
