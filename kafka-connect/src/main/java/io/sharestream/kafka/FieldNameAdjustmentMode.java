package io.sharestream.kafka;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which field names records carry (Debezium's {@code field.name.adjustment.mode} convention): the table's own
 * column names, or names Avro accepts.
 */
public enum FieldNameAdjustmentMode {
  /** The table's names exactly as they are ({@code display name}, {@code event-type}): for JSON and similar. */
  NONE {
    @Override
    List<String> adjust(List<String> names) {
      return names;
    }
  },
  /**
   * Valid, unique Avro names, deterministically: characters outside {@code [A-Za-z0-9_]} become {@code _}, a leading
   * digit gets a {@code _} prefix, clashes get {@code _2}, {@code _3}, ... in column order.
   */
  AVRO {
    @Override
    List<String> adjust(List<String> names) {
      return ConnectSchemas.avroNames(names);
    }
  };

  /** The record field names of columns {@code names}, in order. */
  abstract List<String> adjust(List<String> names);

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  static String[] configValues() {
    return Arrays.stream(values()).map(FieldNameAdjustmentMode::configValue).toArray(String[]::new);
  }

  static FieldNameAdjustmentMode parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
