package io.sharestream.common.planner;

import io.sharestream.common.types.Row;

/** A row read from a work unit: its values, its change type, and its ordinal in the file (for positions). */
public final class ChangeRow {
  private final Row row;
  private final String changeType;
  private final long rowIndex;

  public ChangeRow(Row row, String changeType, long rowIndex) {
    this.row = row;
    this.changeType = changeType;
    this.rowIndex = rowIndex;
  }

  /** The values, typed by the read schema (without {@code _change_type}). */
  public Row row() {
    return row;
  }

  /** {@code insert}, {@code delete}, {@code update_preimage} or {@code update_postimage}. */
  public String changeType() {
    return changeType;
  }

  /** Ordinal of the row in its file (0-based). */
  public long rowIndex() {
    return rowIndex;
  }

  @Override
  public String toString() {
    return changeType + "#" + rowIndex + " " + row;
  }
}
