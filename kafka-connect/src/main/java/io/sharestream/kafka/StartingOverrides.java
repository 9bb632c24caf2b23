package io.sharestream.kafka;

import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.profile.TableRef;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Per-table starting points ({@value DeltaSharingSourceConfig#STARTING_OVERRIDES}): {@code <share>.<schema>.<table>=
 * <start>} entries, comma-separated, where a start is what {@code startingVersion} takes (latest, snapshot,
 * earliest, a version) or what {@code startingTimestamp} takes (an ISO-8601 instant). Like those options, a start is
 * used only by a table without stored offsets; a table named here need not be selected yet (discovery may bring it
 * later).
 */
final class StartingOverrides {
  private static final Pattern VERSION_FORM = Pattern.compile("latest|snapshot|earliest|\\d+");

  private StartingOverrides() {}

  /** The stream options each table listed in {@code spec} starts with ({@code startingVersion} or the timestamp). */
  static Map<TableRef, Map<String, String>> parse(String spec) {
    if (spec == null || spec.trim().isEmpty()) {
      return Collections.emptyMap();
    }
    Map<TableRef, Map<String, String>> out = new LinkedHashMap<>();
    for (String entry : spec.split(",")) {
      if (entry.trim().isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw invalid(spec, "each entry must be <share>.<schema>.<table>=<start>, not '" + entry.trim() + "'");
      }
      TableRef table;
      try {
        table = TableRef.parse(entry.substring(0, eq).trim(), "'" + DeltaSharingSourceConfig.STARTING_OVERRIDES + "'");
      } catch (DeltaSharingException e) {
        throw invalid(spec, e.getMessage());
      }
      String start = entry.substring(eq + 1).trim();
      String option = VERSION_FORM.matcher(start).matches() ? StreamOptions.STARTING_VERSION
          : StreamOptions.STARTING_TIMESTAMP;
      try {
        StreamOptions.parse(Collections.singletonMap(option, start));
      } catch (DeltaSharingException e) {
        throw invalid(spec, "table " + table + " starts at '" + start + "', which is neither latest, snapshot, "
            + "earliest, a version nor an ISO-8601 instant");
      }
      if (out.put(table, Collections.singletonMap(option, start)) != null) {
        throw invalid(spec, "table " + table + " is listed twice");
      }
    }
    return out;
  }

  private static ConfigException invalid(String spec, String why) {
    return new ConfigException(DeltaSharingSourceConfig.STARTING_OVERRIDES, spec, why);
  }

  /** Checks the setting as {@link #parse} reads it. */
  static final class Validator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      parse(value == null ? null : value.toString());
    }

    @Override
    public String toString() {
      return "<share>.<schema>.<table>=<latest|snapshot|earliest|version|ISO-8601 instant>, comma-separated";
    }
  }
}
