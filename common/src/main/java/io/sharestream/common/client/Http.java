package io.sharestream.common.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Small HTTP helpers shared by the REST client, the OAuth client and the file reader. */
final class Http {
  private Http() {}

  /** The answer's {@code Retry-After} as seconds or an HTTP date; null when absent or unreadable. */
  static Duration retryAfter(Answer answer) {
    return retryAfter(answer.header("Retry-After"));
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
    return queryValue(s).replace("+", "%20");
  }

  static String queryValue(String s) {
    try {
      return URLEncoder.encode(s, "UTF-8");
    } catch (java.io.UnsupportedEncodingException e) {
      throw new IllegalStateException(e); // every JVM has UTF-8
    }
  }

  /** Reads at most {@code max} bytes of an error body as text, then closes it. */
  static String readSmall(InputStream in, int max) {
    try (InputStream body = in) {
      byte[] buf = new byte[max];
      int n = 0;
      for (int r = 0; n < max && (r = body.read(buf, n, max - n)) >= 0; n += r) {
        // fills buf up to max
      }
      return new String(buf, 0, n, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
