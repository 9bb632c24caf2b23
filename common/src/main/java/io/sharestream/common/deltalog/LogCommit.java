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
    if (!timestampRead) { // else its first line was seen by actions()
      Iterator<ObjectNode> lines = log.lines(file);
      if (lines.hasNext()) {
        firstLine(lines.next());
      }
      DeltaLog.closeQuietly(lines);
    }
    return inCommitTimestamp != null ? inCommitTimestamp : fileTime;
  }

  /**
   * The commit's actions in file order; close the iterator (it is {@link java.io.Closeable}) if not read to its end.
   * Its first line gives {@link #timestamp()} too, so a commit being read is not opened again for its time.
   */
  public Iterator<ObjectNode> actions() {
    Iterator<ObjectNode> lines = log.lines(file);
    if (timestampRead) {
      return lines;
    }
    return new FirstLineSeen(lines);
  }

  /** Takes the in-commit timestamp from the commit's first line (where a table with them puts its commitInfo). */
  private void firstLine(ObjectNode first) {
    JsonNode ict = first.path("commitInfo").path("inCommitTimestamp");
    inCommitTimestamp = ict.canConvertToLong() ? ict.asLong() : null;
    timestampRead = true;
  }

  /** The lines of the commit, the first one noted for {@link #timestamp()} as it passes. */
  private final class FirstLineSeen implements Iterator<ObjectNode>, java.io.Closeable {
    private final Iterator<ObjectNode> lines;
    private boolean first = true;

    FirstLineSeen(Iterator<ObjectNode> lines) {
      this.lines = lines;
    }

    @Override
    public boolean hasNext() {
      boolean more = lines.hasNext();
      if (!more && first && !timestampRead) { // an empty commit: nothing to learn
        inCommitTimestamp = null;
        timestampRead = true;
      }
      return more;
    }

    @Override
    public ObjectNode next() {
      ObjectNode n = lines.next();
      if (first) {
        first = false;
        if (!timestampRead) {
          firstLine(n);
        }
      }
      return n;
    }

    @Override
    public void close() {
      DeltaLog.closeQuietly(lines);
    }
  }

  @Override
  public String toString() {
    return "LogCommit{" + log.table() + " v" + version + "}";
  }
}
