package io.sharestream.common.types;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * Decodes partition values from their string form (protocol "Partition Value Serialization") into the values a
 * {@link Row} holds. {@code ""} and null are SQL NULL. Timestamps without an offset ({@code yyyy-MM-dd
 * HH:mm:ss[.ffffff]}) are read in the given zone (UTC by default, like Delta writers record them); ISO-8601 values
 * with an offset are read as such.
 */
public final class PartitionValues {
  private static final DateTimeFormatter LOCAL = new DateTimeFormatterBuilder()
      .appendPattern("yyyy-MM-dd[ ]['T']HH:mm:ss")
      .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
      .toFormatter();

  private PartitionValues() {}

  /** Decodes {@code value} of partition column {@code column} of type {@code type}. */
  public static Object decode(String column, DataType type, String value, ZoneId zone) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      if (type instanceof DecimalType) {
        return new BigDecimal(value).setScale(((DecimalType) type).scale(), RoundingMode.UNNECESSARY);
      }
      if (!(type instanceof PrimitiveType)) {
        throw new IllegalArgumentException("type " + type.simpleString() + " cannot be a partition column");
      }
      switch ((PrimitiveType) type) {
        case BOOLEAN:
          if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("not a boolean");
          }
          return Boolean.parseBoolean(value);
        case BYTE: return Byte.parseByte(value);
        case SHORT: return Short.parseShort(value);
        case INTEGER: return Integer.parseInt(value);
        case LONG: return Long.parseLong(value);
        case FLOAT: return Float.parseFloat(value);
        case DOUBLE: return Double.parseDouble(value);
        case STRING: return value;
        case BINARY: return value.getBytes(StandardCharsets.UTF_8);
        case DATE: return LocalDate.parse(value);
        case TIMESTAMP: return timestamp(value, zone);
        case TIMESTAMP_NTZ: // a date partition widened to timestamp_ntz keeps its date values: midnight
          return value.length() == 10 ? LocalDate.parse(value).atStartOfDay() : LocalDateTime.parse(value, LOCAL);
        default: throw new IllegalArgumentException("unsupported partition type " + type.simpleString());
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("partition value '" + value + "' of column '" + column + "' is not a valid "
          + type.simpleString() + ": " + e.getMessage(), e);
    }
  }

  private static Instant timestamp(String value, ZoneId zone) {
    try {
      return OffsetDateTime.parse(value).toInstant();
    } catch (DateTimeParseException notIsoWithOffset) {
      return LocalDateTime.parse(value, LOCAL).atZone(zone).toInstant();
    }
  }
}
