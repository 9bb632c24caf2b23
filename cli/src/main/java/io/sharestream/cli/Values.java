package io.sharestream.cli;

import io.sharestream.common.types.Row;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The text of a row's value, as both output formats show it: timestamps ({@code Instant}) ISO-8601 in UTC, dates
 * and local date-times ISO, decimals exactly without exponent, binary as base64, nested values as JSON.
 */
final class Values {
  private Values() {}

  static String text(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof byte[]) {
      return Base64.getEncoder().encodeToString((byte[]) v);
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).toPlainString();
    }
    if (v instanceof LocalDateTime) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format((LocalDateTime) v); // seconds always shown
    }
    if (isNested(v)) {
      return RowJson.value(v);
    }
    return v.toString(); // Instant: ISO-8601 in UTC; LocalDate: ISO; numbers, booleans, strings
  }

  static boolean isNested(Object v) {
    return v instanceof Row || v instanceof List || v instanceof Map;
  }
}
