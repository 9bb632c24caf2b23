package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Batch reads, for both engines: a snapshot of the table (latest, at a version or at a timestamp), with predicate
 * and limit hints passed to the server, or the changes of a range of versions with readChangeFeed semantics (the
 * stream planner's, so batch and stream label rows alike). Files come as {@link WorkUnit}s in id order.
 */
public final class BatchPlanner {
  private BatchPlanner() {}

  /** What a batch read reads: the table's metadata, the version read, the files. */
  public static final class Plan {
    private final TableMetadata metadata;
    private final long firstVersion;
    private final long version;
    private final List<WorkUnit> units;

    Plan(TableMetadata metadata, long firstVersion, long version, List<WorkUnit> units) {
      this.metadata = metadata;
      this.firstVersion = firstVersion;
      this.version = version;
      this.units = Collections.unmodifiableList(new ArrayList<>(units));
    }

    public TableMetadata metadata() {
      return metadata;
    }

    /**
     * The snapshot's version, or the first version of a change range: after {@link #version()} when the range holds
     * none (it starts after the latest version, or no version was committed between its instants).
     */
    public long firstVersion() {
      return firstVersion;
    }

    /** The snapshot's version, or the last version of a change range. */
    public long version() {
      return version;
    }

    public List<WorkUnit> units() {
      return units;
    }
  }

  /**
   * The files of a snapshot: the latest ({@code version} and {@code timestamp} null; needs no history sharing), at
   * {@code version}, or as of {@code timestamp}. {@code jsonPredicateHints} and {@code limitHint} (either may be
   * null) let the server leave files out; the engine still filters the rows.
   */
  public static Plan snapshot(DeltaSharingClient client, TableRef table, Long version, Instant timestamp,
      String jsonPredicateHints, Long limitHint, Integer filesPerRequest) {
    QueryRequest q = version != null ? QueryRequest.atVersion(version)
        : timestamp != null ? QueryRequest.atTimestamp(timestamp) : QueryRequest.latest();
    if (jsonPredicateHints != null) {
      q.jsonPredicateHints(jsonPredicateHints);
    }
    if (limitHint != null) {
      q.limitHint(limitHint);
    }
    if (filesPerRequest != null) {
      q.maxFiles(filesPerRequest);
    }
    List<FileAction> files = new ArrayList<>();
    TableMetadata metadata;
    long listed;
    try (FileListing l = client.query(table, q)) {
      metadata = l.metadata();
      listed = l.tableVersion();
      while (l.hasNext()) {
        SharingAction a = l.next();
        if (a instanceof FileAction) {
          files.add((FileAction) a);
        }
      }
    }
    files.sort(Comparator.comparing(FileAction::id));
    // the URLs are refreshed by listing the same snapshot again: pinned to its version when history is shared
    FetchSpec spec = version != null || timestamp != null ? FetchSpec.snapshot(listed) : FetchSpec.latest(listed);
    List<WorkUnit> units = new ArrayList<>();
    for (FileAction f : files) {
      units.add(new WorkUnit(table.toString(), metadata.id(), listed, units.size(), f, null,
          f.timestamp() == null ? 0 : f.timestamp(), WorkUnit.RowSource.ADDED, false, false, spec, metadata.schema(),
          metadata.partitionColumns()));
    }
    return new Plan(metadata, listed, listed, units);
  }

  /**
   * Every change of versions {@code [start, end]} labelled as readChangeFeed labels them (change data where
   * recorded, else derived from added and removed files), under the table's latest schema. Each bound is a version or
   * an instant (the first version committed at or after a start instant, the last one committed at or before an end
   * instant); no end: the latest version. Needs history sharing.
   */
  public static Plan changes(DeltaSharingClient client, TableRef table, StreamSettings settings, Long startVersion,
      Instant startTimestamp, Long endVersion, Instant endTimestamp) {
    return changes(client, table, settings, startVersion, startTimestamp, endVersion, endTimestamp, false);
  }

  /**
   * As {@link #changes}, under the schema of the range's last version (as a snapshot at that version reads): a
   * column renamed or dropped after the range does not change how its rows read.
   */
  public static Plan changesUnderEndSchema(DeltaSharingClient client, TableRef table, StreamSettings settings,
      Long startVersion, Instant startTimestamp, Long endVersion, Instant endTimestamp) {
    return changes(client, table, settings, startVersion, startTimestamp, endVersion, endTimestamp, true);
  }

  private static Plan changes(DeltaSharingClient client, TableRef table, StreamSettings settings, Long startVersion,
      Instant startTimestamp, Long endVersion, Instant endTimestamp, boolean endSchema) {
    StreamSettings changes = settings.forChanges(startVersion != null ? StartingPoint.version(startVersion)
        : StartingPoint.timestamp(startTimestamp));
    Position from;
    long last;
    long latest;
    try (SharingStreamPlanner planner = new SharingStreamPlanner(client, table, changes, Duration.ZERO,
        Clock.systemUTC())) {
      from = startVersion != null ? Position.beforeVersion(planner.metadata().id(), startVersion, false)
          : planner.initialPosition(); // a range past the latest version is said by the caller, not as a stream's
      latest = planner.latestVersion();
      last = endVersion != null ? endVersion
          : endTimestamp != null ? planner.lastVersionAtOrBefore(endTimestamp) : latest;
      last = Math.min(last, latest);
      if (last < from.tableVersion()) {
        return new Plan(planner.metadata(), from.tableVersion(), last, Collections.emptyList());
      }
      if (!endSchema || last == latest) {
        return new Plan(planner.metadata(), from.tableVersion(), last, planner.units(from, endOf(from, last)));
      }
    }
    try (SharingStreamPlanner planner = new SharingStreamPlanner(client, table, changes,
        VersionPolling.every(Duration.ZERO), Clock.systemUTC(), last)) {
      return new Plan(planner.metadata(), from.tableVersion(), last, planner.units(from, endOf(from, last)));
    }
  }

  private static Position endOf(Position from, long last) {
    return Position.beforeVersion(from.tableId(), last + 1, false);
  }

}
