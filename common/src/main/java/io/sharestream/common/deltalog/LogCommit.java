package io.sharestream.common.deltalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;

/**
 * One commit of a Delta table: its version, its time, and its actions ({@code add}, {@code remove}, {@code cdc},
 * {@code metaData}, {@code protocol}, {@code commitInfo}, ...) as the JSON lines of its file, read as they are asked
 * for (a commit may add a million files).
 */
public final class LogCommit {
  private final DeltaLog log;
  private final long version;
  private final LogFile file;
  private final long fileTime;
  private Long inCommitTimestamp;
  private boolean timestampRead;

  LogCommit(DeltaLog log, long version, LogFile file, long fileTime) {
    this.log = log;
    this.version = version;
    this.file = file;
    this.fileTime = fileTime;
  }

  public long version() {
    return version;
  }

  /**
   * When it was committed, in epoch milliseconds: its in-commit timestamp where the writer recorded one (the
   * {@code commitInfo} a table with in-commit timestamps puts first), else its file's time made strictly later than
   * the commit before it, as Delta's history does.
   */
  public long timestamp() {
    if (!timestampRead) {
      Iterator<ObjectNode> lines = log.lines(file);
      if (lines.hasNext()) {
        JsonNode ict = lines.next().path("commitInfo").path("inCommitTimestamp");
        inCommitTimestamp = ict.canConvertToLong() ? ict.asLong() : null;
      }
      DeltaLog.close(lines);
      timestampRead = true;
    }
    return inCommitTimestamp != null ? inCommitTimestamp : fileTime;
  }

  /** The commit's actions in file order; close the iterator (it is {@link java.io.Closeable}) if not read to its end. */
  public Iterator<ObjectNode> actions() {
    return log.lines(file);
  }

  @Override
  public String toString() {
    return "LogCommit{" + log.table() + " v" + version + "}";
  }
}
