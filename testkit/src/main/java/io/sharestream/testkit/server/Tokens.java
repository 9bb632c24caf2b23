package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Page and refresh tokens: opaque to clients, base64url JSON to the server. A page token is bound to the query it
 * continues (a key of its parameters) and carries the pinned table version and the position to resume at.
 */
final class Tokens {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Tokens() {}

  static String encode(ObjectNode body) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(body.toString().getBytes(StandardCharsets.UTF_8));
  }

  static JsonNode decode(String token, String what) {
    try {
      return JSON.readTree(Base64.getUrlDecoder().decode(token));
    } catch (IllegalArgumentException | IOException e) {
      throw ProtocolError.invalid("invalid " + what);
    }
  }

  /** A page token for the query with parameters {@code queryKey}. */
  static String page(String queryKey, long version, long positionVersion, long positionIndex) {
    ObjectNode n = JSON.createObjectNode();
    n.put("q", queryKey);
    n.put("v", version);
    n.put("pv", positionVersion);
    n.put("pi", positionIndex);
    return encode(n);
  }

  /** A decoded page token: pinned version and position {@code (positionVersion, positionIndex)}. */
  static final class Page {
    final long version;
    final long positionVersion;
    final long positionIndex;

    Page(long version, long positionVersion, long positionIndex) {
      this.version = version;
      this.positionVersion = positionVersion;
      this.positionIndex = positionIndex;
    }
  }

  static Page readPage(String token, String queryKey) {
    JsonNode n = decode(token, "pageToken");
    if (!queryKey.equals(n.path("q").asText())) {
      throw ProtocolError.invalid("The pageToken does not match the query parameters; a page token must be used "
          + "with the same query it came from.");
    }
    return new Page(n.path("v").asLong(), n.path("pv").asLong(), n.path("pi").asLong());
  }

  static String refresh(long version, long expiresAtMs) {
    ObjectNode n = JSON.createObjectNode();
    n.put("refreshVersion", version);
    n.put("exp", expiresAtMs);
    return encode(n);
  }

  /** The version a refresh token pins; fails if expired. */
  static long readRefresh(String token) {
    JsonNode n = decode(token, "refreshToken");
    if (!n.has("refreshVersion")) {
      throw ProtocolError.invalid("invalid refreshToken");
    }
    if (n.path("exp").asLong() < System.currentTimeMillis()) {
      throw ProtocolError.invalid("The refreshToken has expired; re-run the query without it.");
    }
    return n.path("refreshVersion").asLong();
  }
}
