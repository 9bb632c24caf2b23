package io.sharestream.common.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Small HTTP helpers shared by the REST client, the OAuth client and the file reader. */
final class Http {
  private Http() {}

  /** {@code Retry-After} as seconds or an HTTP date; null when absent or unreadable. */
  static Duration retryAfter(HttpHeaders headers) {
    return retryAfter(headers.firstValue("Retry-After").orElse(null));
  }

  /** A {@code Retry-After} value as seconds or an HTTP date; null when absent or unreadable. */
  static Duration retryAfter(String value) {
    if (value == null) {
      return null;
    }
    String s = value.trim();
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(s)));
    } catch (NumberFormatException e) {
      try {
        Duration d = Duration.between(java.time.Instant.now(),
            ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        return d.isNegative() ? Duration.ZERO : d;
      } catch (DateTimeParseException e2) {
        return null;
      }
    }
  }

  /** One URL path segment, percent-encoded. */
  static String segment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String queryValue(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Reads at most {@code max} bytes of an error body as text, then closes it. */
  static String readSmall(InputStream in, int max) {
    try (InputStream body = in) {
      byte[] buf = body.readNBytes(max);
      return new String(buf, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
