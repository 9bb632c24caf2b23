package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.TableSnapshotInfo;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.WorkUnit.RowSource;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link StreamPlanner} over the Delta Sharing REST API.
 *
 * <p>Walks positions through windows of at most {@code versionsPerRequest} versions, listed and cached by
 * {@link VersionWindows} ({@code query} with {@code startingVersion}/{@code endingVersion}, {@code changes} with
 * readChangeFeed, a snapshot {@code query} for the initial snapshot, or the snapshots around each version where a
 * server refuses history in the delta format). Each version's files are sorted by id (then kind) and numbered; which
 * are read and how their rows are labelled is {@link CommitRules}' (SPEC §4, §4b); the schema of each version is
 * {@link SchemaTracker}'s. Here: where a stream starts, how often the latest version is asked, admission, backlogs
 * and URL refreshes.
 */
public final class SharingStreamPlanner implements StreamPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(SharingStreamPlanner.class);

  private final DeltaSharingClient client;
  private final TableRef table;
  private final StreamSettings settings;
  private final Clock clock;
  private final VersionPolling polling;
  /** The wait between version polls now: the polling interval, or longer while the table does not change. */
  private Duration pollWait = Duration.ZERO;
  private final FileLister lister;
  private final TableMetadata startMetadata;
  private final SchemaTracker schemas;
  private final StartingVersions starts;
  private final VersionWindows versions;

  private long latest = -1;
  private long latestCheckedAt = Long.MIN_VALUE;

  /**
   * Connects the planner to {@code table}: reads its latest metadata at its latest version (which also proves the
   * table is shared with history, as streaming needs). {@code versionPollInterval} rate-limits version polls.
   */
  public SharingStreamPlanner(DeltaSharingClient client, TableRef table, StreamSettings settings,
      Duration versionPollInterval, Clock clock) {
    this(client, table, settings, VersionPolling.every(versionPollInterval), clock, null);
  }

  /** As the planner above, asking for the latest version as {@code polling} says. */
  public SharingStreamPlanner(DeltaSharingClient client, TableRef table, StreamSettings settings,
      VersionPolling polling, Clock clock) {
    this(client, table, settings, polling, clock, null);
  }

  /** As the planner above, under the table's schema at {@code schemaVersion} (null: at its latest version). */
  SharingStreamPlanner(DeltaSharingClient client, TableRef table, StreamSettings settings,
      VersionPolling polling, Clock clock, Long schemaVersion) {
    this.client = client;
    this.table = table;
    this.settings = settings;
    this.clock = clock;
    this.polling = polling;
    this.lister = new FileLister(client, table, settings.filesPerRequest());
    long v = client.tableVersion(table);
    long schemaAt = schemaVersion == null ? v : schemaVersion;
    TableSnapshotInfo info = client.metadata(table, schemaAt, null);
    this.startMetadata = info.metadata();
    this.schemas = new SchemaTracker(table.toString(), startMetadata, schemaAt, settings.evolveOnRenameOrDrop());
    this.starts = new StartingVersions(client, table, lister, this::refreshLatest);
    this.versions = new VersionWindows(client, table, settings, clock, lister, startMetadata, schemas, starts);
    noteLatest(v);
  }

  @Override
  public TableMetadata metadata() {
    return startMetadata;
  }

  /** The schema of the newest version planned: the start schema, changed by later metadata as the engine allows. */
  public StructType schema() {
    return schemas.current();
  }

  @Override
  public Position initialPosition() {
    String id = startMetadata.id();
    StartingPoint start = settings.startingPoint();
    switch (start.kind()) {
      case SNAPSHOT:
        return Position.beforeVersion(id, refreshLatest(), true);
      case VERSION:
        long latestNow = latestVersion(); // known since the start: no request, the polling backoff untouched
        if (start.version() > latestNow) {
          LOG.warn("{}: startingVersion {} is beyond the table's latest version {}: the stream waits for version {} "
              + "to be committed and reads nothing before it. Check the version, or start at 'latest' for the "
              + "commits to come.", table, start.version(), latestNow, start.version());
        }
        return Position.beforeVersion(id, start.version(), false);
      case EARLIEST:
        return Position.beforeVersion(id, earliestServedVersion(), false);
      case TIMESTAMP:
        return Position.beforeVersion(id, starts.firstVersionAtOrAfter(start.timestamp()), false);
      case LATEST:
      default:
        return Position.beforeVersion(id, refreshLatest() + 1, false);
    }
  }

  /**
   * The earliest version whose changes the server still serves: 0 unless the table's log was cleaned up (a few
   * requests, a binary search over the versions).
   */
  public long earliestServedVersion() {
    return starts.earliestServedVersion(0, refreshLatest());
  }

  /** The last version committed at or before {@code t} (an end instant); -1 when none is. */
  public long lastVersionAtOrBefore(Instant t) {
    return starts.lastVersionAtOrBefore(t);
  }

  @Override
  public synchronized long latestVersion() {
    long now = clock.millis();
    if (latest < 0 || now - latestCheckedAt >= pollWait.toMillis()) {
      return refreshLatest();
    }
    return latest;
  }

  /** This planner spilling listings beyond {@code files} to disk (tests spill small tables). */
  SharingStreamPlanner spillingBeyond(int files) {
    lister.spillBeyond(files);
    return this;
  }

  /** The latest version the server has reported, without asking (-1 before its first answer). */
  public synchronized long latestKnownVersion() {
    return latest;
  }

  /**
   * Files and bytes a stream at {@code from} has yet to read up to {@link #latestKnownVersion()}, counted in the
   * versions this planner has listed (no request is made); null when a version in between is not listed yet.
   */
  public Backlog backlog(Position from) {
    long top = latestKnownVersion();
    long files = 0;
    long bytes = 0;
    long v = from.tableVersion();
    if (from.isStartingVersion()) {
      VersionWindow w = versions.cache().get(FetchSpec.snapshot(v));
      if (w == null) {
        return null;
      }
      List<WorkUnit> units = w.units(v);
      int first = firstUnread(from, units);
      files += units.size() - first;
      bytes += bytesFrom(units, first);
      v++;
    }
    for (; v <= top; v++) {
      VersionWindow w = versions.cache().holding(v);
      if (w == null) {
        return null;
      }
      List<WorkUnit> units = w.units(v);
      int first = from.isStartingVersion() || v != from.tableVersion() ? 0 : firstUnread(from, units);
      files += units.size() - first;
      bytes += bytesFrom(units, first);
    }
    return new Backlog(files, bytes);
  }

  /** The first of the units of {@code from}'s version not yet wholly read at {@code from}. */
  private static int firstUnread(Position from, List<WorkUnit> units) {
    return (int) Math.min(units.size(), from.insideFile() ? from.index() : from.index() + 1);
  }

  /** The size of {@code units} from {@code first} on (spilled units say it without being read). */
  private static long bytesFrom(List<WorkUnit> units, int first) {
    if (units instanceof SpilledUnits) {
      return ((SpilledUnits) units).bytesFrom(first);
    }
    long bytes = 0;
    for (WorkUnit u : units.subList(first, units.size())) {
      bytes += u.file().size();
    }
    return bytes;
  }

  /** The table's latest version, asked of the server now (whatever the poll interval). */
  public long latestVersionNow() {
    return refreshLatest();
  }

  private synchronized long refreshLatest() {
    return noteLatest(client.tableVersion(table));
  }

  private synchronized long noteLatest(long v) {
    if (v < latest) {
      versions.checkTableId(); // a table recreated under the same name starts over at low versions
      LOG.warn("The server reports version {} of {} after reporting {}; keeping {}", v, table, latest, latest);
    }
    pollWait = polling.next(pollWait, v > latest);
    latest = Math.max(latest, v);
    latestCheckedAt = clock.millis();
    return latest;
  }

  // ------------------------------------------------------------------ planning

  @Override
  public Plan plan(Position from, AdmissionLimits limits) {
    from.checkTable(startMetadata.id(), table.toString());
    Plan p = walk(from, limits, null);
    return new Plan(refreshExpiring(p.units()), p.end());
  }

  @Override
  public List<WorkUnit> units(Position start, Position end) {
    start.checkTable(startMetadata.id(), table.toString());
    end.checkNotBefore(start);
    return refreshExpiring(walk(start, AdmissionLimits.UNLIMITED, end).units());
  }

  private Plan walk(Position from, AdmissionLimits limits, Position stopAt) {
    List<WorkUnit> out = new ArrayList<>();
    long files = 0;
    long bytes = 0;
    Position pos = from;
    long top = stopAt != null ? lastVersionNeededFor(stopAt) : Math.min(latestVersion(), limits.lastVersion());
    while (pos.isStartingVersion() || pos.tableVersion() <= top) {
      VersionWindow w;
      try {
        w = pos.isStartingVersion() ? versions.snapshot(pos.tableVersion())
            : versions.window(pos.tableVersion(), Math.min(top, pos.tableVersion() + settings.versionsPerRequest()
                - 1));
      } catch (UnsupportedTableFeatureException e) {
        if (!out.isEmpty() || !pos.equals(from)) {
          return new Plan(out, pos); // the protocol from this version on is not read: first the versions before it
        }
        throw e;
      }
      for (long v = pos.tableVersion(); v <= w.end; v++) {
        if (!w.snapshot && !schemas.readable(v)) {
          // a rename or drop stops the stream here: first the versions before it, then the failure
          if (!out.isEmpty() || !pos.equals(from)) {
            return new Plan(out, pos);
          }
          schemas.checkReadable(v);
        }
        List<WorkUnit> units = w.units(v);
        checkSameFile(from, units, v, w.snapshot);
        if (stopAt != null) {
          checkSameFile(stopAt, units, v, w.snapshot);
        }
        int first = v != pos.tableVersion() ? 0 : (int) (pos.insideFile() ? pos.index() : pos.index() + 1);
        for (int i = first; i < units.size(); i++) {
          WorkUnit u = units.get(i);
          if (stopAt != null && u.endPosition().compareTo(stopAt) > 0) {
            return new Plan(out, pos);
          }
          boolean sameCdfVersion = !out.isEmpty() && u.source() == RowSource.CHANGE_DATA
              && out.get(out.size() - 1).source() == RowSource.CHANGE_DATA
              && out.get(out.size() - 1).version() == v
              && out.get(out.size() - 1).isStartingVersion() == u.isStartingVersion();
          if (!sameCdfVersion && (files >= limits.maxFiles() || bytes >= limits.maxBytes())) {
            return new Plan(out, pos);
          }
          out.add(u);
          files++;
          bytes += u.file().size();
          pos = i == units.size() - 1 ? Position.beforeVersion(startMetadata.id(), v + 1, false) : u.endPosition();
        }
        if (units.size() <= first) { // nothing (left) in this version: empty, skipped, or already consumed
          pos = Position.beforeVersion(startMetadata.id(), v + 1, false);
        }
        if (stopAt != null && pos.compareTo(stopAt) >= 0) {
          return new Plan(out, pos);
        }
      }
      if (w.snapshot) {
        continue; // go on with the changes after the snapshot
      }
      if (w.end >= top) {
        break;
      }
    }
    return new Plan(out, pos);
  }

  /**
   * Fails when {@code p} lies inside version {@code v} (of the snapshot, or of the changes) and the file listed at its
   * index is not the one it was taken in: the server lists the version with other file ids, so its order, and with
   * it which files come before the position, may differ too.
   */
  private void checkSameFile(Position p, List<WorkUnit> units, long v, boolean snapshot) {
    if (p.fileKey() == null || p.tableVersion() != v || p.isStartingVersion() != snapshot) {
      return;
    }
    if (p.index() >= units.size() || !units.get((int) p.index()).fileKey().equals(p.fileKey())) {
      throw Errors.fileIdsChanged(table.toString(), v, p.index());
    }
  }

  /** The newest version a range ending at {@code stopAt} needs listed, never beyond the server's latest. */
  private synchronized long lastVersionNeededFor(Position stopAt) {
    long needed = stopAt.index() >= 0 || stopAt.isStartingVersion() ? stopAt.tableVersion()
        : stopAt.tableVersion() - 1;
    return needed <= latest ? latest : refreshLatest();
  }

  /** The line logged once for {@code version} (a change commit, a rewrite), or null when none was. */
  String changeCommitLog(long version) {
    return versions.changeCommitLog(version);
  }

  // ------------------------------------------------------------------ URLs

  /** Units whose URLs expire within the refresh margin, refreshed; cached windows then hand out the fresh ones. */
  private List<WorkUnit> refreshExpiring(List<WorkUnit> units) {
    return ExpiringUrls.refresh(units, clock.millis() + settings.urlRefreshMargin().toMillis(), lister,
        versions.cache(), table.toString(), versions::relist);
  }

  @Override
  public UnitUrls urls(WorkUnit unit) {
    return new UnitUrls(lister, unit);
  }

  @Override
  public void close() {
    versions.clear();
  }

  @Override
  public String toString() {
    return "SharingStreamPlanner{" + table + ", " + settings + "}";
  }
}
