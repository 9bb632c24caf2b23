package io.sharestream.common.planner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.errors.InvalidPositionException;
import io.sharestream.common.errors.TableRecreatedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How far a stream has read a table: everything up to and including row {@code row} of the file at {@code index}
 * (files of a version sorted by id) of {@code tableVersion} is consumed. {@code index = -1}: nothing of the version
 * yet; {@code row = -1}: the whole file. A fully read version is stored as {@code (v+1, -1)}. While
 * {@code isStartingVersion}, the position walks the initial snapshot of {@code tableVersion}.
 *
 * <p>A position inside a version ({@code index >= 0}) also carries the {@link #fileKey()} of the file at
 * {@code index}: a short hash of its id, so that a resume can tell when the server lists the version with other file
 * ids (its order then differs too) instead of reading another file's rows as if they were the same. The key checks a
 * position; it does not place it, so {@link #equals} and {@link #compareTo} leave it out.
 *
 * <p>Forms: the Spark offset JSON {@code {"sourceVersion":2,"tableId":..,"tableVersion":v,"index":i,
 * "isStartingVersion":b,"fileKey":k}} (whole files only) and the Kafka source offset map (with {@code row}). Both
 * carry the format version and the table id, and are validated when read back. Format 1 (every position older
 * releases wrote, and positions at a version boundary) has no file key; format 2 has one.
 */
public final class Position implements Comparable<Position> {
  /** The stored form without a file key: positions at a version boundary, and all that older releases wrote. */
  public static final int FORMAT_VERSION = 1;
  /** The stored form with a {@link #fileKey()}: positions inside a version. */
  public static final int FORMAT_VERSION_WITH_FILE_KEY = 2;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String tableId;
  private final long tableVersion;
  private final long index;
  private final long row;
  private final boolean isStartingVersion;
  private final String fileKey;

  public Position(String tableId, long tableVersion, long index, long row, boolean isStartingVersion) {
    this(tableId, tableVersion, index, row, isStartingVersion, null);
  }

  /** {@code fileKey}: the {@link #fileKeyOf} the id of the file at {@code index} (null: not known). */
  public Position(String tableId, long tableVersion, long index, long row, boolean isStartingVersion,
      String fileKey) {
    this.tableId = Objects.requireNonNull(tableId, "tableId");
    if (tableVersion < 0 || index < -1 || row < -1) {
      throw new InvalidPositionException("invalid position: tableVersion=" + tableVersion + ", index=" + index
          + ", row=" + row);
    }
    this.tableVersion = tableVersion;
    this.index = index;
    this.row = row;
    this.isStartingVersion = isStartingVersion;
    this.fileKey = index >= 0 ? fileKey : null;
  }

  /** The key of a file id: the first 8 hex digits of its SHA-256. */
  public static String fileKeyOf(String fileId) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(fileId.getBytes(StandardCharsets.UTF_8));
      StringBuilder b = new StringBuilder(8);
      for (int i = 0; i < 4; i++) {
        b.append(Character.forDigit((d[i] >> 4) & 0xf, 16)).append(Character.forDigit(d[i] & 0xf, 16));
      }
      return b.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Nothing of {@code version} consumed yet. */
  public static Position beforeVersion(String tableId, long version, boolean isStartingVersion) {
    return new Position(tableId, version, -1, -1, isStartingVersion);
  }

  public String tableId() {
    return tableId;
  }

  public long tableVersion() {
    return tableVersion;
  }

  public long index() {
    return index;
  }

  public long row() {
    return row;
  }

  public boolean isStartingVersion() {
    return isStartingVersion;
  }

  /** The key of the id of the file at {@link #index()}, or null (at a version boundary, or stored by an old release). */
  public String fileKey() {
    return fileKey;
  }

  private int formatVersion() {
    return fileKey == null ? FORMAT_VERSION : FORMAT_VERSION_WITH_FILE_KEY;
  }

  /**
   * Whether what this position has read can be told from the files a server lists now: at a version boundary, or
   * naming the file at {@link #index()} by its key. A position inside a version without a key (older releases wrote
   * them) would place the next read by the files' order alone, which other file ids change.
   */
  public boolean verifiable() {
    return index < 0 || fileKey != null;
  }

  /** Nothing of this position's version consumed yet (of its snapshot, while {@link #isStartingVersion()}). */
  public Position versionStart() {
    return beforeVersion(tableId, tableVersion, isStartingVersion);
  }

  /** Whether file {@code index} is only partly read (a Kafka position inside a file). */
  public boolean insideFile() {
    return index >= 0 && row >= 0;
  }

  // ---------------------------------------------------------------- Spark offset JSON

  /** The Spark offset JSON (file granularity: a position inside a file is not a Spark offset). */
  public String toJson() {
    if (insideFile()) {
      throw new IllegalStateException("a position inside a file has no Spark offset form: " + this);
    }
    ObjectNode n = JSON.createObjectNode();
    n.put("sourceVersion", formatVersion());
    n.put("tableId", tableId);
    n.put("tableVersion", tableVersion);
    n.put("index", index);
    n.put("isStartingVersion", isStartingVersion);
    if (fileKey != null) {
      n.put(FILE_KEY, fileKey);
    }
    return n.toString();
  }

  /** Reads a Spark offset JSON written by {@link #toJson()}. */
  public static Position fromJson(String json) {
    JsonNode n;
    try {
      n = JSON.readTree(json);
    } catch (IOException e) {
      throw new InvalidPositionException("The stored offset is not JSON: " + shorten(json) + ". Delete the "
          + "checkpoint and start the query again.");
    }
    if (n == null || !n.isObject()) {
      throw new InvalidPositionException("The stored offset is not a JSON object: " + shorten(json));
    }
    int format = checkFormat(n.path("sourceVersion"), "sourceVersion");
    return new Position(text(n, "tableId"), number(n, "tableVersion"), number(n, "index"), -1,
        bool(n, "isStartingVersion"), fileKey(n, format));
  }

  // ---------------------------------------------------------------- Kafka offset map

  /** Kafka source offset keys. */
  public static final String OFFSET_FORMAT = "offsetFormat";
  public static final String TABLE_ID = "tableId";
  public static final String TABLE_VERSION = "tableVersion";
  public static final String INDEX = "index";
  public static final String ROW = "row";
  public static final String IS_STARTING_VERSION = "isStartingVersion";
  public static final String FILE_KEY = "fileKey";

  /**
   * The Kafka source offset map: an unmodifiable view of this position, so that a record's offset (kept by the worker
   * until the broker acknowledges the record) costs one small object; its entries are made when read.
   */
  public Map<String, Object> toMap() {
    return new OffsetMap(this);
  }

  private static final class OffsetMap extends AbstractMap<String, Object> {
    private final Position p;

    OffsetMap(Position p) {
      this.p = p;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put(OFFSET_FORMAT, p.formatVersion());
      m.put(TABLE_ID, p.tableId);
      m.put(TABLE_VERSION, p.tableVersion);
      m.put(INDEX, p.index);
      m.put(ROW, p.row);
      m.put(IS_STARTING_VERSION, p.isStartingVersion);
      if (p.fileKey != null) {
        m.put(FILE_KEY, p.fileKey);
      }
      return Collections.unmodifiableMap(m).entrySet();
    }

    @Override
    public int size() {
      return p.fileKey == null ? 6 : 7;
    }
  }

  /** Reads a Kafka source offset map written by {@link #toMap()}. */
  public static Position fromMap(Map<String, ?> m) {
    ObjectNode n = JSON.valueToTree(m);
    int format = checkFormat(n.path(OFFSET_FORMAT), OFFSET_FORMAT);
    return new Position(text(n, TABLE_ID), number(n, TABLE_VERSION), number(n, INDEX),
        n.has(ROW) ? number(n, ROW) : -1, bool(n, IS_STARTING_VERSION), fileKey(n, format));
  }

  private static int checkFormat(JsonNode v, String field) {
    if (!v.isIntegralNumber() || (v.asInt() != FORMAT_VERSION && v.asInt() != FORMAT_VERSION_WITH_FILE_KEY)) {
      throw new InvalidPositionException("The stored position has " + field + " " + v + " but this reader only "
          + "understands " + FORMAT_VERSION + " and " + FORMAT_VERSION_WITH_FILE_KEY + ". It was written by another "
          + "version of the connector: use that version, or delete the checkpoint/offsets and start again.");
    }
    return v.asInt();
  }

  /** The file key a stored position of {@code format} carries (format 2 inside a version must have one). */
  private static String fileKey(JsonNode n, int format) {
    if (format == FORMAT_VERSION) {
      return null;
    }
    boolean inside = n.path(INDEX).asLong(-1) >= 0;
    JsonNode v = n.get(FILE_KEY);
    if (!inside && v == null) {
      return null;
    }
    if (v == null || !v.isTextual() || !v.asText().matches("[0-9a-f]{8}")) {
      throw new InvalidPositionException("The stored position's '" + FILE_KEY + "' is missing or not 8 hex "
          + "digits.");
    }
    return v.asText();
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual() || v.asText().isEmpty()) {
      throw new InvalidPositionException("The stored position has no '" + field + "'.");
    }
    return v.asText();
  }

  private static long number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isIntegralNumber()) {
      throw new InvalidPositionException("The stored position's '" + field + "' is missing or not a number.");
    }
    return v.asLong();
  }

  private static boolean bool(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isBoolean()) {
      throw new InvalidPositionException("The stored position's '" + field + "' is missing or not a boolean.");
    }
    return v.asBoolean();
  }

  private static String shorten(String s) {
    return s == null ? "null" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }

  // ---------------------------------------------------------------- validation and order

  /** Fails unless this position belongs to the table with id {@code expected}. */
  public void checkTable(String expected, String tableName) {
    if (!tableId.equals(expected)) {
      throw new TableRecreatedException("The stored position is for table id " + tableId + " but " + tableName
          + " now has id " + expected + ": the table was recreated. Its old positions do not apply; delete the "
          + "checkpoint/offsets and start again (choose startingVersion for the new table).");
    }
  }

  /** Fails when this position lies before {@code previous} (positions only move forward). */
  public void checkNotBefore(Position previous) {
    if (compareTo(previous) < 0) {
      throw new InvalidPositionException("The stream's position would move backwards from " + previous + " to "
          + this + ": the stored offsets do not follow each other, which happens when a checkpoint or offset store "
          + "was edited or mixed up with another query's (or, for Spark, when a query of an earlier release of "
          + "this source stopped in its first batch). Restore them, or start from a new checkpoint.");
    }
  }

  @Override
  public int compareTo(Position o) {
    int c = Long.compare(tableVersion, o.tableVersion);
    if (c != 0) {
      return c;
    }
    if (isStartingVersion != o.isStartingVersion) {
      return isStartingVersion ? -1 : 1; // the snapshot of v precedes the changes of v
    }
    c = Long.compare(index, o.index);
    if (c != 0) {
      return c;
    }
    return Long.compare(row == -1 ? Long.MAX_VALUE : row, o.row == -1 ? Long.MAX_VALUE : o.row);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Position)) {
      return false;
    }
    Position p = (Position) o;
    return tableId.equals(p.tableId) && tableVersion == p.tableVersion && index == p.index && row == p.row
        && isStartingVersion == p.isStartingVersion;
  }

  @Override
  public int hashCode() {
    return Objects.hash(tableId, tableVersion, index, row, isStartingVersion);
  }

  @Override
  public String toString() {
    return "(version " + tableVersion + ", index " + index + (row >= 0 ? ", row " + row : "")
        + (isStartingVersion ? ", snapshot" : "") + (fileKey != null ? ", file " + fileKey : "") + ")";
  }
}
