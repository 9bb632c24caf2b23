package io.sharestream.common.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A file line of a query or changes response: {@code file} (snapshot), {@code add}, {@code remove} or {@code cdf}.
 * Identity is the file {@code id} (stable across requests); the {@code url} is pre-signed, changes with every
 * request and expires. {@link #toString()} shows the URL without its query string.
 */
public final class FileAction implements SharingAction, java.io.Serializable {
  private static final long serialVersionUID = 1L;
  private static final com.fasterxml.jackson.databind.ObjectMapper STATS_READER =
      new com.fasterxml.jackson.databind.ObjectMapper();

  /** The line kind. */
  public enum Kind {
    /** A snapshot file ({@code file} line). */
    FILE,
    /** A file added by a commit. */
    ADD,
    /** A file removed by a commit; its rows are the removed data. */
    REMOVE,
    /** A change data file: rows carry {@code _change_type}. */
    CDF
  }

  private final Kind kind;
  private final String id;
  private final String url;
  private final Map<String, String> partitionValues;
  private final long size;
  private final String stats;
  private final Long version;
  private final Long timestamp;
  private final Long expirationTimestamp;

  public FileAction(Kind kind, String id, String url, Map<String, String> partitionValues, long size, String stats,
      Long version, Long timestamp, Long expirationTimestamp) {
    this.kind = Objects.requireNonNull(kind);
    this.id = Objects.requireNonNull(id, "id");
    this.url = Objects.requireNonNull(url, "url");
    this.partitionValues = Collections.unmodifiableMap(new HashMap<>(partitionValues));
    this.size = size;
    this.stats = stats;
    this.version = version;
    this.timestamp = timestamp;
    this.expirationTimestamp = expirationTimestamp;
  }

  /** Parses a line's body for {@code kind}. */
  public static FileAction fromJson(Kind kind, JsonNode n) {
    if (!n.hasNonNull("id") || !n.hasNonNull("url")) {
      throw new IllegalArgumentException(kind.name().toLowerCase(java.util.Locale.ROOT) + " line without id or url");
    }
    Map<String, String> pv = new HashMap<>();
    n.path("partitionValues").fields().forEachRemaining(
        e -> pv.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    return new FileAction(kind, n.get("id").asText(), n.get("url").asText(), pv, n.path("size").asLong(0),
        n.hasNonNull("stats") ? n.get("stats").asText() : null, longOrNull(n, "version"), longOrNull(n, "timestamp"),
        longOrNull(n, "expirationTimestamp"));
  }

  private static Long longOrNull(JsonNode n, String field) {
    return n.hasNonNull(field) ? n.get(field).asLong() : null;
  }

  public Kind kind() {
    return kind;
  }

  public String id() {
    return id;
  }

  /** The pre-signed URL: a secret, never log or store it. */
  public String url() {
    return url;
  }

  /** Partition column values as strings; a missing or null value is SQL NULL. */
  public Map<String, String> partitionValues() {
    return partitionValues;
  }

  public long size() {
    return size;
  }

  /** The per-file statistics JSON, if the server sent it. */
  public String stats() {
    return stats;
  }

  /** Commit version ({@code add}/{@code remove}/{@code cdf}) or snapshot version ({@code file} of a versioned read). */
  public Long version() {
    return version;
  }

  /** Commit timestamp in epoch millis, when known. */
  public Long timestamp() {
    return timestamp;
  }

  /** When the URL expires (epoch millis), when the server said. */
  public Long expirationTimestamp() {
    return expirationTimestamp;
  }

  /** The {@code numRecords} from the stats, or -1 when unknown. */
  public long numRecords() {
    if (stats == null) {
      return -1;
    }
    try {
      return STATS_READER.readTree(stats).path("numRecords").asLong(-1);
    } catch (java.io.IOException e) {
      return -1;
    }
  }

  @Override
  public String toString() {
    return "FileAction{" + kind + " id=" + id + ", size=" + size + ", version=" + version + ", url="
        + Errors.safeUrl(url) + "}";
  }
}
