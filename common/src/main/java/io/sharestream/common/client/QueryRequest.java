package io.sharestream.common.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/**
 * The body of {@code POST .../query}: a snapshot (latest, at {@code version} or at {@code timestamp}) or the data
 * changes from {@code startingVersion} to {@code endingVersion} (with {@code includeHistoricalProtocol}: the
 * protocol changes among them); {@code maxFiles} pages the answer (the client follows every page); hints pass
 * through.
 */
public final class QueryRequest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Long version;
  private Instant timestamp;
  private Long startingVersion;
  private Long endingVersion;
  private Integer maxFiles;
  private Long limitHint;
  private List<String> predicateHints;
  private String jsonPredicateHints;
  private boolean includeRefreshToken;
  private String refreshToken;

  /** The latest snapshot. */
  public static QueryRequest latest() {
    return new QueryRequest();
  }

  public static QueryRequest atVersion(long version) {
    QueryRequest q = new QueryRequest();
    q.version = version;
    return q;
  }

  public static QueryRequest atTimestamp(Instant timestamp) {
    QueryRequest q = new QueryRequest();
    q.timestamp = timestamp;
    return q;
  }

  /** Data changes of versions {@code [startingVersion, endingVersion]} ({@code endingVersion} null: to the latest). */
  public static QueryRequest changes(long startingVersion, Long endingVersion) {
    QueryRequest q = new QueryRequest();
    q.startingVersion = startingVersion;
    q.endingVersion = endingVersion;
    return q;
  }

  public QueryRequest maxFiles(int n) {
    this.maxFiles = n;
    return this;
  }

  public QueryRequest limitHint(long n) {
    this.limitHint = n;
    return this;
  }

  public QueryRequest predicateHints(List<String> hints) {
    this.predicateHints = hints;
    return this;
  }

  public QueryRequest jsonPredicateHints(String hints) {
    this.jsonPredicateHints = hints;
    return this;
  }

  /** Ask for a refresh token (latest snapshot only) to re-run this query for fresh URLs of the same files. */
  public QueryRequest includeRefreshToken() {
    this.includeRefreshToken = true;
    return this;
  }

  public QueryRequest refreshToken(String token) {
    this.refreshToken = token;
    return this;
  }

  public Integer maxFiles() {
    return maxFiles;
  }

  /** The snapshot time asked for, or null. */
  Instant timestamp() {
    return timestamp;
  }

  /** The first version of a history query, or null. */
  Long startingVersion() {
    return startingVersion;
  }

  /** The last version of a history query, or null (the latest). */
  Long endingVersion() {
    return endingVersion;
  }

  /** The snapshot version asked for, or null. */
  Long version() {
    return version;
  }

  /** Whether the query names versions (a snapshot at a version or timestamp, or changes), which views have not. */
  boolean versioned() {
    return version != null || timestamp != null || startingVersion != null;
  }

  /** The JSON body, with {@code pageToken} for a later page. */
  String body(String pageToken) {
    return body(pageToken, null);
  }

  /**
   * The JSON body, with {@code pageToken} for a later page and {@code idempotencyKey} (may be null) for a query the
   * server may answer asynchronously. The key goes under one name, {@code idempotency_key}: the field's proto name
   * (the reference server's {@code protocol.proto}, {@code optional string idempotency_key = 14}), which a proto3 JSON
   * parser accepts beside its JSON name {@code idempotencyKey} (the protocol text's), and the name the reference Spark
   * client sends (delta-sharing {@code client/.../DeltaSharingClient.scala}, {@code QueryTableRequest.idempotency_key})
   * to every server it queries asynchronously, Databricks' among them. Both names at once would set the field twice,
   * which a proto3 JSON parser refuses.
   */
  String body(String pageToken, String idempotencyKey) {
    ObjectNode n = JSON.createObjectNode();
    if (version != null) {
      n.put("version", version);
    }
    if (timestamp != null) {
      n.put("timestamp", timestamp.toString());
    }
    if (startingVersion != null) {
      n.put("startingVersion", startingVersion);
      n.put("includeHistoricalProtocol", true); // delta format: the protocol of each version that changes it
    }
    if (endingVersion != null) {
      n.put("endingVersion", endingVersion);
    }
    if (maxFiles != null) {
      n.put("maxFiles", maxFiles);
    }
    if (limitHint != null) {
      n.put("limitHint", limitHint);
    }
    if (predicateHints != null) {
      n.set("predicateHints", JSON.valueToTree(predicateHints));
    }
    if (jsonPredicateHints != null) {
      n.put("jsonPredicateHints", jsonPredicateHints);
    }
    if (idempotencyKey != null) {
      n.put("idempotency_key", idempotencyKey);
    }
    if (pageToken != null) {
      n.put("pageToken", pageToken);
    } else {
      if (includeRefreshToken) {
        n.put("includeRefreshToken", true);
      }
      if (refreshToken != null) {
        n.put("refreshToken", refreshToken);
      }
    }
    return n.toString();
  }

  @Override
  public String toString() {
    return body(null);
  }
}
