package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.SignedUrl;
import io.sharestream.common.client.TableSnapshotInfo;
import io.sharestream.common.errors.ChangeDataNotRecordedException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.IncompatibleSchemaChangeException;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.TableRecreatedException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.WorkUnit.RowSource;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.SchemaCompatibility;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link StreamPlanner} over the Delta Sharing REST API.
 *
 * <p>Versions are fetched in windows of at most {@code versionsPerRequest}: {@code query} with
 * {@code startingVersion}/{@code endingVersion} (or {@code changes} with readChangeFeed), a snapshot {@code query}
 * at a version for the initial snapshot. Each version's files are sorted by id (then kind) and numbered; a commit
 * with removes is a change commit, handled per SPEC §4: skipped (skipChangeCommits), its new row images (default:
 * insert/update_postimage change data when recorded, else its added files), or all its changes (readChangeFeed:
 * change data when recorded, else removed files as deletes and added files as inserts). Metadata lines are checked:
 * a new table id fails, an additive schema change widens the schema, any other change fails.
 */
public final class SharingStreamPlanner implements StreamPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(SharingStreamPlanner.class);
  private static final Comparator<FileAction> FILE_ORDER =
      Comparator.comparing(FileAction::id).thenComparing(FileAction::kind);

  private final DeltaSharingClient client;
  private final TableRef table;
  private final StreamSettings settings;
  private final Clock clock;
  private final Duration versionPollInterval;
  private final FileLister lister;
  private final TableMetadata startMetadata;
  private volatile StructType schema;

  private long latest = -1;
  private long latestCheckedAt = Long.MIN_VALUE;
  private final Map<FetchSpec, Window> windows = new LinkedHashMap<FetchSpec, Window>(8, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<FetchSpec, Window> eldest) {
      return size() > 4;
    }
  };
  private final Map<Long, Boolean> changeCommitsLogged = Collections.synchronizedMap(
      new LinkedHashMap<Long, Boolean>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
          return size() > 1000;
        }
      });

  /**
   * Connects the planner to {@code table}: reads its latest metadata at its latest version (which also proves the
   * table is shared with history, as streaming needs). {@code versionPollInterval} rate-limits version polls.
   */
  public SharingStreamPlanner(DeltaSharingClient client, TableRef table, StreamSettings settings,
      Duration versionPollInterval, Clock clock) {
    this.client = client;
    this.table = table;
    this.settings = settings;
    this.clock = clock;
    this.versionPollInterval = versionPollInterval;
    this.lister = new FileLister(client, table, settings.filesPerRequest());
    long v = client.tableVersion(table);
    TableSnapshotInfo info = client.metadata(table, v, null);
    this.startMetadata = info.metadata();
    this.schema = startMetadata.schema();
    noteLatest(v);
  }

  @Override
  public TableMetadata metadata() {
    return startMetadata;
  }

  /** The schema units are read with: the start schema, widened by additive changes seen since. */
  public StructType schema() {
    return schema;
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
        return Position.beforeVersion(id, firstVersionAtOrAfter(start.timestamp()), false);
      case LATEST:
      default:
        return Position.beforeVersion(id, refreshLatest() + 1, false);
    }
  }

  /**
   * The first version committed at or after {@code t}, exact whatever the server's rounding. The version endpoint
   * is asked first; its answer is then checked against the commit timestamps on startingVersion lines, because the
   * reference server answers one version too late when {@code t} is exactly a commit's time (and fails when that
   * commit is the latest), and answers 0 before the first commit a cleaned-up log still holds.
   */
  private long firstVersionAtOrAfter(Instant t) {
    long latest = refreshLatest();
    long answer;
    try {
      answer = client.tableVersionAt(table, t);
    } catch (InvalidRequestException | VersionNotAvailableException afterOrAtLatest) {
      Long ts = commitTimestamp(latest);
      if (ts != null && ts >= t.toEpochMilli()) {
        return latest;
      }
      // no commit at or after the instant yet: like a start version beyond the latest, wait for the next one
      LOG.info("No version of {} was committed at or after {} yet; the stream starts with the next commit", table, t);
      return latest + 1;
    }
    if (answer > 0) {
      Long before = commitTimestamp(answer - 1);
      if (before != null && before >= t.toEpochMilli()) {
        LOG.debug("The server resolved {} to version {} of {}, but {} was committed at {}: starting there", t, answer,
            table, answer - 1, Instant.ofEpochMilli(before));
        return answer - 1;
      }
    }
    return Math.max(answer, earliestServedVersion(answer, latest));
  }

  /** The last version committed at or before {@code t} (an end instant); -1 when none is. */
  public long lastVersionAtOrBefore(Instant t) {
    long first = firstVersionAtOrAfter(t);
    if (first <= latest) {
      Long ts = commitTimestamp(first);
      if (ts != null && ts == t.toEpochMilli()) {
        return first;
      }
    }
    return first - 1;
  }

  /**
   * The commit timestamp of {@code version} as reported on its startingVersion lines; null when it has no data
   * change lines (OPTIMIZE, metadata-only) or is no longer served.
   */
  private Long commitTimestamp(long version) {
    Long[] ts = {null};
    try {
      lister.list(FetchSpec.query(version, version), m -> { }, a -> {
        if (ts[0] == null && a instanceof FileAction) {
          ts[0] = ((FileAction) a).timestamp();
        }
      });
    } catch (InvalidRequestException | VersionNotAvailableException notServed) {
      return null;
    }
    return ts[0];
  }

  /** The earliest version in [{@code from}, {@code latest}] the server still serves (a cleaned-up log starts late). */
  private long earliestServedVersion(long from, long latest) {
    long lo = from;
    long hi = latest;
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (served(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (lo > from) {
      LOG.info("Versions of {} before {} are no longer served (its log was cleaned up): the stream starts at {}",
          table, lo, lo);
    }
    return lo;
  }

  private boolean served(long version) {
    try {
      client.metadata(table, version, null);
      return true;
    } catch (InvalidRequestException | VersionNotAvailableException e) {
      return false;
    }
  }

  @Override
  public synchronized long latestVersion() {
    long now = clock.millis();
    if (latest < 0 || now - latestCheckedAt >= versionPollInterval.toMillis()) {
      return refreshLatest();
    }
    return latest;
  }

  private synchronized long refreshLatest() {
    return noteLatest(client.tableVersion(table));
  }

  private synchronized long noteLatest(long v) {
    if (v < latest) {
      checkTableId(); // a table recreated under the same name starts over at low versions
      LOG.warn("The server reports version {} of {} after reporting {}; keeping {}", v, table, latest, latest);
    } else {
      latest = v;
    }
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
    long top = stopAt != null ? lastVersionNeededFor(stopAt) : latestVersion();
    while (pos.isStartingVersion() || pos.tableVersion() <= top) {
      Window w = pos.isStartingVersion() ? snapshot(pos.tableVersion())
          : window(pos.tableVersion(), Math.min(top, pos.tableVersion() + settings.versionsPerRequest() - 1));
      for (long v = pos.tableVersion(); v <= w.end; v++) {
        List<WorkUnit> units = w.units(v);
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

  /** The newest version a range ending at {@code stopAt} needs listed, never beyond the server's latest. */
  private synchronized long lastVersionNeededFor(Position stopAt) {
    long needed = stopAt.index() >= 0 || stopAt.isStartingVersion() ? stopAt.tableVersion()
        : stopAt.tableVersion() - 1;
    return needed <= latest ? latest : refreshLatest();
  }

  // ------------------------------------------------------------------ windows

  /** Files of a range of versions, sorted and labelled, per version. */
  private static final class Window {
    final long start;
    final long end;
    final boolean snapshot;
    final TreeMap<Long, List<WorkUnit>> byVersion = new TreeMap<>();

    Window(long start, long end, boolean snapshot) {
      this.start = start;
      this.end = end;
      this.snapshot = snapshot;
    }

    List<WorkUnit> units(long v) {
      return byVersion.getOrDefault(v, List.of());
    }
  }

  private Window snapshot(long version) {
    FetchSpec spec = FetchSpec.snapshot(version);
    synchronized (windows) {
      Window cached = windows.get(spec);
      if (cached != null) {
        return cached;
      }
    }
    Window w = new Window(version, version, true);
    List<FileAction> files = new ArrayList<>();
    lister.list(spec, m -> checkMetadata(m, version), a -> {
      if (a instanceof FileAction) {
        files.add((FileAction) a);
      }
    });
    files.sort(FILE_ORDER);
    long ts = files.isEmpty() ? 0 : snapshotTimestamp(version, files.get(0));
    List<WorkUnit> units = new ArrayList<>();
    for (FileAction f : files) {
      units.add(new WorkUnit(startMetadata.id(), version, units.size(), f, ts, RowSource.ADDED, false, true, spec,
          schema));
    }
    w.byVersion.put(version, units);
    cache(spec, w);
    return w;
  }

  /**
   * The commit time snapshot rows carry: from the file lines when the server sends it; else (the reference server
   * does not) the version's commit time from its startingVersion lines; else, for a version without data changes,
   * the time the snapshot was taken.
   */
  private long snapshotTimestamp(long version, FileAction anyFile) {
    if (anyFile.timestamp() != null) {
      return anyFile.timestamp();
    }
    Long ts = commitTimestamp(version);
    return ts != null ? ts : clock.millis();
  }

  private Window window(long start, long end) {
    FetchSpec spec = settings.readChangeFeed() ? FetchSpec.changes(start, end) : FetchSpec.query(start, end);
    synchronized (windows) {
      // a stream moving through a listed window (small batches) reads on from it instead of listing again;
      // versions past its end are listed by the next window
      for (Window cached : windows.values()) {
        if (!cached.snapshot && cached.start <= start && start <= cached.end) {
          return cached;
        }
      }
    }
    Window w = settings.readChangeFeed() ? changeFeedWindow(start, end) : dataChangeWindow(start, end);
    cache(spec, w);
    return w;
  }

  private void cache(FetchSpec spec, Window w) {
    synchronized (windows) {
      windows.put(spec, w);
    }
  }

  /** Actions of a window grouped by version, with commit timestamps and CDF state per version. */
  private final class Listed {
    final TreeMap<Long, List<FileAction>> files = new TreeMap<>();
    final Map<Long, Long> timestamps = new HashMap<>();
    final TreeMap<Long, Boolean> cdfEnabledFrom = new TreeMap<>();

    void head(TableMetadata m, long start) {
      checkMetadata(m, start);
      cdfEnabledFrom.put(start, m.changeDataFeedEnabled());
    }

    void action(SharingAction a, String what) {
      if (a instanceof TableMetadata) {
        TableMetadata m = (TableMetadata) a;
        checkMetadata(m, m.version());
        if (m.version() != null) {
          cdfEnabledFrom.put(m.version(), m.changeDataFeedEnabled());
        }
        return;
      }
      FileAction f = (FileAction) a;
      if (f.version() == null) {
        throw Errors.protocol(what, f.kind() + " line without a version");
      }
      files.computeIfAbsent(f.version(), v -> new ArrayList<>()).add(f);
      if (f.timestamp() != null) {
        timestamps.put(f.version(), f.timestamp());
      }
    }

    boolean cdfEnabledAt(long v) {
      Map.Entry<Long, Boolean> e = cdfEnabledFrom.floorEntry(v);
      return e != null && e.getValue();
    }
  }

  private Listed list(FetchSpec spec) {
    Listed l = new Listed();
    try {
      lister.list(spec, m -> l.head(m, spec.startVersion()), a -> l.action(a, "listing " + spec + " of " + table));
    } catch (InvalidRequestException | VersionNotAvailableException e) {
      checkTableId(); // versions that no longer make sense may mean a recreated table: say that instead
      throw e;
    }
    return l;
  }

  /** Fails with {@link TableRecreatedException} when the table's current id is not the stream's. */
  private void checkTableId() {
    TableMetadata now = client.metadata(table, null, null).metadata();
    if (!now.id().equals(startMetadata.id())) {
      checkMetadata(now, null);
    }
  }

  /** Default and skipChangeCommits modes: {@code query} from startingVersion. */
  private Window dataChangeWindow(long start, long end) {
    FetchSpec spec = FetchSpec.query(start, end);
    Listed l = list(spec);
    Window w = new Window(start, end, false);
    for (long v = start; v <= end; v++) {
      List<FileAction> files = l.files.getOrDefault(v, List.of());
      List<FileAction> adds = new ArrayList<>();
      List<FileAction> removes = new ArrayList<>();
      for (FileAction f : files) {
        (f.kind() == FileAction.Kind.REMOVE ? removes : adds).add(f);
      }
      long ts = l.timestamps.getOrDefault(v, 0L);
      if (removes.isEmpty()) {
        w.byVersion.put(v, units(v, adds, ts, RowSource.ADDED, false, spec));
      } else if (settings.skipChangeCommits()) {
        logOnce(v, "Skipping change commit {} of {} ({} files removed, {} added): skipChangeCommits=true", v, table,
            removes.size(), adds.size());
      } else {
        w.byVersion.put(v, newImages(v, adds, removes, ts, l.cdfEnabledAt(v), spec));
      }
    }
    return w;
  }

  /** The new row images of a change commit: its insert/update_postimage change data, else its added files. */
  private List<WorkUnit> newImages(long v, List<FileAction> adds, List<FileAction> removes, long ts, boolean cdf,
      FetchSpec spec) {
    if (cdf) {
      FetchSpec one = FetchSpec.changes(v, v);
      try {
        Listed l = list(one);
        List<FileAction> cdc = new ArrayList<>();
        for (FileAction f : l.files.getOrDefault(v, List.of())) {
          if (f.kind() == FileAction.Kind.CDF) {
            cdc.add(f);
          }
        }
        if (!cdc.isEmpty()) {
          logOnce(v, "Change commit {} of {}: emitting its inserted and updated rows from the change data feed; "
              + "deleted rows and pre-images are not emitted (set readChangeFeed=true to receive them)", v, table);
          return units(v, cdc, l.timestamps.getOrDefault(v, ts), RowSource.CHANGE_DATA, true, one);
        }
      } catch (ChangeDataNotRecordedException e) {
        LOG.debug("No change data for version {} of {}: using its added files", v, table);
      }
    }
    long removedRows = removes.stream().mapToLong(FileAction::numRecords).filter(n -> n >= 0).sum();
    logOnce(v, "Change commit {} of {} removed {} files ({} rows by their stats) and added {}: emitting all rows of "
        + "the added files; deletes are not emitted (set readChangeFeed=true to receive them)", v, table,
        removes.size(), removedRows, adds.size());
    return units(v, adds, ts, RowSource.ADDED, false, spec);
  }

  /** readChangeFeed: {@code changes}; where change data was not recorded, derived from {@code query}. */
  private Window changeFeedWindow(long start, long end) {
    FetchSpec spec = FetchSpec.changes(start, end);
    Listed l;
    try {
      l = list(spec);
    } catch (ChangeDataNotRecordedException e) {
      long v = e.version();
      if (v > start && v <= end) {
        return changeFeedWindow(start, v - 1);
      }
      LOG.info("Change data was not recorded for version {} of {}: deriving its changes from added and removed files",
          start, table);
      FetchSpec derived = FetchSpec.query(start, start);
      Listed d = list(derived);
      Window w = new Window(start, start, false);
      w.byVersion.put(start, units(start, d.files.getOrDefault(start, List.of()),
          d.timestamps.getOrDefault(start, 0L), null, false, derived));
      return w;
    }
    Window w = new Window(start, end, false);
    for (long v = start; v <= end; v++) {
      List<FileAction> files = l.files.getOrDefault(v, List.of());
      long ts = l.timestamps.getOrDefault(v, 0L);
      List<FileAction> cdc = new ArrayList<>();
      for (FileAction f : files) {
        if (f.kind() == FileAction.Kind.CDF) {
          cdc.add(f);
        }
      }
      w.byVersion.put(v, cdc.isEmpty() ? units(v, files, ts, null, false, spec)
          : units(v, cdc, ts, RowSource.CHANGE_DATA, false, spec));
    }
    return w;
  }

  /** A version's files sorted and numbered; {@code source} null labels each by its kind (remove: deletes). */
  private List<WorkUnit> units(long v, List<FileAction> files, long ts, RowSource source, boolean newImagesOnly,
      FetchSpec spec) {
    List<FileAction> sorted = new ArrayList<>(files);
    sorted.sort(FILE_ORDER);
    List<WorkUnit> out = new ArrayList<>();
    for (FileAction f : sorted) {
      RowSource s = source != null ? source
          : f.kind() == FileAction.Kind.REMOVE ? RowSource.REMOVED : RowSource.ADDED;
      out.add(new WorkUnit(startMetadata.id(), v, out.size(), f, ts, s, newImagesOnly, false, spec, schema));
    }
    return out;
  }

  private void logOnce(long version, String message, Object... args) {
    if (changeCommitsLogged.put(version, Boolean.TRUE) == null) {
      LOG.info(message, args);
    }
  }

  // ------------------------------------------------------------------ metadata checks

  /** Fails on a recreated table or an incompatible schema change; widens the schema for additive ones. */
  private void checkMetadata(TableMetadata m, Long version) {
    String at = version == null ? "" : " at version " + version;
    if (!m.id().equals(startMetadata.id())) {
      throw new TableRecreatedException("The table " + table + " was recreated: its id is " + m.id() + at
          + " but the stream started on id " + startMetadata.id() + ". Rows of the new table must not be mixed with "
          + "the old one's positions: delete the checkpoint/offsets and start the stream again.");
    }
    StructType data = m.schema();
    StructType current = schema;
    List<StructField> added = new ArrayList<>();
    for (StructField f : data.fields()) {
      if (current.fields().stream().noneMatch(c -> c.name().toLowerCase(Locale.ROOT)
          .equals(f.name().toLowerCase(Locale.ROOT)))) {
        added.add(new StructField(f.name(), f.type(), true, f.metadata()));
      }
    }
    StructType widened = added.isEmpty() ? current : current.add(added.toArray(new StructField[0]));
    String problem = SchemaCompatibility.incompatibility(data, widened);
    if (problem == null) {
      for (StructField f : current.fields()) {
        if (!f.nullable() && data.indexOf(f.name()) < 0) {
          problem = "non-nullable column '" + f.name() + "' was dropped";
        }
      }
    }
    if (problem != null) {
      throw new IncompatibleSchemaChangeException("The schema of " + table + " changed incompatibly" + at + ": "
          + problem + ". The stream cannot read it with its schema. Restart the stream to read with the new schema; "
          + "if that fails again, start from a new checkpoint/offsets (choosing startingVersion).");
    }
    if (!added.isEmpty()) {
      synchronized (this) {
        if (schema == current) {
          schema = widened;
          LOG.info("Additive schema change of {}{}: new columns {}", table, at, added);
        }
      }
    }
  }

  // ------------------------------------------------------------------ URL refresh

  private List<WorkUnit> refreshExpiring(List<WorkUnit> units) {
    long threshold = clock.millis() + settings.urlRefreshMargin().toMillis();
    Map<FetchSpec, Map<String, FileAction>> fresh = new HashMap<>();
    Map<String, WorkUnit> refreshed = new HashMap<>();
    List<WorkUnit> out = new ArrayList<>(units.size());
    for (WorkUnit u : units) {
      Long exp = u.file().expirationTimestamp();
      if (exp == null || exp > threshold) {
        out.add(u);
        continue;
      }
      FileAction f = fresh.computeIfAbsent(u.fetch(), lister::fresh).get(FileLister.key(u.file()));
      if (f == null) {
        throw Errors.protocol("refreshing URLs of " + u.fetch() + " of " + table, "file " + u.file().id()
            + " is no longer listed");
      }
      WorkUnit r = u.withFile(f);
      refreshed.put(unitKey(r), r);
      out.add(r);
    }
    if (!refreshed.isEmpty()) {
      LOG.debug("Refreshed pre-signed URLs of {} before they expire", fresh.keySet());
      synchronized (windows) { // cached windows hand out the fresh URLs from now on
        for (Window w : windows.values()) {
          w.byVersion.replaceAll((v, list) -> {
            List<WorkUnit> copy = new ArrayList<>(list);
            copy.replaceAll(x -> refreshed.getOrDefault(unitKey(x), x));
            return copy;
          });
        }
      }
    }
    return out;
  }

  private static String unitKey(WorkUnit u) {
    return u.fetch() + "/" + FileLister.key(u.file());
  }

  @Override
  public SignedUrl signedUrl(WorkUnit unit) {
    return new UnitUrl(lister, unit);
  }

  /** A unit's URL that re-lists its fetch spec when storage refuses it. */
  public static final class UnitUrl implements SignedUrl {
    private final FileLister lister;
    private final WorkUnit unit;
    private volatile String current;

    public UnitUrl(FileLister lister, WorkUnit unit) {
      this.lister = lister;
      this.unit = unit;
      this.current = unit.file().url();
    }

    @Override
    public String current() {
      return current;
    }

    @Override
    public String refresh() {
      FileAction f = lister.fresh(unit.fetch()).get(FileLister.key(unit.file()));
      if (f == null) {
        throw Errors.protocol("refreshing the URL of file " + unit.file().id(), "the file is no longer listed by "
            + unit.fetch());
      }
      current = f.url();
      return current;
    }
  }

  @Override
  public void close() {
    synchronized (windows) {
      windows.clear();
    }
  }

  @Override
  public String toString() {
    return "SharingStreamPlanner{" + table + ", " + settings + "}";
  }
}
