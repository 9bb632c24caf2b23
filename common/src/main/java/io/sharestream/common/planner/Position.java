package io.sharestream.common.planner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.errors.InvalidPositionException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How far a stream has read a table: everything up to and including row {@code row} of the file at {@code index}
 * (files of a version sorted by id) of {@code tableVersion} is consumed. {@code index = -1}: nothing of the version
 * yet; {@code row = -1}: the whole file. A fully read version is stored as {@code (v+1, -1)}. While
 * {@code isStartingVersion}, the position walks the initial snapshot of {@code tableVersion}.
 *
 * <p>Forms: the Spark offset JSON {@code {"sourceVersion":1,"tableId":..,"tableVersion":v,"index":i,
 * "isStartingVersion":b}} (whole files only) and the Kafka source offset map (with {@code row}). Both carry the
 * format version and the table id, and are validated when read back.
 */
public final class Position implements Comparable<Position> {
  /** Format version written in every stored form. */
  public static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String tableId;
  private final long tableVersion;
  private final long index;
  private final long row;
  private final boolean isStartingVersion;

  public Position(String tableId, long tableVersion, long index, long row, boolean isStartingVersion) {
    this.tableId = Objects.requireNonNull(tableId, "tableId");
    if (tableVersion < 0 || index < -1 || row < -1) {
      throw new InvalidPositionException("invalid position: tableVersion=" + tableVersion + ", index=" + index
          + ", row=" + row);
    }
    this.tableVersion = tableVersion;
    this.index = index;
    this.row = row;
    this.isStartingVersion = isStartingVersion;
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
    n.put("sourceVersion", FORMAT_VERSION);
    n.put("tableId", tableId);
    n.put("tableVersion", tableVersion);
    n.put("index", index);
    n.put("isStartingVersion", isStartingVersion);
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
    checkFormat(n.path("sourceVersion"), "sourceVersion");
    return new Position(text(n, "tableId"), number(n, "tableVersion"), number(n, "index"), -1,
        bool(n, "isStartingVersion"));
  }

  // ---------------------------------------------------------------- Kafka offset map

  /** Kafka source offset keys. */
  public static final String OFFSET_FORMAT = "offsetFormat";
  public static final String TABLE_ID = "tableId";
  public static final String TABLE_VERSION = "tableVersion";
  public static final String INDEX = "index";
  public static final String ROW = "row";
  public static final String IS_STARTING_VERSION = "isStartingVersion";

  /** The Kafka source offset map. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(OFFSET_FORMAT, FORMAT_VERSION);
    m.put(TABLE_ID, tableId);
    m.put(TABLE_VERSION, tableVersion);
    m.put(INDEX, index);
    m.put(ROW, row);
    m.put(IS_STARTING_VERSION, isStartingVersion);
    return m;
  }

  /** Reads a Kafka source offset map written by {@link #toMap()}. */
  public static Position fromMap(Map<String, ?> m) {
    ObjectNode n = JSON.valueToTree(m);
    checkFormat(n.path(OFFSET_FORMAT), OFFSET_FORMAT);
    return new Position(text(n, TABLE_ID), number(n, TABLE_VERSION), number(n, INDEX),
        n.has(ROW) ? number(n, ROW) : -1, bool(n, IS_STARTING_VERSION));
  }

  private static void checkFormat(JsonNode v, String field) {
    if (!v.isIntegralNumber() || v.asInt() != FORMAT_VERSION) {
      throw new InvalidPositionException("The stored position has " + field + " " + v + " but this reader only "
          + "understands " + FORMAT_VERSION + ". It was written by another version of the connector: use that "
          + "version, or delete the checkpoint/offsets and start again.");
    }
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
      throw new InvalidPositionException("The stored position is for table id " + tableId + " but " + tableName
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
        + (isStartingVersion ? ", snapshot" : "") + ")";
  }
}
