package io.sharestream.kafka;

import io.sharestream.common.errors.InvalidPositionException;
import io.sharestream.common.planner.Position;
import io.sharestream.common.profile.TableRef;
import java.util.Locale;
import java.util.Map;

/**
 * Source partitions and offsets (SPEC §5): the partition {@code {"table": "<share>.<schema>.<table>"}} (in lower
 * case: names are case-insensitive, so a config spelled differently keeps its offsets), the offset
 * the core's {@link Position} map {@code {offsetFormat, tableId, tableVersion, index, row, isStartingVersion}}.
 */
final class SourceOffsets {
  static final String TABLE = "table";

  private SourceOffsets() {}

  static Map<String, String> partition(TableRef table) {
    return Map.of(TABLE, table.toString().toLowerCase(Locale.ROOT));
  }

  /** The table a stored partition names; fails on a partition this connector did not write. */
  static TableRef table(Map<String, ?> partition) {
    Object t = partition == null ? null : partition.get(TABLE);
    if (!(t instanceof String)) {
      throw new InvalidPositionException("The source partition " + partition + " is not one of this connector's: "
          + "it must be {\"" + TABLE + "\": \"<share>.<schema>.<table>\"}.");
    }
    return TableRef.parse((String) t, "the source partition's '" + TABLE + "'");
  }

  /** A stored offset read back and checked; null when there is none. */
  static Position position(Map<String, ?> offset, TableRef table) {
    if (offset == null) {
      return null;
    }
    try {
      return Position.fromMap(offset);
    } catch (InvalidPositionException e) {
      throw new InvalidPositionException("The stored offset of " + table + " cannot be used: " + e.getMessage());
    }
  }
}
