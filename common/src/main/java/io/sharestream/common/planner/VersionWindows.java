package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.errors.ChangeDataNotRecordedException;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.CommitRules.Commit;
import io.sharestream.common.planner.CommitRules.Part;
import io.sharestream.common.planner.CommitRules.Rule;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versions a {@link SharingStreamPlanner} walks, as windows of units: listed from the server ({@code query} from
 * a startingVersion, {@code changes} with readChangeFeed, a snapshot {@code query}, or the snapshots around each
 * version where a server refuses history in the delta format), each version's files sorted by id (then kind) and
 * numbered, which are read and how their rows are labelled being {@link CommitRules}'; the last few windows cached.
 * A version listed beyond the lister's {@link FileLister#filesInHeap} files is spilled to local disk and planned from
 * there.
 */
final class VersionWindows {
  private static final Logger LOG = LoggerFactory.getLogger(VersionWindows.class);
  private static final Comparator<Part> FILE_ORDER =
      Comparator.comparing((Part p) -> p.file.id()).thenComparing(p -> p.file.kind());
  private static final int CACHED_WINDOWS = 4;

  private final DeltaSharingClient client;
  private final TableRef table;
  private final StreamSettings settings;
  private final Clock clock;
  private final FileLister lister;
  private final TableMetadata startMetadata;
  private final SchemaTracker schemas;
  private final StartingVersions starts;
  private final WindowCache windows = new WindowCache(CACHED_WINDOWS);
  private final VersionLog once = new VersionLog(LOG);
  private volatile boolean historyFromSnapshots;

  VersionWindows(DeltaSharingClient client, TableRef table, StreamSettings settings, Clock clock, FileLister lister,
      TableMetadata startMetadata, SchemaTracker schemas, StartingVersions starts) {
    this.client = client;
    this.table = table;
    this.settings = settings;
    this.clock = clock;
    this.lister = lister;
    this.startMetadata = startMetadata;
    this.schemas = schemas;
    this.starts = starts;
  }

  /** The cache of the windows listed last (URL refreshes replace units in it). */
  WindowCache cache() {
    return windows;
  }

  /** The snapshot at {@code version}: cached, or listed. */
  VersionWindow snapshot(long version) {
    FetchSpec spec = FetchSpec.snapshot(version);
    VersionWindow cached = windows.get(spec);
    return cached != null ? cached : listSnapshot(version);
  }

  private VersionWindow listSnapshot(long version) {
    FetchSpec spec = FetchSpec.snapshot(version);
    VersionWindow w = new VersionWindow(spec);
    try (VersionFiles files = new VersionFiles(lister.filesInHeap())) {
      lister.list(spec, m -> schemas.check(m, version), a -> {
        if (a instanceof FileAction) {
          files.add((FileAction) a);
        }
      });
      long ts = snapshotTimestamp(version, files);
      Commit c = files.commit(version, true);
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

  /** A window of history from {@code start} (to {@code end} at most): cached, or listed. */
  VersionWindow window(long start, long end) {
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
        spec.kind() == FetchSpec.Kind.SNAPSHOT_DIFF, lister.filesInHeap());
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
  void checkTableId() {
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
    if (cdf) {
      FetchSpec one = FetchSpec.changes(v, v);
      try (ListedVersions l = list(one)) {
        Commit changes = l.commit(v);
        if (changes.hasChangeData()) {
          once.log(v, "Change commit {} of {} removed {} and added {}: emitting its inserted and updated rows from "
              + "the change data feed; its deleted rows ({}) and pre-images are not emitted (set readChangeFeed=true "
              + "to receive them)", v, table, files(c.removeCount()), files(c.addCount()),
              deletedRows(c, "at most ", ": the live rows of the files it removed"));
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
        files(c.addCount()), deletedRows(c, "", ": the live rows of the files it removed, by file stats and deletion "
            + "vectors"));
    return units(c, Rule.NEW_IMAGES, ts, false, spec);
  }

  /**
   * The deleted rows of {@code c} for its log line, counted only when the line is logged (a spilled commit's count
   * reads its whole spill).
   */
  private static Object deletedRows(Commit c, String before, String after) {
    return new Object() {
      @Override
      public String toString() {
        long n = c.spilled != null ? SpilledParts.deletedRows(c.spilled) : CommitRules.deletedRows(c);
        return n < 0 ? UNKNOWN_DELETES : before + rows(n) + after;
      }
    };
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
    } catch (RuntimeException e) {
      w.close();
      throw e;
    }
    windows.put(w.spec, w);
    return w;
  }

  private void snapshotDiffs(ListedVersions l, VersionWindow w) {
    for (long v = w.start; v <= w.end; v++) {
      FetchSpec one = FetchSpec.snapshotDiff(v, v); // a URL refresh lists just the two snapshots of its version
      Commit c = l.commit(v);
      long ts = l.timestamp(v);
      if (c.mayKeepRows() && keepsRows(c, ts, one)) {
        once.log(v, "Version {} of {} rewrote {} files into {} without changing rows (OPTIMIZE): nothing to emit", v,
            table, c.removeCount(), c.addCount());
        c.close();
        w.byVersion.put(v, Collections.emptyList());
        continue;
      }
      w.byVersion.put(v, settings.readChangeFeed() ? changeFeed(c, ts, one) : dataChanges(c, ts, false, one));
    }
  }

  /**
   * Whether {@code c} rewrote its files without changing rows ({@link RewriteCheck}). The check's units read the
   * commit's spill (if any) without owning it; on failure the commit is closed.
   */
  private boolean keepsRows(Commit c, long ts, FetchSpec spec) {
    try {
      return RewriteCheck.keepsRows(client, lister, units(c, Rule.REMOVED, ts, false, spec),
          units(c, Rule.ADDED, ts, false, spec), settings.read());
    } catch (RuntimeException e) {
      c.close();
      throw e;
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

  /** A window spilled to disk, listed again whole (its URLs all fresh) in place of the cached one. */
  VersionWindow relist(FetchSpec spec) {
    switch (spec.kind()) {
      case SNAPSHOT:
        return listSnapshot(spec.startVersion());
      case QUERY: // readChangeFeed lists a version without change data this way
        return settings.readChangeFeed() ? derivedChangesWindow(spec.startVersion())
            : dataChangeWindow(spec.startVersion(), spec.endVersion());
      case CHANGES:
        return changeFeedWindow(spec.startVersion(), spec.endVersion());
      case SNAPSHOT_DIFF:
        return snapshotDiffWindow(spec.startVersion(), spec.endVersion());
      default:
        throw new IllegalStateException("the latest snapshot is never spilled: " + spec);
    }
  }

  /** Deletes what is cached, spills included. */
  void clear() {
    windows.clear();
  }
}
