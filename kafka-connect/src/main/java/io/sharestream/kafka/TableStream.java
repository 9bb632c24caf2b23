package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.ChangeRow;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
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
 * it goes and asking for new versions at most once per poll interval. A row's record carries the position after it,
 * so a restart resumes at the next row; the last row of a file carries the position after the file.
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
  private final Duration heartbeatInterval;
  private final String heartbeatTopic;
  private final int filesPerBatch;
  private final Executor footers;
  private final Clock clock;

  private SharingStreamPlanner planner;
  private Position position;
  private final Deque<WorkUnit> pending = new ArrayDeque<>();
  private final Deque<UnitUrls> urls = new ArrayDeque<>();
  private final Deque<HttpInputFile> inputs = new ArrayDeque<>();
  private Position planEnd;
  private WorkUnit unit;
  private HttpInputFile input;
  private UnitReader reader;
  private ChangeRow held;
  private long nextPlanAt;
  private long waitUntil;
  private Position stored;
  private long storedAt;

  TableStream(TableRef table, DeltaSharingClient client, StreamSettings settings, RecordConverter converter,
      TableMetrics metrics, DeltaSharingSourceConfig config, Executor footers, Clock clock) {
    this.table = table;
    this.client = client;
    this.settings = settings;
    this.converter = converter;
    this.metrics = metrics;
    this.pollInterval = config.pollInterval();
    this.heartbeatInterval = config.heartbeatInterval();
    this.heartbeatTopic = config.heartbeatTopic();
    this.filesPerBatch = config.filesPerBatch();
    this.footers = footers;
    this.clock = clock;
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

  /**
   * Connects to the table and settles where it starts: the stored offset (checked against the table's id), else the
   * starting options.
   */
  void start(Map<String, Object> storedOffset) {
    SharingStreamPlanner started = new SharingStreamPlanner(client, table, settings, pollInterval, clock);
    converter.checkKeyColumns(started.schema());
    Position from = SourceOffsets.position(storedOffset, table);
    if (from != null) {
      from.checkTable(started.metadata().id(), table.toString());
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

  /** The position of the last record handed out (where a restart would resume). */
  Position position() {
    return position;
  }

  /**
   * Adds at most {@code budget} records to {@code out}: rows of the table, or a heartbeat when the position moved
   * without rows. Returns whether the table has more to read right now.
   */
  boolean poll(List<SourceRecord> out, int budget) {
    int left = budget;
    while (left > 0) {
      if (reader != null) {
        left -= readRows(out, left);
        if (reader != null) {
          break; // budget spent mid-file
        }
        continue;
      }
      if (!pending.isEmpty()) {
        openNext();
        continue;
      }
      if (planEnd != null) {
        position = planEnd; // after the plan's last file: versions with nothing left count as read
        planEnd = null;
      }
      if (clock.millis() < nextPlanAt || !plan()) {
        break;
      }
    }
    metrics.currentVersion.set(position.tableVersion());
    metrics.latestKnownVersion.set(planner.latestVersion());
    metrics.lastSuccessfulPollTime.set(clock.millis());
    if (left == budget) {
      heartbeat(out);
    }
    return reader != null || !pending.isEmpty() || clock.millis() >= nextPlanAt;
  }

  /** Plans the next files; false when the table is caught up (and waits a poll interval). */
  private boolean plan() {
    StreamPlanner.Plan p = planner.plan(position, AdmissionLimits.files(filesPerBatch));
    if (p.units().isEmpty()) {
      boolean moved = !p.end().equals(position);
      position = p.end();
      if (!moved) {
        nextPlanAt = clock.millis() + pollInterval.toMillis();
      }
      return moved;
    }
    pending.addAll(p.units());
    for (WorkUnit u : p.units()) {
      UnitUrls unitUrls = planner.urls(u);
      urls.add(unitUrls);
      inputs.add(UnitReader.input(client, u, unitUrls));
    }
    planEnd = p.end();
    return true;
  }

  private void openNext() {
    unit = pending.poll();
    UnitUrls unitUrls = urls.poll();
    input = inputs.poll();
    int i = 0;
    for (HttpInputFile next : inputs) {
      if (i++ == PREFETCH) {
        break;
      }
      next.prefetchFooter(footers);
    }
    long startRow = position.insideFile() && position.tableVersion() == unit.version()
        && position.index() == unit.index() && position.isStartingVersion() == unit.isStartingVersion()
        ? position.row() + 1 : 0;
    reader = UnitReader.open(client, input, unit, unitUrls, unit.schema(), planner.metadata().partitionColumns(),
        settings.read(), startRow);
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
      Position after = reader.hasNext() ? unit.rowPosition(row.rowIndex())
          : pending.isEmpty() ? planEnd : unit.endPosition();
      converter.add(unit, row, after, out);
      position = after;
      stored = after;
      storedAt = clock.millis();
      added += needs;
      metrics.records.addAndGet(needs);
    }
  }

  private void finishFile() {
    reader.close();
    reader = null;
    metrics.filesRead.incrementAndGet();
    metrics.bytesRead.addAndGet(input.bytesRead());
    if (position.compareTo(unit.endPosition()) < 0) {
      position = pending.isEmpty() && planEnd != null ? planEnd : unit.endPosition(); // a file without rows to emit
    }
    unit = null;
    input = null;
  }

  /** A heartbeat when the position moved past the stored offset without records for a heartbeat interval. */
  private void heartbeat(List<SourceRecord> out) {
    long now = clock.millis();
    if (heartbeatInterval.isZero() || position.equals(stored) || reader != null
        || now - storedAt < heartbeatInterval.toMillis()) {
      return;
    }
    out.add(converter.heartbeat(heartbeatTopic, position, now));
    stored = position;
    storedAt = now;
  }

  /**
   * Forgets what was planned or open and goes back to {@code to} (the position of the last record handed out; null
   * when the table never started), so a failed read is done again from there after {@code wait}.
   */
  void resetTo(Position to, Duration wait) {
    closeReader();
    pending.clear();
    urls.clear();
    inputs.clear();
    planEnd = null;
    held = null;
    position = to;
    if (to == null) {
      planner = null; // starts over: offset lookup and starting point again
    }
    waitUntil = clock.millis() + wait.toMillis();
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
  }

  @Override
  public void close() {
    closeReader();
    if (planner != null) {
      planner.close();
    }
    metrics.unregister();
  }
}
