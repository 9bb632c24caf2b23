package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import io.sharestream.common.types.StructType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One file to read, in stream order: its place ({@code version}, {@code index}), its commit, how its rows are
 * labelled, and the request that listed it (for URL refreshes). A file re-added by a commit with a changed deletion
 * vector carries the {@link #previous()} remove of it too: its rows are those whose deletion mark changed.
 */
public final class WorkUnit implements java.io.Serializable {
  private static final long serialVersionUID = 3L;

  /** Where the rows' change type comes from. */
  public enum RowSource {
    /** Rows of a file a commit added (or of the snapshot), minus its deletion vector: {@code insert}. */
    ADDED,
    /** Rows of a file a commit removed, minus the deletion vector it had: {@code delete}. */
    REMOVED,
    /** A change data file: each row's own {@code _change_type}. */
    CHANGE_DATA,
    /**
     * A file re-added with another deletion vector: rows its new vector marks and the removed one did not are
     * {@code delete}; rows the removed one marked and the new one does not are {@code insert}; others are skipped.
     */
    DELETION_VECTOR_CHANGE
  }

  private final String table;
  private final String tableId;
  private final long version;
  private final long index;
  private final FileAction file;
  private final FileAction previous;
  private final long commitTimestamp;
  private final RowSource source;
  private final boolean newImagesOnly;
  private final boolean isStartingVersion;
  private final FetchSpec fetch;
  private final StructType schema;
  private final List<String> partitionColumns;
  private final String fileKey;

  /**
   * {@code table} names the table in messages; {@code previous} is the remove of {@code file}'s data file for
   * {@link RowSource#DELETION_VECTOR_CHANGE} (else null).
   */
  public WorkUnit(String table, String tableId, long version, long index, FileAction file, FileAction previous,
      long commitTimestamp, RowSource source, boolean newImagesOnly, boolean isStartingVersion, FetchSpec fetch,
      StructType schema, List<String> partitionColumns) {
    this.table = Objects.requireNonNull(table);
    this.tableId = Objects.requireNonNull(tableId);
    this.version = version;
    this.index = index;
    this.file = Objects.requireNonNull(file);
    this.previous = previous;
    this.commitTimestamp = commitTimestamp;
    this.source = Objects.requireNonNull(source);
    this.newImagesOnly = newImagesOnly;
    this.isStartingVersion = isStartingVersion;
    this.fetch = Objects.requireNonNull(fetch);
    this.schema = Objects.requireNonNull(schema);
    this.partitionColumns = Collections.unmodifiableList(new ArrayList<>(partitionColumns));
    this.fileKey = Position.fileKeyOf(file.id());
    if ((source == RowSource.DELETION_VECTOR_CHANGE) != (previous != null)) {
      throw new IllegalArgumentException("a deletion vector change unit (and only it) has the previous file");
    }
  }

  /** The table's name ({@code share.schema.table}), for messages. */
  public String table() {
    return table;
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

  /** The remove of the re-added file, with the deletion vector it had ({@link RowSource#DELETION_VECTOR_CHANGE}). */
  public FileAction previous() {
    return previous;
  }

  /** Commit timestamp of {@link #version()} in epoch millis. */
  public long commitTimestamp() {
    return commitTimestamp;
  }

  public RowSource source() {
    return source;
  }

  /**
   * Only new row images flow: {@code insert} and {@code update_postimage} rows of change data, and rows a re-add
   * brought back (default mode).
   */
  public boolean newImagesOnly() {
    return newImagesOnly;
  }

  public boolean isStartingVersion() {
    return isStartingVersion;
  }

  public FetchSpec fetch() {
    return fetch;
  }

  /** The table schema its rows are read with (the stream's schema at the unit's version). */
  public StructType schema() {
    return schema;
  }

  /** The table's partition columns, named as in {@link #schema()}. */
  public List<String> partitionColumns() {
    return partitionColumns;
  }

  /** Whether reading the unit needs a deletion vector (its file's, or the previous one's). */
  public boolean hasDeletionVectors() {
    return file.deletionVector() != null || (previous != null && previous.deletionVector() != null);
  }

  /** The {@link Position#fileKeyOf key} of the file's id, which positions inside the file carry. */
  public String fileKey() {
    return fileKey;
  }

  /** The position once the whole file is consumed. */
  public Position endPosition() {
    return new Position(tableId, version, index, -1, isStartingVersion, fileKey);
  }

  /** The position once row {@code row} (file order) of this file is consumed. */
  public Position rowPosition(long row) {
    return new Position(tableId, version, index, row, isStartingVersion, fileKey);
  }

  /** The change type of a row: fixed by the source, or the row's own for change data. */
  public String changeType(String rowChangeType) {
    switch (source) {
      case ADDED: return ChangeTypes.INSERT;
      case REMOVED: return ChangeTypes.DELETE;
      default: return rowChangeType;
    }
  }

  /** The same unit with refreshed file URLs. */
  public WorkUnit withFiles(FileAction refreshed, FileAction refreshedPrevious) {
    return new WorkUnit(table, tableId, version, index, refreshed, refreshedPrevious, commitTimestamp, source,
        newImagesOnly, isStartingVersion, fetch, schema, partitionColumns);
  }

  /** Names the unit's file in messages: table, version and file id. */
  public String describe() {
    return "file " + file.id() + " of version " + version + " of " + table;
  }

  @Override
  public String toString() {
    return "WorkUnit{v" + version + "#" + index + " " + source + (newImagesOnly ? " new-images" : "")
        + (isStartingVersion ? " snapshot" : "") + " " + file + "}";
  }
}
