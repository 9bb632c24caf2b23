package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaType.Decimal;
import io.sharestream.testkit.delta.DeltaType.Primitive;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * Partition values in their Delta string form (protocol "Partition Value Serialization") and the Hive-style
 * directory names data files live under ({@code col=value}, escaped; null is {@code __HIVE_DEFAULT_PARTITION__}).
 */
public final class PartitionValues {
  /** {@code yyyy-MM-dd HH:mm:ss[.ffffff]}, UTC. */
  static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .appendPattern("yyyy-MM-dd HH:mm:ss")
      .optionalStart().appendFraction(ChronoField.MICRO_OF_SECOND, 0, 6, true).optionalEnd()
      .toFormatter();
  static final String HIVE_DEFAULT = "__HIVE_DEFAULT_PARTITION__";
  private static final String ESCAPED = "\"#%'*/:=?\\\u007F{[]^";

  private PartitionValues() {}

  /** The string a Delta log records for {@code value} of {@code type}; null for SQL NULL. */
  public static String encode(DeltaType type, Object value) {
    if (value == null) {
      return null;
    }
    if (type instanceof Decimal) {
      return ParquetRows.toBigDecimal(value).toPlainString();
    }
    switch (((Primitive) type).name) {
      case "date": return value.toString();
      case "timestamp": return TIMESTAMP.format(LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC));
      case "timestamp_ntz": return TIMESTAMP.format((LocalDateTime) value);
      case "binary": return new String((byte[]) value, java.nio.charset.StandardCharsets.ISO_8859_1);
      default: return value.toString();
    }
  }

  /** The Java value for a recorded partition string ({@code ""} and null are SQL NULL). */
  public static Object decode(DeltaType type, String s) {
    if (s == null || s.isEmpty()) {
      return null;
    }
    if (type instanceof Decimal) {
      return new BigDecimal(s).setScale(((Decimal) type).scale);
    }
    switch (((Primitive) type).name) {
      case "boolean": return Boolean.parseBoolean(s);
      case "byte": return Byte.parseByte(s);
      case "short": return Short.parseShort(s);
      case "integer": return Integer.parseInt(s);
      case "long": return Long.parseLong(s);
      case "float": return Float.parseFloat(s);
      case "double": return Double.parseDouble(s);
      case "date": return LocalDate.parse(s);
      case "timestamp": return LocalDateTime.parse(s, TIMESTAMP).toInstant(ZoneOffset.UTC);
      case "timestamp_ntz": return LocalDateTime.parse(s, TIMESTAMP);
      case "binary": return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
      default: return s;
    }
  }

  /** A Hive partition directory segment for one column. */
  static String directory(String column, String encoded) {
    return escape(column) + "=" + (encoded == null ? HIVE_DEFAULT : escape(encoded));
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c < 0x20 || ESCAPED.indexOf(c) >= 0) {
        b.append('%').append(String.format("%02X", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

}
