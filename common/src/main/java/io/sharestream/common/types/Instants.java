package io.sharestream.common.types;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** ISO-8601 instants as users and servers write them: with an offset ({@code +01:00}) or {@code Z}. */
public final class Instants {
  private Instants() {}

  /** Parses {@code text}; throws {@link DateTimeParseException} when it is neither form. */
  public static Instant parse(String text) {
    try {
      return OffsetDateTime.parse(text.trim()).toInstant();
    } catch (DateTimeParseException e) {
      return Instant.parse(text.trim());
    }
  }
}
