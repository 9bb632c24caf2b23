package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.client.TableSnapshotInfo;
import io.sharestream.common.errors.ChangeDataNotRecordedException;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.CommitRules.Commit;
import io.sharestream.common.planner.CommitRules.Part;
import io.sharestream.common.planner.CommitRules.Rule;
import io.sharestream.common.planner.WorkUnit.RowSource;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link StreamPlanner} over the Delta Sharing REST API.
 *
 * <p>Versions are fetched in windows of at most {@code versionsPerRequest}: {@code query} with
 * {@code startingVersion}/{@code endingVersion} (or {@code changes} with readChangeFeed), a snapshot {@code query}
 * at a version for the initial snapshot. A server that answers snapshots but refuses history in the delta format
 * (the reference server, for tables with deletion vectors or column mapping) gets each version's changes derived
 * from consecutive snapshots instead. Each version's files are sorted by id (then kind) and numbered; which are read
 * and how their rows are labelled is {@link CommitRules}' (SPEC §4, §4b); the schema of each version is
 * {@link SchemaTracker}'s.
 */
public final class SharingStreamPlanner implements StreamPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(SharingStreamPlanner.class);
  private static final Comparator<Part> FILE_ORDER =
      Comparator.comparing((Part p) -> p.file.id()).thenComparing(p -> p.file.kind());
  private static final int CACHED_WINDOWS = 4;
  /** Files of one listing kept in the heap; beyond them a version's files are spilled to local disk. */
  static final int FILES_IN_HEAP = 10_000;

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
  private volatile boolean historyFromSnapshots;
  private int filesInHeap = FILES_IN_HEAP;

  private long latest = -1;
  private long latestCheckedAt = Long.MIN_VALUE;
  private final WindowCache windows = new WindowCache(CACHED_WINDOWS);
  private final VersionLog once = new VersionLog(LOG);

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
        return Position.beforeVersion(id, start.version(), false);
      case TIMESTAMP:
        return Position.beforeVersion(id, starts.firstVersionAtOrAfter(start.timestamp()), false);
      case LATEST:
      default:
        return Position.beforeVersion(id, refreshLatest() + 1, false);
    }
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
    this.filesInHeap = files;
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
      VersionWindow w = windows.get(FetchSpec.snapshot(v));
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
      VersionWindow w = windows.holding(v);
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
      checkTableId(); // a table recreated under the same name starts over at low versions
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
        w = pos.isStartingVersion() ? snapshot(pos.tableVersion())
            : window(pos.tableVersion(), Math.min(top, pos.tableVersion() + settings.versionsPerRequest() - 1));
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

  // ------------------------------------------------------------------ windows

  private VersionWindow snapshot(long version) {
    FetchSpec spec = FetchSpec.snapshot(version);
    VersionWindow cached = windows.get(spec);
    return cached != null ? cached : listSnapshot(version);
  }

  private VersionWindow listSnapshot(long version) {
    FetchSpec spec = FetchSpec.snapshot(version);
    VersionWindow w = new VersionWindow(spec);
    try (VersionFiles files = new VersionFiles()) {
      lister.list(spec, m -> schemas.check(m, version), a -> {
        if (a instanceof FileAction) {
          if (files.size() >= filesInHeap) {
            files.spill();
          }
          files.add((FileAction) a);
        }
      });
      long ts = snapshotTimestamp(version, files);
      Commit c = files.spilled() ? new Commit(version, files.sorted()) : new Commit(version, files.all(), true);
      w.byVersion.put(version, units(c, Rule.ADDED, ts, true, spec));
    }
    windows.put(spec, w);
    return w;
  }

  /**
   * The commit time snapshot rows carry: from the file lines when the server sends it; else (the reference server
   * does not) the version's commit time from its startingVersion lines; else the newest modification time of its
   * files (delta format); else, for a version without data changes, the time the snapshot was taken.
   */
  private long snapshotTimestamp(long version, VersionFiles files) {
    if (files.size() == 0) {
      return 0;
    }
    if (files.firstTimestamp() != null) {
      return files.firstTimestamp();
    }
    Long ts = historyFromSnapshots ? null : starts.commitTimestamp(version);
    if (ts == null) {
      ts = files.newestModification();
    }
    return ts != null ? ts : clock.millis();
  }

  private VersionWindow window(long start, long end) {
    VersionWindow cached = windows.holding(start); // versions past its end are listed by the next window
    if (cached != null) {
      return cached;
    }
    if (!historyFromSnapshots) {
      try {
        return settings.readChangeFeed() ? changeFeedWindow(start, end) : dataChangeWindow(start, end);
      } catch (DeltaFormatRequiredException refused) {
        if (client.settings().responseFormat() == ResponseFormat.PARQUET) {
          throw refused;
        }
        historyFromSnapshots = true;
        LOG.info("The server answers snapshots of {} but not its history in the delta response format: each "
            + "version's changes are derived from the snapshots before and after it (change data files are not "
            + "used; commit times are taken from file modification times)", table);
      }
    }
    return snapshotDiffWindow(start, end);
  }

  private ListedVersions list(FetchSpec spec) {
    ListedVersions l = new ListedVersions(schemas, table.toString(), client.settings().readerFeatures(),
        spec.kind() == FetchSpec.Kind.SNAPSHOT_DIFF, filesInHeap);
    try {
      lister.list(spec, m -> l.head(m, spec.startVersion()), a -> l.action(a, "listing " + spec + " of " + table));
    } catch (InvalidRequestException | VersionNotAvailableException e) {
      l.close();
      checkTableId(); // versions that no longer make sense may mean a recreated table: say that instead
      throw e;
    } catch (RuntimeException e) {
      l.close();
      throw e;
    }
    return l;
  }

  /** Fails with {@link io.sharestream.common.errors.TableRecreatedException} when the table's id changed. */
  private void checkTableId() {
    TableMetadata now = client.metadata(table, null, null).metadata();
    if (!now.id().equals(startMetadata.id())) {
      schemas.check(now, null);
    }
  }

  /** Default and skipChangeCommits modes: {@code query} from startingVersion. */
  private VersionWindow dataChangeWindow(long start, long end) {
    FetchSpec spec = FetchSpec.query(start, end);
    VersionWindow w = new VersionWindow(spec);
    try (ListedVersions l = list(spec)) {
      for (long v = start; v <= end; v++) {
        w.byVersion.put(v, dataChanges(l.commit(v), l.timestamp(v), l.cdfEnabledAt(v), spec));
      }
    } catch (RuntimeException e) {
      w.close();
      throw e;
    }
    windows.put(spec, w);
    return w;
  }

  /**
   * Default and skipChangeCommits modes for one commit: an append's rows; a change commit skipped, or its new row
   * images (insert/update_postimage change data when recorded, else its added files' rows).
   */
  private List<WorkUnit> dataChanges(Commit c, long ts, boolean cdf, FetchSpec spec) {
    long v = c.version;
    if (!c.isChange()) {
      return units(c, Rule.ADDED, ts, false, spec);
    }
    if (settings.skipChangeCommits()) {
      once.log(v, "Skipping change commit {} of {} ({} files removed, {} added): skipChangeCommits=true", v, table,
          c.removeCount(), c.addCount());
      c.close();
      return Collections.emptyList();
    }
    long deleted = c.spilled != null ? SpilledParts.deletedRows(c.spilled) : CommitRules.deletedRows(c);
    if (cdf) {
      FetchSpec one = FetchSpec.changes(v, v);
      try (ListedVersions l = list(one)) {
        Commit changes = l.commit(v);
        if (changes.hasChangeData()) {
          once.log(v, "Change commit {} of {} removed {} and added {}: emitting its inserted and updated rows from "
              + "the change data feed; its deleted rows ({}) and pre-images are not emitted (set readChangeFeed=true "
              + "to receive them)", v, table, files(c.removeCount()), files(c.addCount()),
              deleted < 0 ? UNKNOWN_DELETES : "at most " + rows(deleted) + ": the live rows of the files it removed");
          c.close();
          return units(changes, Rule.NEW_CHANGE_DATA, l.timestamp(v, ts), false, one);
        }
        changes.close();
      } catch (ChangeDataNotRecordedException e) {
        LOG.debug("No change data for version {} of {}: using its added files", v, table);
      }
    }
    once.log(v, "Change commit {} of {} removed {} and added {}: emitting the rows it added; its deleted rows ({}) "
        + "are not emitted (set readChangeFeed=true to receive them)", v, table, files(c.removeCount()),
        files(c.addCount()), deleted < 0 ? UNKNOWN_DELETES
            : rows(deleted) + ": the live rows of the files it removed, by file stats and deletion vectors");
    return units(c, Rule.NEW_IMAGES, ts, false, spec);
  }

  /** How a change commit's log line counts deletes no file stats tell. */
  private static final String UNKNOWN_DELETES = "unknown: the files it removed came without row counts (stats)";

  private static String files(int n) {
    return n + (n == 1 ? " file" : " files");
  }

  private static String rows(long n) {
    return n + (n == 1 ? " row" : " rows");
  }

  /** readChangeFeed: {@code changes}; where change data was not recorded, derived from {@code query}. */
  private VersionWindow changeFeedWindow(long start, long end) {
    FetchSpec spec = FetchSpec.changes(start, end);
    ListedVersions l;
    try {
      l = list(spec);
    } catch (ChangeDataNotRecordedException e) {
      long v = e.version();
      if (v > start && v <= end) {
        return changeFeedWindow(start, v - 1);
      }
      LOG.info("Change data was not recorded for version {} of {}: deriving its changes from added and removed files",
          start, table);
      return derivedChangesWindow(start);
    }
    VersionWindow w = new VersionWindow(spec);
    try {
      for (long v = start; v <= end; v++) {
        w.byVersion.put(v, changeFeed(l.commit(v), l.timestamp(v), spec));
      }
    } catch (RuntimeException e) {
      w.close();
      throw e;
    } finally {
      l.close();
    }
    windows.put(spec, w);
    return w;
  }

  /** readChangeFeed for a version without change data: its changes derived from {@code query}. */
  private VersionWindow derivedChangesWindow(long v) {
    FetchSpec derived = FetchSpec.query(v, v);
    VersionWindow w = new VersionWindow(derived);
    try (ListedVersions d = list(derived)) {
      w.byVersion.put(v, units(d.commit(v), Rule.DERIVED_CHANGES, d.timestamp(v), false, derived));
    }
    windows.put(derived, w);
    return w;
  }

  /** readChangeFeed for one commit: its change data when recorded, else the changes derived from its files. */
  private List<WorkUnit> changeFeed(Commit c, long ts, FetchSpec spec) {
    return units(c, c.hasChangeData() ? Rule.CHANGE_DATA : Rule.DERIVED_CHANGES, ts, false, spec);
  }

  /**
   * Any mode, from snapshots: each version's removes and adds derived from the snapshots around it; a version that
   * only rewrote files without changing rows (OPTIMIZE) is recognized by its rows and emits nothing.
   */
  private VersionWindow snapshotDiffWindow(long start, long end) {
    VersionWindow w = new VersionWindow(FetchSpec.snapshotDiff(start, end));
    try (ListedVersions l = list(w.spec)) {
      snapshotDiffs(l, w);
    }
    windows.put(w.spec, w);
    return w;
  }

  private void snapshotDiffs(ListedVersions l, VersionWindow w) {
    for (long v = w.start; v <= w.end; v++) {
      FetchSpec one = FetchSpec.snapshotDiff(v, v); // a URL refresh lists just the two snapshots of its version
      Commit c = new Commit(v, l.files(v), true);
      long ts = l.timestamp(v);
      if (c.mayKeepRows() && RewriteCheck.keepsRows(client, lister, units(v, CommitRules.removed(c), ts, false, one),
          units(v, CommitRules.added(c.adds), ts, false, one), settings.read())) {
        once.log(v, "Version {} of {} rewrote {} files into {} without changing rows (OPTIMIZE): nothing to emit", v,
            table, c.removes.size(), c.adds.size());
        w.byVersion.put(v, Collections.emptyList());
        continue;
      }
      w.byVersion.put(v, settings.readChangeFeed() ? changeFeed(c, ts, one) : dataChanges(c, ts, false, one));
    }
  }

  /** A version's parts as units, sorted by file id (then kind) and numbered, with the version's schema. */
  private List<WorkUnit> units(long v, List<Part> parts, long ts, boolean snapshot, FetchSpec spec) {
    List<Part> sorted = new ArrayList<>(parts);
    sorted.sort(FILE_ORDER);
    StructType schema = schemas.schemaAt(v);
    List<String> partitionColumns = schemas.partitionColumnsAt(v);
    List<WorkUnit> out = new ArrayList<>();
    for (Part p : sorted) {
      out.add(new WorkUnit(table.toString(), startMetadata.id(), v, out.size(), p.file, p.previous, ts, p.source,
          p.newImagesOnly, snapshot, spec, schema, partitionColumns));
    }
    return out;
  }

  /**
   * The units of {@code c} by {@code rule}: made in the heap, or, for a spilled commit, as they are asked for from
   * its spill (which they then own).
   */
  private List<WorkUnit> units(Commit c, Rule rule, long ts, boolean snapshot, FetchSpec spec) {
    long v = c.version;
    if (c.spilled == null) {
      return units(v, CommitRules.parts(c, rule), ts, snapshot, spec);
    }
    SpilledParts parts = rule == Rule.ADDED && c.spilled.adds() == c.spilled.size() ? null
        : SpilledParts.of(c.spilled, rule);
    StructType schema = schemas.schemaAt(v);
    List<String> partitionColumns = schemas.partitionColumnsAt(v);
    String id = startMetadata.id();
    String name = table.toString();
    return new SpilledUnits(c.spilled, parts, (f, previous, source, newImagesOnly, i) -> new WorkUnit(name, id, v, i,
        f, previous, ts, source, newImagesOnly, snapshot, spec, schema, partitionColumns));
  }

  /** The line logged once for {@code version} (a change commit, a rewrite), or null when none was. */
  String changeCommitLog(long version) {
    return once.line(version);
  }

  // ------------------------------------------------------------------ URLs

  /** Units whose URLs expire within the refresh margin, refreshed; cached windows then hand out the fresh ones. */
  private List<WorkUnit> refreshExpiring(List<WorkUnit> units) {
    return ExpiringUrls.refresh(units, clock.millis() + settings.urlRefreshMargin().toMillis(), lister, windows,
        table.toString(), this::relist);
  }

  /** A window spilled to disk, listed again whole (its URLs all fresh) in place of the cached one. */
  private VersionWindow relist(FetchSpec spec) {
    switch (spec.kind()) {
      case SNAPSHOT:
        return listSnapshot(spec.startVersion());
      case QUERY: // readChangeFeed lists a version without change data this way
        return settings.readChangeFeed() ? derivedChangesWindow(spec.startVersion())
            : dataChangeWindow(spec.startVersion(), spec.endVersion());
      case CHANGES:
        return changeFeedWindow(spec.startVersion(), spec.endVersion());
      default:
        throw new IllegalStateException("only snapshot, query and changes windows are spilled, not " + spec);
    }
  }

  @Override
  public UnitUrls urls(WorkUnit unit) {
    return new UnitUrls(lister, unit);
  }

  @Override
  public void close() {
    windows.clear();
  }

  @Override
  public String toString() {
    return "SharingStreamPlanner{" + table + ", " + settings + "}";
  }
}
