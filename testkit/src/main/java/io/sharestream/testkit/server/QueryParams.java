package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * The parameters of a {@code POST .../query} body, parsed and checked against each other as the reference server
 * does, before the table is looked at.
 */
final class QueryParams {
  final Long version;
  final String timestamp;
  final Long startingVersion;
  final Long endingVersion;
  final Long maxFiles;
  final String pageToken;
  final boolean includeRefreshToken;
  final String refreshToken;
  final Long limitHint;
  final String jsonPredicateHints;
  /** With {@code startingVersion}, in delta format: stamp protocol lines with their version, and send later ones. */
  final boolean includeHistoricalProtocol;

  QueryParams(JsonNode body) {
    version = optLong(body, "version", ProtocolError.MALFORMED);
    timestamp = body.hasNonNull("timestamp") ? body.get("timestamp").asText() : null;
    startingVersion = optLong(body, "startingVersion", ProtocolError.INVALID);
    // without startingVersion the reference server ignores endingVersion (a plain snapshot)
    endingVersion = startingVersion == null ? null : optLong(body, "endingVersion", ProtocolError.INVALID);
    maxFiles = optLong(body, "maxFiles", ProtocolError.INVALID);
    pageToken = body.hasNonNull("pageToken") ? body.get("pageToken").asText() : null;
    includeRefreshToken = body.path("includeRefreshToken").asBoolean(false);
    refreshToken = body.hasNonNull("refreshToken") ? body.get("refreshToken").asText() : null;
    limitHint = optLong(body, "limitHint", ProtocolError.INVALID);
    jsonPredicateHints = body.hasNonNull("jsonPredicateHints") ? body.get("jsonPredicateHints").asText() : null;
    includeHistoricalProtocol = body.path("includeHistoricalProtocol").asBoolean(false);

    if (given() > 1) {
      throw ProtocolError.invalid("Please only provide one of: version, timestamp, startingVersion");
    }
    if (maxFiles != null && maxFiles <= 0) {
      throw ProtocolError.invalid("maxFiles must be positive: " + maxFiles);
    }
    if ((includeRefreshToken || refreshToken != null) && given() > 0) {
      throw ProtocolError.invalid("includeRefreshToken and refreshToken can only be used when querying the latest "
          + "snapshot of the table");
    }
    if ((includeRefreshToken || refreshToken != null) && pageToken != null) {
      throw ProtocolError.invalid("includeRefreshToken and refreshToken must be used in the first page request");
    }
  }

  /** The request's body: a JSON object, else 400 {@code MALFORMED_REQUEST}; an empty body too unless
   *  {@code emptyIsEmptyObject}. */
  static ObjectNode read(Request req, boolean emptyIsEmptyObject) {
    JsonNode body;
    try {
      byte[] raw = req.body();
      if (raw.length == 0) {
        if (emptyIsEmptyObject) {
          return Lines.JSON.createObjectNode();
        }
        throw ProtocolError.malformed("The request body is empty; send a JSON object such as {}.");
      }
      body = Lines.JSON.readTree(raw);
    } catch (IOException e) {
      throw ProtocolError.malformed("The request body is not valid JSON.");
    }
    if (body == null || !body.isObject()) {
      throw ProtocolError.malformed("The request body must be a JSON object.");
    }
    return (ObjectNode) body;
  }

  /** Whether the answer is negotiated as history (startingVersion or paging), before any parameter is parsed. */
  static boolean history(JsonNode body) {
    return body.hasNonNull("startingVersion") || body.hasNonNull("maxFiles") || body.hasNonNull("pageToken");
  }

  /** How many of version, timestamp and startingVersion are given: more than 0 needs history. */
  int given() {
    return (version != null ? 1 : 0) + (timestamp != null ? 1 : 0) + (startingVersion != null ? 1 : 0);
  }

  /**
   * A non-negative integer field of the query body: a negative one answers 400 {@code INVALID_PARAMETER_VALUE},
   * anything else not an integer 400 with {@code errorCode}.
   */
  private static Long optLong(JsonNode body, String field, String errorCode) {
    JsonNode n = body.get(field);
    if (n == null || n.isNull()) {
      return null;
    }
    if (!n.canConvertToLong() && !n.isTextual()) {
      throw new ProtocolError(400, errorCode, "invalid " + field + ": " + n);
    }
    long v;
    try {
      v = n.isTextual() ? Long.parseLong(n.asText()) : n.asLong();
    } catch (NumberFormatException e) {
      throw new ProtocolError(400, errorCode, "invalid " + field + ": " + n);
    }
    if (v < 0) {
      // refused before the snapshot path, so an invalid parameter whatever the field's other errors are
      throw ProtocolError.invalid(field + " cannot be negative: " + v);
    }
    return v;
  }
}
