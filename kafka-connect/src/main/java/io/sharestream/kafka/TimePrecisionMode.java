package io.sharestream.kafka;

import java.util.Arrays;
import java.util.Locale;

/**
 * How Delta timestamps (microseconds) become Connect values (Debezium's {@code time.precision.mode} convention):
 * Connect's millisecond {@code Timestamp}, int64 microseconds under a named schema, or ISO-8601 text.
 */
public enum TimePrecisionMode {
  /** Connect's {@code Timestamp} logical type ({@code java.util.Date}): milliseconds, sub-millisecond digits lost. */
  CONNECT,
  /** int64 microseconds since the epoch, schema {@value ConnectSchemas#MICRO_TIMESTAMP} (lossless). */
  MICROS,
  /** ISO-8601 text with every digit, e.g. {@code 2024-01-31T10:00:00.123456Z} (lossless). */
  STRING;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  static String[] configValues() {
    return Arrays.stream(values()).map(TimePrecisionMode::configValue).toArray(String[]::new);
  }

  static TimePrecisionMode parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
