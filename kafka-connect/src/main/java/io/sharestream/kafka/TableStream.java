package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.Backlog;
import io.sharestream.common.planner.ChangeRow;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.VersionPolling;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table of a task: where it stands ({@link Position}), the files planned next, the file being read. Each
 * {@link #poll} turns rows into records until the budget is spent or the table is caught up, planning more files as
 * it goes; a caught-up table asks for new versions every poll interval, less often while it does not change (up to
 * {@code poll.interval.max.ms}). A row's record carries the position after it, so a restart resumes at the next
 * row; the last row of a file carries the position after the file, or after its version when it is the version's
 * last file. Versions read to their end without a record to carry it get a heartbeat: after a heartbeat interval,
 * or at once with connector-defined transactions (so each ends one).
 */
final class TableStream implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TableStream.class);
  /** Footers fetched ahead of the file being read. */
  private static final int PREFETCH = 2;

  private final TableRef table;
  private final DeltaSharingClient client;
  private final StreamSettings settings;
  private final RecordConverter converter;
  private final TableMetrics metrics;
  private final Duration pollInterval;
  private final VersionPolling polling;
  private final Duration heartbeatInterval;
  private final String heartbeatTopic;
  private final int filesPerBatch;
  private final Executor footers;
  private final Clock clock;
  private final boolean transactional;
  private final boolean exactlyOnce;
  private final StartingUnavailableMode unavailable;
  /** A stored offset of an older release inside a version, while that version is read again; else null. */
  private Position rereading;

  private SharingStreamPlanner planner;
  private Position position;
  private final Deque<WorkUnit> pending = new ArrayDeque<>();
  /** Where each pending unit starts: the position after everything planned before it. */
  private final Deque<Position> startsAt = new ArrayDeque<>();
  private final Deque<UnitUrls> urls = new ArrayDeque<>();
  private final Deque<HttpInputFile> inputs = new ArrayDeque<>();
  private Position planEnd;
  private WorkUnit unit;
  private HttpInputFile input;
  private UnitReader reader;
  private ChangeRow held;
  private long nextPlanAt;
  /** The latest version known when the table was last found caught up. */
  private long caughtUpTo = -1;
  private long waitUntil;
  private Position stored;
  private long storedAt;
  private boolean setAside;
  private boolean closed; // guarded by this

  /** {@code transactional}: the worker commits transactions where the connector says (at Delta versions). */
  TableStream(TableRef table, DeltaSharingClient client, StreamSettings settings, RecordConverter converter,
      TableMetrics metrics, DeltaSharingSourceConfig config, Executor footers, Clock clock, boolean transactional) {
    this.table = table;
    this.client = client;
    this.settings = settings;
    this.converter = converter;
    this.metrics = metrics;
    this.pollInterval = config.pollInterval();
    this.polling = config.versionPolling();
    this.heartbeatInterval = config.heartbeatInterval();
    this.heartbeatTopic = config.heartbeatTopic();
    this.filesPerBatch = config.filesPerBatch();
    this.footers = footers;
    this.clock = clock;
    this.transactional = transactional;
    this.exactlyOnce = transactional || config.exactlyOnceRequested();
    this.unavailable = config.startingUnavailableMode();
  }

  TableRef table() {
    return table;
  }

  TableMetrics metrics() {
    return metrics;
  }

  boolean started() {
    return planner != null;
  }

  /** Whether a file is open: the budget ran out inside it. */
  boolean midFile() {
    return reader != null;
  }

  /**
   * Connects to the table, settles where it starts (the stored offset, checked against the table's id, else the
   * starting options) and plans its first files, prefetching the first one on {@code footers}: what a task
   * runs in the background ahead of the table's turn, while it reads other tables. Nothing else touches the table
   * until this returns; {@link #close()} waits for it.
   */
  synchronized void start(Map<String, Object> storedOffset, Executor footers) {
    if (closed) {
      throw new CancelledException("The task is stopping.");
    }
    start(storedOffset);
    if (plan() && !inputs.isEmpty()) {
      inputs.peek().prefetch(footers);
    }
  }

  /** Connects to the table and settles where it starts. */
  private void start(Map<String, Object> storedOffset) {
    SharingStreamPlanner started = new SharingStreamPlanner(client, table, settings, polling, clock);
    converter.checkKeyColumns(started.schema());
    Position from = SourceOffsets.position(storedOffset, table);
    if (from != null) {
      from.checkTable(started.metadata().id(), table.toString());
      if (!from.verifiable()) {
        from = versionStartOf(from, started);
      }
      LOG.info("{} resumes from its stored offset {}", table, from);
    } else {
      from = started.initialPosition();
      LOG.info("{} starts at {} ({})", table, from, settings.startingPoint());
    }
    planner = started;
    position = from;
    stored = from;
    storedAt = clock.millis();
    metrics.currentVersion.set(from.tableVersion());
  }

  /**
   * Where a stored offset of an older release inside a version goes on: that version's start, as at-least-once
   * delivery allows (which of its rows went out before cannot be told, so each record of it counts in
   * {@link TableMetrics#possibleDuplicates}); under exactly-once, nowhere: the offset is refused naming the fixes.
   */
  private Position versionStartOf(Position stored, SharingStreamPlanner started) {
    if (exactlyOnce) {
      started.close();
      throw Errors.unverifiablePosition(table.toString(), stored.tableVersion(), stored.index(), "Under "
          + "exactly-once delivery its version is not read again. To go on, move the offset to version "
          + stored.tableVersion() + " (it reads that version again, whole: its rows already delivered come twice) "
          + "or " + (stored.tableVersion() + 1) + " (it skips the rest of it) with PATCH /connectors/<name>/offsets "
          + "({\"" + Position.TABLE_VERSION + "\": <v>, \"" + Position.INDEX + "\": -1, \"" + Position.ROW
          + "\": -1}), or run the connector at-least-once until it is past version " + stored.tableVersion() + ".");
    }
    LOG.warn("{}: its stored offset {} lies inside version {} and was written by an older release, which did not "
        + "record which file that is; version {} is read again from its start, and its rows delivered before the "
        + "restart are delivered again (PossibleDuplicates in its metrics counts the version's records)", table,
        stored, stored.tableVersion(), stored.tableVersion());
    rereading = stored;
    return stored.versionStart();
  }

  /** The position of the last record handed out (where a restart would resume). */
  Position position() {
    return position;
  }

  /**
   * Adds at most {@code budget} records to {@code out}: rows of the table, or a heartbeat when the position moved
   * without rows. Opens no further file once the clock passed {@code deadline} (epoch millis): many small files
   * would otherwise hold one poll for minutes. Returns whether the table has more to read right now.
   */
  boolean poll(List<SourceRecord> out, int budget, long deadline) {
    int left = budget;
    while (left > 0) {
      if (reader != null) {
        left -= readRows(out, left);
        if (reader != null) {
          break; // budget spent mid-file
        }
        continue;
      }
      if (clock.millis() >= deadline) {
        break; // at a file boundary: what is planned stays for the next poll
      }
      if (!pending.isEmpty()) {
        openNext();
        continue;
      }
      if (planEnd != null) {
        position = planEnd; // after the plan's last file: versions with nothing left count as read
        planEnd = null;
      }
      if (!planDue() || !plan()) {
        break;
      }
    }
    metrics.currentVersion.set(position.tableVersion());
    metrics.latestKnownVersion.set(planner.latestVersion());
    metrics.lastSuccessfulPollTime.set(clock.millis());
    if (left == budget || versionDoneWithoutRecord()) {
      heartbeat(out, versionDoneWithoutRecord());
    }
    return reader != null || !pending.isEmpty() || clock.millis() >= nextPlanAt;
  }

  /**
   * Whether to plan now: a poll interval after the table was last found caught up, or at once when the planner has
   * seen a newer version since (it asks the server as its version polling says, backing off while nothing changes).
   */
  private boolean planDue() {
    return clock.millis() >= nextPlanAt || planner.latestVersion() > caughtUpTo;
  }

  /** Plans the next files; false when the table is caught up (and waits a poll interval). */
  private boolean plan() {
    StreamPlanner.Plan p = planFromAvailable();
    Backlog behind = planner.backlog(position);
    metrics.filesBehind.set(behind == null ? -1 : behind.files());
    if (p.units().isEmpty()) {
      boolean moved = !p.end().equals(position);
      position = p.end();
      if (!moved) {
        nextPlanAt = clock.millis() + pollInterval.toMillis();
        caughtUpTo = planner.latestKnownVersion();
        metrics.state = TableMetrics.State.CAUGHT_UP;
      }
      return moved;
    }
    metrics.state = TableMetrics.State.STREAMING;
    pending.addAll(p.units());
    Position at = position;
    for (int i = 0; i < p.units().size(); i++) {
      WorkUnit u = p.units().get(i);
      startsAt.add(at);
      at = after(u, i + 1 < p.units().size() ? p.units().get(i + 1) : null, p.end());
      UnitUrls unitUrls = planner.urls(u);
      urls.add(unitUrls);
      inputs.add(UnitReader.input(client, u, unitUrls));
    }
    planEnd = p.end();
    return true;
  }

  /**
   * The next files from where the table stands. Where that version is no longer served (the log was cleaned up, or
   * the table is shared from later), {@code starting.unavailable.mode} says: the table goes on from the earliest
   * version served, with a warning, or it fails with {@link VersionNotAvailableException}, which sets it aside.
   */
  private StreamPlanner.Plan planFromAvailable() {
    try {
      return planner.plan(position, AdmissionLimits.files(filesPerBatch));
    } catch (VersionNotAvailableException e) {
      long earliest = planner.earliestServedVersion();
      if (earliest <= position.tableVersion()) {
        throw e; // its version is served: something else is gone (a file the provider removed)
      }
      if (unavailable != StartingUnavailableMode.EARLIEST) {
        throw new VersionNotAvailableException(table + " would " + (position.equals(stored) ? "start" : "go on")
            + " at version " + position.tableVersion() + ", but the server serves its changes only from version "
            + earliest + " on (its log was cleaned up, or it is shared from a later version).");
      }
      LOG.warn("{} would {} at version {}, but the server serves its changes only from version {} on: it goes on "
          + "from there ({}={}); the changes of versions {} to {} are not delivered", table,
          position.equals(stored) ? "start" : "go on", position.tableVersion(), earliest,
          DeltaSharingSourceConfig.STARTING_UNAVAILABLE_MODE, unavailable.configValue(), position.tableVersion(),
          earliest - 1);
      position = Position.beforeVersion(position.tableId(), earliest, false);
      return planner.plan(position, AdmissionLimits.files(filesPerBatch));
    }
  }

  /**
   * Opens the next planned file. It must start where the table stands: the records of every row planned before it
   * were handed out (or those rows had none to emit), else reading it would hand out offsets past rows never sent.
   */
  private void openNext() {
    Position start = startsAt.peek();
    if (!position.equals(start)) {
      throw outOfSequence("the next planned file " + pending.peek().describe() + " starts at " + start);
    }
    startsAt.poll();
    unit = pending.poll();
    UnitUrls unitUrls = urls.poll();
    input = inputs.poll();
    int i = 0;
    for (HttpInputFile next : inputs) {
      if (i++ == PREFETCH) {
        break;
      }
      next.prefetch(footers);
    }
    long startRow = 0;
    if (position.insideFile()) { // a resume inside this file
      if (position.tableVersion() != unit.version() || position.index() != unit.index()
          || position.isStartingVersion() != unit.isStartingVersion()
          || (position.fileKey() != null && !position.fileKey().equals(unit.fileKey()))) {
        throw Errors.fileIdsChanged(table.toString(), position.tableVersion(), position.index());
      }
      startRow = position.row() + 1;
    }
    reader = UnitReader.open(client, input, unit, unitUrls, unit.schema(), settings.read(), startRow);
  }

  /**
   * The invariant every record's offset keeps broken: a bug, never a server's doing. The task fails rather than hand
   * out an offset past rows whose records it did not hand out; a restart resumes from the last committed offset.
   */
  private IllegalStateException outOfSequence(String what) {
    return new IllegalStateException("Refusing to hand out records of " + table + " out of sequence: it stands at "
        + position + " but " + what + ". This is a bug of the connector: restart the task, it resumes from its last "
        + "committed offset.");
  }

  /** Turns rows of the open file into records, at most {@code budget}; closes the file at its end. */
  private int readRows(List<SourceRecord> out, int budget) {
    int added = 0;
    while (true) {
      ChangeRow row = held != null ? held : reader.hasNext() ? reader.next() : null;
      held = null;
      if (row == null) {
        finishFile();
        return added;
      }
      int needs = converter.recordsFor(row.changeType());
      if (added + needs > budget) {
        held = row;
        return added;
      }
      Position after = reader.hasNext() ? unit.rowPosition(row.rowIndex()) : afterFile();
      if (after.compareTo(position) <= 0) {
        throw outOfSequence("row " + row.rowIndex() + " of " + unit.describe() + " would carry " + after);
      }
      converter.add(unit, row, after, out);
      if (rereading != null) { // a version read again from its start: each of its records may have gone out before
        if (unit.version() == rereading.tableVersion() && unit.isStartingVersion() == rereading.isStartingVersion()) {
          metrics.possibleDuplicates.addAndGet(converter.recordsFor(row.changeType()));
        } else {
          rereading = null;
        }
      }
      position = after;
      stored = after;
      storedAt = clock.millis();
      added += needs;
      metrics.records.addAndGet(needs);
    }
  }

  /**
   * The position after the open file: after the plan when it is the plan's last; after its version when the next
   * file planned is of a later version (so the record carrying it ends a Delta version, and a transaction); else
   * after the file.
   */
  private Position afterFile() {
    return after(unit, pending.peek(), planEnd);
  }

  /**
   * The position once {@code u} is read, {@code next} (null: none) being planned after it and {@code end} the plan's
   * end: after its version when {@code next} is of a later one, else after the file.
   */
  private static Position after(WorkUnit u, WorkUnit next, Position end) {
    if (next == null) {
      return end;
    }
    if (next.version() != u.version() || next.isStartingVersion() != u.isStartingVersion()) {
      return Position.beforeVersion(u.tableId(), u.version() + 1, false);
    }
    return u.endPosition();
  }

  private void finishFile() {
    reader.close();
    reader = null;
    input.abandon(); // a range opened ahead that no read needed (every row group skipped)
    metrics.filesRead.incrementAndGet();
    metrics.filesBehind.updateAndGet(f -> f > 0 ? f - 1 : f);
    metrics.bytesRead.addAndGet(input.bytesRead());
    if (position.compareTo(unit.endPosition()) < 0) {
      position = pending.isEmpty() && planEnd != null ? planEnd : afterFile(); // a file without rows to emit
    }
    unit = null;
    input = null;
  }

  /**
   * With connector-defined transactions: whether Delta versions were read to their end after the last record
   * without one carrying their end (their last files had no rows to emit), so a heartbeat must end the transaction.
   */
  private boolean versionDoneWithoutRecord() {
    return transactional && reader == null && pending.isEmpty() && position.index() == -1
        && position.compareTo(stored) > 0;
  }

  /**
   * A heartbeat when the position moved past the stored offset without records for a heartbeat interval, or at
   * once when {@code now}.
   */
  private void heartbeat(List<SourceRecord> out, boolean now) {
    long time = clock.millis();
    if (position.equals(stored) || reader != null
        || (!now && (heartbeatInterval.isZero() || time - storedAt < heartbeatInterval.toMillis()))) {
      return;
    }
    out.add(converter.heartbeat(heartbeatTopic, position, time));
    stored = position;
    storedAt = time;
  }

  /**
   * Forgets what was planned or open and goes back to {@code to} (the position of the last record handed out; null
   * when the table never started), so a failed read is done again from there.
   */
  void resetTo(Position to) {
    closeReader();
    unit = null;
    input = null;
    pending.clear();
    startsAt.clear();
    urls.clear();
    inputs.forEach(HttpInputFile::abandon);
    inputs.clear();
    planEnd = null;
    held = null;
    position = to;
    if (to == null && planner != null) {
      planner.close(); // starts over: offset lookup and starting point again
      planner = null;
    }
  }

  /** Leaves the table alone for {@code wait} (after a failure). */
  void waitFor(Duration wait) {
    waitUntil = clock.millis() + wait.toMillis();
  }

  /**
   * Stops reading the table for good in this task (a provider's action: it is no longer shared, cannot be streamed,
   * ...): {@code reason} and {@code message} go to its metrics.
   */
  void setAside(SetAsideReason reason, String message) {
    resetTo(position);
    if (planner != null) {
      planner.close();
      planner = null;
    }
    setAside = true;
    metrics.setAside(reason, message);
  }

  boolean isSetAside() {
    return setAside;
  }

  /** Whether the table waits after a failure before it is read again. */
  boolean waiting() {
    return clock.millis() < waitUntil;
  }

  private void closeReader() {
    if (reader != null) {
      try {
        reader.close();
      } catch (RuntimeException e) {
        LOG.debug("Closing a reader of {}: {}", table, e.toString());
      }
      reader = null;
    }
    if (input != null) {
      input.abandon();
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    closeReader();
    inputs.forEach(HttpInputFile::abandon);
    if (planner != null) {
      planner.close();
    }
    metrics.unregister();
  }
}
