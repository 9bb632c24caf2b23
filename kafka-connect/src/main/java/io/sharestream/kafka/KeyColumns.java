package io.sharestream.kafka;

import static io.sharestream.kafka.DeltaSharingSourceConfig.KEY_COLUMNS;

import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.profile.TableRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/** Record key columns per table ({@value DeltaSharingSourceConfig#KEY_COLUMNS}). */
final class KeyColumns {
  private KeyColumns() {}

  /** The key columns of each table {@code spec} lists, in order ({@code s.sc.t:a,b;s.sc.u:c}). */
  static Map<TableRef, List<String>> parse(String spec) {
    Map<TableRef, List<String>> out = new LinkedHashMap<>();
    if (spec == null || spec.trim().isEmpty()) {
      return out;
    }
    for (String entry : spec.split(";")) {
      if (entry.trim().isEmpty()) {
        continue;
      }
      int colon = entry.lastIndexOf(':');
      if (colon < 0) {
        throw new ConfigException(KEY_COLUMNS, spec, "each entry must be <share>.<schema>.<table>:<column>[,...], "
            + "not '" + entry.trim() + "'");
      }
      TableRef table = TableRef.parse(entry.substring(0, colon).trim(), "'" + KEY_COLUMNS + "'");
      List<String> columns = new ArrayList<>();
      for (String c : entry.substring(colon + 1).split(",")) {
        if (!c.trim().isEmpty() && !columns.contains(c.trim())) {
          columns.add(c.trim());
        }
      }
      if (columns.isEmpty()) {
        throw new ConfigException(KEY_COLUMNS, spec, "table " + table + " lists no key column");
      }
      if (out.put(table, columns) != null) {
        throw new ConfigException(KEY_COLUMNS, spec, "table " + table + " is listed twice");
      }
    }
    return out;
  }

  /** Checks the setting as {@link #parse} reads it. */
  static final class Validator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        parse(value == null ? null : value.toString());
      } catch (DeltaSharingException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "<share>.<schema>.<table>:<column>[,<column>...][;...]";
    }
  }
}
