package io.sharestream.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.TableMetadata;
import java.util.Set;

/**
 * What an answer may hold given the response format asked for: {@code protocol} and {@code metaData} lines in
 * either format, read and checked, and the format an answer's {@code delta-sharing-capabilities} header names.
 */
final class AnswerFormat {
  private final ResponseFormat asked;
  private final Set<String> readerFeatures;

  /** Answers to a client asking {@code asked} and reading {@code readerFeatures} (lower case). */
  AnswerFormat(ResponseFormat asked, Set<String> readerFeatures) {
    this.asked = asked;
    this.readerFeatures = readerFeatures;
  }

  /**
   * A {@code protocol} line in either format, checked: an answer in a format not asked for, a parquet answer for a
   * table that needs the delta format, and reader versions or features the client does not read all fail.
   */
  ProtocolInfo protocol(JsonNode n, String what) {
    ProtocolInfo p;
    if (n.has("deltaProtocol")) {
      p = historicalProtocol(n, what);
    } else {
      p = ProtocolInfo.parquet(n);
      if (p.minReaderVersion() > 1) {
        throw asked.accepts(ResponseFormat.DELTA_NAME)
            ? Errors.deltaFormatUnsupported(what, p.minReaderVersion())
            : Errors.deltaFormatRequired(what, "protocol minReaderVersion " + p.minReaderVersion());
      }
    }
    String unsupported = p.unsupported(readerFeatures);
    if (unsupported != null) {
      throw Errors.unsupportedFeature(what + (p.version() == null ? "" : " (its protocol at version " + p.version()
          + ")"), unsupported);
    }
    return p;
  }

  /**
   * A delta-format {@code protocol} line, stamped with the version it takes effect at when the answer says, not
   * checked: a protocol among a history answer's file lines applies from its version on, which the planner decides.
   */
  ProtocolInfo historicalProtocol(JsonNode n, String what) {
    require(ResponseFormat.DELTA_NAME, what);
    return ProtocolInfo.delta(n.get("deltaProtocol")).withVersion(n.hasNonNull("version") ? n.get("version").asLong()
        : null);
  }

  /** A {@code metaData} line in either format. */
  TableMetadata metadata(JsonNode n, String what) {
    if (n.has("deltaMetadata")) {
      require(ResponseFormat.DELTA_NAME, what);
      return TableMetadata.fromDeltaJson(n);
    }
    return TableMetadata.fromJson(n);
  }

  /** Fails when an answer in {@code answered} format was not asked for. */
  void require(String answered, String what) {
    if (!asked.accepts(answered)) {
      throw Errors.unexpectedFormat(what, answered, asked.asked());
    }
  }

  /** Fails when the answer's {@code delta-sharing-capabilities} names a format that was not asked for. */
  void check(Answer r, String what) {
    String caps = r.header("delta-sharing-capabilities", "");
    for (String part : caps.split(";")) {
      String[] kv = part.split("=", 2);
      if (kv.length == 2 && kv[0].trim().equalsIgnoreCase("responseformat")) {
        for (String format : kv[1].split(",")) {
          if (!format.trim().isEmpty()) {
            require(format.trim(), what);
          }
        }
      }
    }
  }
}
