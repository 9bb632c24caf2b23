package io.sharestream.common.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.nio.charset.StandardCharsets;

/**
 * A file line of a query or changes response, in either response format: a snapshot file ({@code file}), a file
 * added or removed by a commit, or a change data file. Identity is the file {@code id} (stable across requests; an
 * add and a remove of one data file share it); the {@code url} is pre-signed, changes with every request and
 * expires. A file may carry a deletion vector (delta format): its rows are the Parquet file's minus the vector's.
 * {@link #toString()} shows no URL query.
 */
public final class FileAction implements SharingAction, Serializable {
  private static final long serialVersionUID = 2L;
  private static final JsonFactory STATS = new JsonFactory();

  /** The line kind. */
  public enum Kind {
    /** A snapshot file ({@code file} line of the parquet format). */
    FILE,
    /** A file added by a commit (or a snapshot file in the delta format). */
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
  /** The stats' numRecords (-1: unknown); the stats JSON is not kept, it can be most of a file's memory. */
  private final long numRecords;
  private final Long version;
  private final Long timestamp;
  private final Long expirationTimestamp;
  private final Long modificationTime;
  private final boolean dataChange;
  private final DeletionVectorDescriptor deletionVector;
  private final String deletionVectorFileId;

  private FileAction(Kind kind, String id, String url, Map<String, String> partitionValues, long size, long numRecords,
      Long version, Long timestamp, Long expirationTimestamp, Long modificationTime, boolean dataChange,
      DeletionVectorDescriptor deletionVector, String deletionVectorFileId) {
    this.kind = Objects.requireNonNull(kind);
    this.id = Objects.requireNonNull(id, "id");
    this.url = Objects.requireNonNull(url, "url");
    this.partitionValues = Collections.unmodifiableMap(new HashMap<>(partitionValues));
    this.size = size;
    this.numRecords = numRecords;
    this.version = version;
    this.timestamp = timestamp;
    this.expirationTimestamp = expirationTimestamp;
    this.modificationTime = modificationTime;
    this.dataChange = dataChange;
    this.deletionVector = deletionVector;
    this.deletionVectorFileId = deletionVectorFileId;
  }

  /** Parses a parquet-format line's body for {@code kind}. */
  public static FileAction fromJson(Kind kind, JsonNode n) {
    if (!n.hasNonNull("id") || !n.hasNonNull("url")) {
      throw new IllegalArgumentException(kind.name().toLowerCase(Locale.ROOT) + " line without id or url");
    }
    return new FileAction(kind, n.get("id").asText(), n.get("url").asText(), partitionValues(n), n.path("size")
        .asLong(0), numRecordsOf(text(n, "stats")), longOrNull(n, "version"), longOrNull(n, "timestamp"),
        longOrNull(n, "expirationTimestamp"), null, true, null, null);
  }

  /**
   * Parses a delta-format {@code file} line's body: its {@code id}, {@code version}, {@code timestamp} and expiry,
   * and the Delta {@code add}, {@code remove} or {@code cdc} action it wraps, whose {@code path} is the URL.
   */
  public static FileAction fromDeltaJson(JsonNode n) {
    JsonNode single = n.path("deltaSingleAction");
    Kind kind;
    JsonNode a;
    if (single.has("add")) {
      kind = Kind.ADD;
      a = single.get("add");
    } else if (single.has("remove")) {
      kind = Kind.REMOVE;
      a = single.get("remove");
    } else if (single.has("cdc")) {
      kind = Kind.CDF;
      a = single.get("cdc");
    } else {
      throw new IllegalArgumentException("file line without an add, remove or cdc action in deltaSingleAction");
    }
    if (!n.hasNonNull("id") || !a.hasNonNull("path")) {
      throw new IllegalArgumentException("file line without id or path");
    }
    DeletionVectorDescriptor dv = a.hasNonNull("deletionVector")
        ? DeletionVectorDescriptor.fromJson(a.get("deletionVector")) : null;
    if (dv != null && kind == Kind.CDF) {
      throw new IllegalArgumentException("cdc action with a deletion vector");
    }
    return new FileAction(kind, n.get("id").asText(), a.get("path").asText(), partitionValues(a),
        a.path("size").asLong(0), numRecordsOf(text(a, "stats")), longOrNull(n, "version"), longOrNull(n, "timestamp"),
        longOrNull(n, "expirationTimestamp"), longOrNull(a, "modificationTime"),
        kind == Kind.CDF || a.path("dataChange").asBoolean(true), dv, text(n, "deletionVectorFileId"));
  }

  private static Map<String, String> partitionValues(JsonNode n) {
    Map<String, String> pv = new HashMap<>();
    n.path("partitionValues").fields().forEachRemaining(
        e -> pv.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    return pv;
  }

  private static String text(JsonNode n, String field) {
    return n.hasNonNull(field) ? n.get(field).asText() : null;
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

  /**
   * Partition column values as strings; a missing or null value is SQL NULL. Keyed by physical column names for
   * column-mapped tables (see {@link io.sharestream.common.types.ColumnMapping#partitionValue}).
   */
  public Map<String, String> partitionValues() {
    return partitionValues;
  }

  public long size() {
    return size;
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

  /** When the data file was written (epoch millis; delta format only), or null. */
  public Long modificationTime() {
    return modificationTime;
  }

  /** False for files a commit rewrote without changing data (OPTIMIZE); the parquet format sends only true. */
  public boolean dataChange() {
    return dataChange;
  }

  /** The file's deletion vector, or null when every row of the Parquet file is live. */
  public DeletionVectorDescriptor deletionVector() {
    return deletionVector;
  }

  /** The server's id for the deletion vector's file (optional; the reference server never sends it). */
  public String deletionVectorFileId() {
    return deletionVectorFileId;
  }

  /** The {@code numRecords} from the stats (physical rows, deleted ones included), or -1 when unknown. */
  public long numRecords() {
    return numRecords;
  }

  /** The top-level {@code numRecords} of a stats JSON, read without building its tree; -1 when absent or unreadable. */
  static long numRecordsOf(String stats) {
    if (stats == null) {
      return -1;
    }
    try (JsonParser p = STATS.createParser(stats)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return -1;
      }
      for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equals("numRecords")) {
          return value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue()
              : value == JsonToken.VALUE_STRING ? Long.parseLong(p.getText().trim()) : -1;
        }
        p.skipChildren();
      }
      return -1;
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /** Rows left after the deletion vector ({@code numRecords - cardinality}), or -1 when unknown. */
  public long liveRecords() {
    long n = numRecords();
    return n < 0 || deletionVector == null ? n : Math.max(0, n - deletionVector.cardinality());
  }

  /** The same file as a line of another kind at {@code version} (a change derived from two snapshots). */
  public FileAction as(Kind newKind, long newVersion, Long newTimestamp) {
    return new FileAction(newKind, id, url, partitionValues, size, numRecords, newVersion, newTimestamp,
        expirationTimestamp, modificationTime, dataChange, deletionVector, deletionVectorFileId);
  }

  /**
   * Writes every field of this line (the URL included: callers keep what they write private) for {@link #readFrom}.
   */
  public void writeTo(DataOutput out) throws IOException {
    out.writeByte(kind.ordinal());
    writeString(out, id);
    writeString(out, url);
    out.writeInt(partitionValues.size());
    for (Map.Entry<String, String> e : partitionValues.entrySet()) {
      writeString(out, e.getKey());
      writeString(out, e.getValue());
    }
    out.writeLong(size);
    out.writeLong(numRecords);
    writeLong(out, version);
    writeLong(out, timestamp);
    writeLong(out, expirationTimestamp);
    writeLong(out, modificationTime);
    out.writeBoolean(dataChange);
    out.writeBoolean(deletionVector != null);
    if (deletionVector != null) {
      out.writeChar(deletionVector.storageType());
      writeString(out, deletionVector.pathOrInlineDv());
      out.writeInt(deletionVector.offset());
      out.writeInt(deletionVector.sizeInBytes());
      out.writeLong(deletionVector.cardinality());
    }
    writeString(out, deletionVectorFileId);
  }

  /** A line as {@link #writeTo} wrote it. */
  public static FileAction readFrom(DataInput in) throws IOException {
    Kind kind = Kind.values()[in.readByte()];
    String id = readString(in);
    String url = readString(in);
    int n = in.readInt();
    Map<String, String> pv = new HashMap<>();
    for (int i = 0; i < n; i++) {
      pv.put(readString(in), readString(in));
    }
    long size = in.readLong();
    long numRecords = in.readLong();
    Long version = readLong(in);
    Long timestamp = readLong(in);
    Long expiration = readLong(in);
    Long modification = readLong(in);
    boolean dataChange = in.readBoolean();
    DeletionVectorDescriptor dv = in.readBoolean() ? new DeletionVectorDescriptor(in.readChar(), readString(in),
        in.readInt(), in.readInt(), in.readLong()) : null;
    return new FileAction(kind, id, url, pv, size, numRecords, version, timestamp, expiration, modification,
        dataChange, dv, readString(in));
  }

  private static void writeString(DataOutput out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readString(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static void writeLong(DataOutput out, Long v) throws IOException {
    out.writeBoolean(v != null);
    if (v != null) {
      out.writeLong(v);
    }
  }

  private static Long readLong(DataInput in) throws IOException {
    return in.readBoolean() ? in.readLong() : null;
  }

  @Override
  public String toString() {
    return "FileAction{" + kind + " id=" + id + ", size=" + size + ", version=" + version + ", url="
        + Errors.safeUrl(url) + (deletionVector == null ? "" : ", " + deletionVector) + "}";
  }
}
