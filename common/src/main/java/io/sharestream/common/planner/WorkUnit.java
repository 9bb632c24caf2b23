package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import io.sharestream.common.types.StructType;
import java.util.Objects;

/**
 * One file to read, in stream order: its place ({@code version}, {@code index}), its commit, how its rows are
 * labelled, and the request that listed it (for URL refreshes).
 */
public final class WorkUnit implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Where the rows' change type comes from. */
  public enum RowSource {
    /** Rows of a file a commit added (or of the snapshot): {@code insert}. */
    ADDED,
    /** Rows of a file a commit removed: {@code delete}. */
    REMOVED,
    /** A change data file: each row's own {@code _change_type}. */
    CHANGE_DATA
  }

  private final long version;
  private final long index;
  private final FileAction file;
  private final long commitTimestamp;
  private final RowSource source;
  private final boolean newImagesOnly;
  private final boolean isStartingVersion;
  private final FetchSpec fetch;
  private final StructType schema;
  private final String tableId;

  public WorkUnit(String tableId, long version, long index, FileAction file, long commitTimestamp, RowSource source,
      boolean newImagesOnly, boolean isStartingVersion, FetchSpec fetch, StructType schema) {
    this.tableId = Objects.requireNonNull(tableId);
    this.version = version;
    this.index = index;
    this.file = Objects.requireNonNull(file);
    this.commitTimestamp = commitTimestamp;
    this.source = Objects.requireNonNull(source);
    this.newImagesOnly = newImagesOnly;
    this.isStartingVersion = isStartingVersion;
    this.fetch = Objects.requireNonNull(fetch);
    this.schema = Objects.requireNonNull(schema);
  }

  /** The id of the table the unit belongs to (its metadata id). */
  public String tableId() {
    return tableId;
  }

  public long version() {
    return version;
  }

  /** Position of the file among its version's files sorted by id. */
  public long index() {
    return index;
  }

  public FileAction file() {
    return file;
  }

  /** Commit timestamp of {@link #version()} in epoch millis. */
  public long commitTimestamp() {
    return commitTimestamp;
  }

  public RowSource source() {
    return source;
  }

  /** For change data files outside readChangeFeed: only {@code insert} and {@code update_postimage} rows flow. */
  public boolean newImagesOnly() {
    return newImagesOnly;
  }

  public boolean isStartingVersion() {
    return isStartingVersion;
  }

  public FetchSpec fetch() {
    return fetch;
  }

  /** The table schema its rows are read with (the stream's schema, widened by additive changes seen so far). */
  public StructType schema() {
    return schema;
  }

  /** The position once the whole file is consumed. */
  public Position endPosition() {
    return new Position(tableId, version, index, -1, isStartingVersion);
  }

  /** The position once row {@code row} (file order) of this file is consumed. */
  public Position rowPosition(long row) {
    return new Position(tableId, version, index, row, isStartingVersion);
  }

  /** The change type of a row: fixed by the source, or the row's own for change data. */
  public String changeType(String rowChangeType) {
    switch (source) {
      case ADDED: return ChangeTypes.INSERT;
      case REMOVED: return ChangeTypes.DELETE;
      default: return rowChangeType;
    }
  }

  /** The same unit with a refreshed file URL. */
  public WorkUnit withFile(FileAction refreshed) {
    return new WorkUnit(tableId, version, index, refreshed, commitTimestamp, source, newImagesOnly,
        isStartingVersion, fetch, schema);
  }

  @Override
  public String toString() {
    return "WorkUnit{v" + version + "#" + index + " " + source + (newImagesOnly ? " new-images" : "")
        + (isStartingVersion ? " snapshot" : "") + " " + file + "}";
  }
}
