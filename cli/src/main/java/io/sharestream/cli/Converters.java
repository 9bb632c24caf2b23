package io.sharestream.cli;

import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.Instants;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option and parameter types picocli does not know; a bad value is a usage error. */
final class Converters {
  private Converters() {}

  /** {@code <share>.<schema>.<table>}. */
  static final class Table implements ITypeConverter<TableRef> {
    @Override
    public TableRef convert(String value) {
      try {
        return TableRef.parse(value, "The table");
      } catch (InvalidSettingException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** An ISO-8601 instant, {@code 2024-01-31T00:00:00Z} or with an offset. */
  static final class Timestamp implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      try {
        return Instants.parse(value);
      } catch (DateTimeParseException e) {
        throw new TypeConversionException("'" + value + "' is not an ISO-8601 instant such as 2024-01-31T00:00:00Z");
      }
    }
  }

  /** A positive duration: {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h}, or ISO-8601 ({@code PT5S}). */
  static final class Interval implements ITypeConverter<Duration> {
    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
      Duration d = parse(value.trim().toLowerCase(Locale.ROOT));
      if (d == null || d.isZero() || d.isNegative()) {
        throw new TypeConversionException("'" + value + "' is not a positive duration such as 500ms, 5s or 1m");
      }
      return d;
    }

    private static Duration parse(String text) {
      Matcher m = SHORT.matcher(text);
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
          case "ms":
            return Duration.ofMillis(n);
          case "s":
            return Duration.ofSeconds(n);
          case "m":
            return Duration.ofMinutes(n);
          default:
            return Duration.ofHours(n);
        }
      }
      try {
        return Duration.parse(text);
      } catch (DateTimeParseException e) {
        return null;
      }
    }
  }
}
