package io.sharestream.cli;

import io.sharestream.common.planner.ChangeRow;
import io.sharestream.common.planner.ChangeTypes;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.time.Instant;

/**
 * A change row as readChangeFeed gives it (SPEC §4): the table's columns, then {@code _change_type},
 * {@code _commit_version} and {@code _commit_timestamp}.
 */
final class ChangeColumns {
  private StructType base;
  private StructType extended;

  /** {@code schema} with the three change columns at the end. */
  static StructType of(StructType schema) {
    return schema.add(new StructField(ChangeTypes.CHANGE_TYPE_COLUMN, PrimitiveType.STRING, false),
        new StructField(ChangeTypes.COMMIT_VERSION_COLUMN, PrimitiveType.LONG, false),
        new StructField(ChangeTypes.COMMIT_TIMESTAMP_COLUMN, PrimitiveType.TIMESTAMP, false));
  }

  /** {@code row} of {@code unit} with its change type and commit. */
  Row add(WorkUnit unit, ChangeRow row) {
    Row r = row.row();
    if (r.schema() != base) {
      base = r.schema();
      extended = of(base);
    }
    Object[] values = new Object[extended.size()];
    for (int i = 0; i < r.size(); i++) {
      values[i] = r.get(i);
    }
    values[r.size()] = row.changeType();
    values[r.size() + 1] = unit.version();
    values[r.size() + 2] = Instant.ofEpochMilli(unit.commitTimestamp());
    return new Row(extended, values);
  }
}
