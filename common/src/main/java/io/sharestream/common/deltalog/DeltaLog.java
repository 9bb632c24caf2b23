package io.sharestream.common.deltalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.errors.Errors;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A Delta table read from its {@code _delta_log} (Delta protocol, "Delta Table Specification"): its versions, the
 * actions each commit holds, and the snapshot at a version, from the newest checkpoint at or before it (classic,
 * multi-part, or V2 with sidecars) and the commits after it. Everything is streamed: a snapshot's files come one at
 * a time from the checkpoint, and only the commits after the checkpoint are held (Delta checkpoints every few
 * commits). Log compaction files are an optimisation over commits that are still there, so they are not needed.
 */
public final class DeltaLog {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final LogFiles files;
  private final String table;

  /** {@code table} names the table in messages. */
  public DeltaLog(LogFiles files, String table) {
    this.files = files;
    this.table = table;
  }

  /** The latest version: the last commit (or checkpoint) listed from the version {@code _last_checkpoint} names. */
  public long latestVersion() {
    long hint = lastCheckpointHint();
    Listing l = list(Math.max(0, hint));
    if (l.isEmpty() && hint > 0) {
      l = list(0); // a stale or wrong hint: list the whole log
    }
    if (l.isEmpty()) {
      throw Errors.logUnreadable(table, "its _delta_log holds no commit");
    }
    return l.latest();
  }

  /** The oldest version whose snapshot can still be built (its commit survives, or a checkpoint at it does). */
  public long earliestVersion() {
    Listing l = list(0);
    if (l.isEmpty()) {
      throw Errors.logUnreadable(table, "its _delta_log holds no commit");
    }
    if (l.commits.containsKey(0L)) {
      return 0;
    }
    for (Long cp : l.checkpoints.keySet()) {
      if (l.contiguous(cp + 1, l.latest())) {
        return cp;
      }
    }
    throw Errors.logUnreadable(table, "no checkpoint is followed by every later commit");
  }

  /** The oldest version whose commit (and so whose changes) can still be read. */
  public long earliestCommit() {
    Listing l = list(0);
    if (l.commits.isEmpty()) {
      throw Errors.logUnreadable(table, "its _delta_log holds no commit");
    }
    long first = l.commits.lastKey();
    while (l.commits.containsKey(first - 1)) {
      first--;
    }
    return first;
  }

  /** The snapshot at {@code version}; fails naming the versions still readable when it cannot be built. */
  public LogSnapshot snapshot(long version) {
    Listing l = list(0, version);
    if (!l.commits.containsKey(version) && !l.checkpoints.containsKey(version)) {
      throw Errors.logVersionUnavailable(table, version, l.isEmpty() ? -1 : l.commits.firstKey());
    }
    Map.Entry<Long, List<LogFile>> cp = l.checkpoints.floorEntry(version);
    long from = cp == null ? 0 : cp.getKey() + 1;
    if (!l.contiguous(from, version)) {
      throw Errors.logVersionUnavailable(table, version, l.commits.isEmpty() ? -1 : l.commits.firstKey());
    }
    List<LogFile> tail = from > version ? new ArrayList<LogFile>()
        : new ArrayList<>(l.commits.subMap(from, true, version, true).values());
    return new LogSnapshot(this, version, cp == null ? null : cp.getValue(), tail);
  }

  /**
   * The commits of {@code from} to {@code to} (both included), read one at a time; fails naming the versions still
   * readable when one of them is gone from the log.
   */
  public List<LogCommit> commits(long from, long to) {
    if (to < from) {
      return new ArrayList<>();
    }
    Listing l = list(Math.max(0, from - 1), to);
    if (!l.contiguous(from, to)) {
      throw Errors.logVersionUnavailable(table, from, l.commits.isEmpty() ? -1 : l.commits.firstKey());
    }
    List<LogCommit> out = new ArrayList<>();
    Map.Entry<Long, LogFile> before = l.commits.lowerEntry(from);
    long previousTime = before == null ? Long.MIN_VALUE : before.getValue().modificationTime();
    for (LogFile f : l.commits.subMap(from, true, to, true).values()) {
      // commit times are the files' modification times made strictly increasing, as Delta's history does
      long time = Math.max(f.modificationTime(), previousTime == Long.MIN_VALUE ? Long.MIN_VALUE : previousTime + 1);
      out.add(new LogCommit(this, LogFileName.parse(f.name()).version, f, time));
      previousTime = time;
    }
    return out;
  }

  /**
   * The first version committed at or after {@code t} (in-commit timestamps where the table records them, else the
   * commit files' times), or the latest version + 1 when none is.
   */
  public long versionAtOrAfter(Instant t) {
    long earliest = earliestCommit();
    long latest = latestVersion();
    for (LogCommit c : commits(earliest, latest)) {
      if (c.timestamp() >= t.toEpochMilli()) {
        return c.version();
      }
    }
    return latest + 1;
  }

  String table() {
    return table;
  }

  LogFiles files() {
    return files;
  }

  /** The JSON lines of {@code f}, parsed one at a time as they are asked for. */
  Iterator<ObjectNode> lines(LogFile f) {
    final BufferedReader in;
    try {
      InputStream body = files.open(f);
      in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + f.name() + " of " + table + ": " + e.getMessage(), e);
    }
    return new LineIterator(in, f.name());
  }

  private long lastCheckpointHint() {
    Iterator<LogFile> it = list("_last_checkpoint");
    if (!it.hasNext()) {
      return -1;
    }
    LogFile f = it.next();
    if (!f.name().equals("_last_checkpoint")) {
      return -1;
    }
    Iterator<ObjectNode> lines = lines(f);
    JsonNode v = lines.hasNext() ? lines.next().path("version") : null;
    closeQuietly(lines);
    return v != null && v.canConvertToLong() ? v.asLong() : -1;
  }

  private Iterator<LogFile> list(String fromName) {
    try {
      return files.list(fromName);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the _delta_log of " + table + ": " + e.getMessage(), e);
    }
  }

  private Listing list(long fromVersion) {
    return list(fromVersion, Long.MAX_VALUE);
  }

  /** The log's commits and complete checkpoints of versions {@code from} to {@code to}. */
  private Listing list(long from, long to) {
    Listing l = new Listing();
    Map<String, LogFile[]> parts = new java.util.HashMap<>();
    Iterator<LogFile> it = list(LogFileName.versionPrefix(from));
    while (it.hasNext()) {
      LogFile f = it.next();
      LogFileName n = LogFileName.parse(f.name());
      if (n.version > to) {
        if (n.kind == LogFileName.Kind.COMMIT) {
          break; // names sort by version: nothing of a version <= to comes after
        }
        continue;
      }
      switch (n.kind) {
        case COMMIT:
          l.commits.put(n.version, f);
          break;
        case CHECKPOINT:
        case CHECKPOINT_V2:
          // a V2 checkpoint is preferred where a writer left both forms at one version: it may name sidecars only
          if (n.kind == LogFileName.Kind.CHECKPOINT_V2 || !l.checkpoints.containsKey(n.version)) {
            List<LogFile> one = new ArrayList<>();
            one.add(f);
            l.checkpoints.put(n.version, one);
          }
          break;
        case CHECKPOINT_PART: {
          LogFile[] set = parts.computeIfAbsent(n.version + "/" + n.parts, k -> new LogFile[n.parts]);
          set[(int) n.first - 1] = f;
          boolean complete = true;
          for (LogFile p : set) {
            complete &= p != null;
          }
          if (complete && !l.checkpoints.containsKey(n.version)) {
            List<LogFile> all = new ArrayList<>();
            java.util.Collections.addAll(all, set);
            l.checkpoints.put(n.version, all);
          }
          break;
        }
        default:
          break;
      }
    }
    return l;
  }

  /** Closes an iterator of the log's lines or files if it holds a file open; what was read stands. */
  public static void closeQuietly(Iterator<?> it) {
    if (it instanceof java.io.Closeable) {
      try {
        ((java.io.Closeable) it).close();
      } catch (IOException e) {
        // reading is over; nothing to keep
      }
    }
  }

  /** Versions found by one listing of the log. */
  private static final class Listing {
    final NavigableMap<Long, LogFile> commits = new TreeMap<>();
    final NavigableMap<Long, List<LogFile>> checkpoints = new TreeMap<>();

    boolean isEmpty() {
      return commits.isEmpty() && checkpoints.isEmpty();
    }

    long latest() {
      long c = commits.isEmpty() ? -1 : commits.lastKey();
      return Math.max(c, checkpoints.isEmpty() ? -1 : checkpoints.lastKey());
    }

    /** Whether every commit of {@code from} to {@code to} is listed (true when the range is empty). */
    boolean contiguous(long from, long to) {
      return to < from || commits.subMap(from, true, to, true).size() == to - from + 1;
    }
  }

  /** The JSON lines of one log file; blank lines are skipped. */
  private final class LineIterator implements Iterator<ObjectNode>, java.io.Closeable {
    private final BufferedReader in;
    private final String name;
    private ObjectNode next;
    private boolean done;

    LineIterator(BufferedReader in, String name) {
      this.in = in;
      this.name = name;
    }

    @Override
    public boolean hasNext() {
      while (next == null && !done) {
        try {
          String line = in.readLine();
          if (line == null) {
            done = true;
            in.close();
          } else if (!line.trim().isEmpty()) {
            JsonNode n = JSON.readTree(line);
            if (!n.isObject()) {
              throw Errors.logUnreadable(table, name + " holds a line that is not a JSON object");
            }
            next = (ObjectNode) n;
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read " + name + " of " + table + ": " + e.getMessage(), e);
        }
      }
      return next != null;
    }

    @Override
    public ObjectNode next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      ObjectNode n = next;
      next = null;
      return n;
    }

    @Override
    public void close() throws IOException {
      done = true;
      in.close();
    }
  }
}
