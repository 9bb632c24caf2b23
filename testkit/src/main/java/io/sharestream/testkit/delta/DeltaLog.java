package io.sharestream.testkit.delta;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.SoftReference;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.Type;

/**
 * Reads a Delta table's {@code _delta_log} (deletion vectors of files included): the JSON commits, single-part
 * Parquet checkpoints, commit timestamps (file modification times made strictly increasing, as Delta does) and
 * snapshots at any reconstructable version.
 * Commit files are streamed line by line. What is cached is what cannot go stale: the listing of the log directory
 * while the directory is unchanged (racy-clean: never when it changed within the file system's clock granularity),
 * commit files' times (commit files are immutable) and a checkpoint's protocol and metadata. A table changing on
 * disk is seen at once.
 */
public final class DeltaLog {
  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.parquet");

  /** A directory changed this recently may change again without its modification time moving. */
  private static final long RACY_MILLIS = 100;
  /** The prefix of an aliased file's path: {@code _alias-<n>/} then the physical file's relative path. */
  public static final String ALIAS_PREFIX = "_alias-";
  /**
   * Snapshots of at least this many files are kept (softly, the last one only) for the next request of the same
   * version: a client asking a million-file version twice in a row (a commit time, then the listing) does not wait
   * for its replay twice.
   */
  private static final int BIG_SNAPSHOT_FILES = 50_000;

  private final Path tableDir;
  /** Modification times of commit files read so far, by version (commit files are immutable). */
  private final TreeMap<Long, Long> fileTimes = new TreeMap<>();
  private Listing listing;
  /** The protocol and metadata of the last checkpoint read for them (checkpoints are immutable). */
  private State checkpointState;
  private long checkpointStateVersion = -1;
  /** The last snapshot of at least {@link #BIG_SNAPSHOT_FILES} files built, and what it was built from. */
  private volatile SoftReference<Snapshot> bigSnapshot = new SoftReference<>(null);
  private volatile String bigSnapshotStamp;

  public DeltaLog(Path tableDir) {
    this.tableDir = tableDir;
  }

  public Path tableDir() {
    return tableDir;
  }

  public Path logDir() {
    return tableDir.resolve("_delta_log");
  }

  /** Whether a {@code _delta_log} with at least one commit exists. */
  public boolean exists() {
    return !commitVersions().isEmpty();
  }

  /** The newest committed version; fails when the table has no commit. */
  public long latestVersion() {
    NavigableSet<Long> versions = commitVersions();
    if (versions.isEmpty()) {
      throw new IllegalStateException("no Delta table at " + tableDir);
    }
    return versions.last();
  }

  /** The oldest version whose snapshot can still be built (its commit, or a checkpoint at it, survives). */
  public long earliestVersion() {
    NavigableSet<Long> commits = commitVersions();
    long earliest = commits.first();
    if (earliest == 0) {
      return 0;
    }
    NavigableSet<Long> checkpoints = checkpointVersions();
    Long cp = checkpoints.ceiling(earliest - 1);
    return cp == null ? Long.MAX_VALUE : cp;
  }

  /** The oldest version whose commit file (its changes) is still in the log. */
  public long earliestCommitVersion() {
    return commitVersions().first();
  }

  public Path commitFile(long version) {
    return logDir().resolve(String.format("%020d.json", version));
  }

  public boolean hasCommit(long version) {
    return Files.exists(commitFile(version));
  }

  NavigableSet<Long> commitVersions() {
    return listing().commits;
  }

  NavigableSet<Long> checkpointVersions() {
    return listing().checkpoints;
  }

  /** The versions of the log's commits and checkpoints, with the commit timestamps derived from them. */
  private static final class Listing {
    FileTime dirTime;
    long listedAt;
    final NavigableSet<Long> commits;
    final NavigableSet<Long> checkpoints;
    /** Computed on first use, from the timestamps of the listing this one extends when it had them. */
    NavigableMap<Long, Long> timestamps;
    NavigableMap<Long, Long> baseTimestamps;

    Listing(FileTime dirTime, long listedAt, TreeSet<Long> commits, TreeSet<Long> checkpoints,
        NavigableMap<Long, Long> baseTimestamps) {
      this.dirTime = dirTime;
      this.listedAt = listedAt;
      this.commits = Collections.unmodifiableNavigableSet(commits);
      this.checkpoints = Collections.unmodifiableNavigableSet(checkpoints);
      this.baseTimestamps = baseTimestamps;
    }

    /** Still the directory's content: unchanged since, and listed well after its last change. */
    boolean current(FileTime now) {
      return now.equals(dirTime) && dirTime.toMillis() < listedAt - RACY_MILLIS;
    }
  }

  /**
   * The log's versions. A changed directory is re-read the cheap way when it can be: Delta writers only add commits
   * after the last one and clean up from the first, so while the first commit is still there the new entries are
   * found by probing the versions after the last; otherwise the directory is listed again.
   */
  private synchronized Listing listing() {
    FileTime dirTime;
    try {
      dirTime = Files.getLastModifiedTime(logDir());
    } catch (NoSuchFileException e) {
      listing = null;
      return new Listing(FileTime.fromMillis(0), 0, new TreeSet<>(), new TreeSet<>(), null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (listing != null && listing.current(dirTime)) {
      return listing;
    }
    long listedAt = System.currentTimeMillis();
    Listing previous = listing;
    listing = previous != null && !previous.commits.isEmpty() && Files.exists(commitFile(previous.commits.first()))
        ? extend(previous, dirTime, listedAt) : list(dirTime, listedAt);
    return listing;
  }

  private Listing extend(Listing previous, FileTime dirTime, long listedAt) {
    TreeSet<Long> commits = new TreeSet<>(previous.commits);
    TreeSet<Long> checkpoints = new TreeSet<>(previous.checkpoints);
    long last = previous.commits.last();
    while (Files.exists(commitFile(last + 1))) {
      last++;
      commits.add(last);
    }
    // a writer checkpoints the version it just committed: the previous last one or a new one
    long checked = Math.max(previous.commits.last(), checkpoints.isEmpty() ? 0 : checkpoints.last() + 1);
    for (long v = checked; v <= last; v++) {
      if (Files.exists(checkpointFile(v))) {
        checkpoints.add(v);
      }
    }
    if (commits.size() == previous.commits.size() && checkpoints.size() == previous.checkpoints.size()) {
      previous.dirTime = dirTime; // nothing the log is made of changed
      previous.listedAt = listedAt;
      return previous;
    }
    return new Listing(dirTime, listedAt, commits, checkpoints,
        previous.timestamps != null ? previous.timestamps : previous.baseTimestamps);
  }

  private Listing list(FileTime dirTime, long listedAt) {
    TreeSet<Long> commits = new TreeSet<>();
    TreeSet<Long> checkpoints = new TreeSet<>();
    try (Stream<Path> files = Files.list(logDir())) {
      files.forEach(p -> {
        String name = p.getFileName().toString();
        Matcher m = COMMIT.matcher(name);
        if (m.matches()) {
          commits.add(Long.parseLong(m.group(1)));
        } else if ((m = CHECKPOINT.matcher(name)).matches()) {
          checkpoints.add(Long.parseLong(m.group(1)));
        }
      });
    } catch (NoSuchFileException e) {
      // removed just now: an empty log
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Listing(dirTime, listedAt, commits, checkpoints, null);
  }

  public Path checkpointFile(long version) {
    return logDir().resolve(String.format("%020d.checkpoint.parquet", version));
  }

  /**
   * Commit timestamps in epoch millis for every version with a commit file: file modification times, each raised
   * to one millisecond past its predecessor when not increasing (Delta's rule for non-monotonic clocks). Commit files
   * never change once written, so each one's time is read from disk once.
   */
  public synchronized NavigableMap<Long, Long> timestamps() {
    Listing current = listing();
    if (current.timestamps != null) {
      return current.timestamps;
    }
    fileTimes.keySet().retainAll(current.commits);
    TreeMap<Long, Long> out = new TreeMap<>();
    long previous = Long.MIN_VALUE;
    Iterable<Long> versions = current.commits;
    NavigableMap<Long, Long> base = current.baseTimestamps;
    if (base != null && !base.isEmpty()) { // the new commits only
      out.putAll(base);
      previous = out.lastEntry().getValue();
      versions = current.commits.tailSet(out.lastKey(), false);
    }
    for (long v : versions) {
      Long raw = fileTimes.get(v);
      if (raw == null) {
        try {
          raw = Files.getLastModifiedTime(commitFile(v)).toMillis();
        } catch (NoSuchFileException gone) {
          continue; // cleaned up just now
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        fileTimes.put(v, raw);
      }
      long t = raw <= previous ? previous + 1 : raw;
      out.put(v, t);
      previous = t;
    }
    current.timestamps = Collections.unmodifiableNavigableMap(out);
    current.baseTimestamps = null;
    return current.timestamps;
  }

  public long timestamp(long version) {
    Long t = timestamps().get(version);
    if (t == null) {
      throw new NoSuchElementException("no commit " + version + " in " + logDir());
    }
    return t;
  }

  /** Streams the actions of one commit to {@code sink}, line by line. */
  public void forEachAction(long version, Consumer<DeltaAction> sink) {
    visitActions(version, a -> {
      sink.accept(a);
      return true;
    });
  }

  /** Streams the actions of one commit to {@code visitor} until it returns false. */
  public void visitActions(long version, Predicate<DeltaAction> visitor) {
    visitActions(version, false, visitor);
  }

  /**
   * As {@link #visitActions(long, Predicate)}, file actions ({@code add}, {@code remove}, {@code cdc}) skipped unread
   * when {@code skipFiles}. The commit is read by one byte parser, each line's action body as a tree.
   */
  private void visitActions(long version, boolean skipFiles, Predicate<DeltaAction> visitor) {
    try (JsonParser p = DeltaAction.JSON.getFactory().createParser(Files.newInputStream(commitFile(version)))) {
      for (JsonToken line = p.nextToken(); line != null; line = p.nextToken()) {
        if (line != JsonToken.START_OBJECT) {
          throw new IOException("commit " + version + " of " + logDir() + " has a line that is no JSON object");
        }
        String key = p.nextFieldName();
        if (key == null) {
          continue;
        }
        p.nextToken();
        DeltaAction a = null;
        if (skipFiles && (key.equals("add") || key.equals("remove") || key.equals("cdc"))) {
          p.skipChildren();
        } else {
          a = DeltaAction.parse(key, DeltaAction.JSON.readTree(p));
        }
        for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) { // one key a line, as written
          p.nextToken();
          p.skipChildren();
        }
        if (a != null && !visitor.test(a)) {
          return;
        }
      }
    } catch (NoSuchFileException e) {
      throw new NoSuchElementException("commit " + version + " is no longer in " + logDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public List<DeltaAction> actions(long version) {
    List<DeltaAction> out = new ArrayList<>();
    forEachAction(version, out::add);
    return out;
  }

  /**
   * The snapshot at {@code version} built on {@code base} (an earlier snapshot of this table, or null) when the
   * commits after it are all there: a writer appending to a long log replays only its own new commits.
   */
  public Snapshot snapshot(long version, Snapshot base) {
    if (base == null || base.version > version || !contiguous(commitVersions(), base.version + 1, version)) {
      return snapshot(version);
    }
    State state = new State(true);
    state.protocol = base.protocol;
    state.metadata = base.metadata;
    base.files().forEach(f -> state.files.put(f.logicalKey(), f));
    for (long v = base.version + 1; v <= version; v++) {
      forEachAction(v, state::apply);
    }
    return new Snapshot(version, timestamp(version), state.protocol, state.metadata, state.files);
  }

  /** The snapshot at {@code version}: from the latest checkpoint at or below it, else from the first commit. */
  public Snapshot snapshot(long version) {
    return snapshot(version, true);
  }

  /**
   * Protocol and metadata at {@code version}, without its files (which a long table's checkpoint holds by the
   * thousand): what answers that only carry a version's metadata need.
   */
  public Snapshot tableState(long version) {
    return snapshot(version, false);
  }

  private Snapshot snapshot(long version, boolean withFiles) {
    NavigableSet<Long> commits = commitVersions();
    if (commits.isEmpty() || version > commits.last() || version < 0) {
      throw new NoSuchElementException("version " + version + " does not exist in " + logDir());
    }
    String stamp = withFiles ? stamp(commits, version) : null;
    if (stamp != null) {
      Snapshot kept = bigSnapshot.get();
      if (kept != null && stamp.equals(bigSnapshotStamp)) {
        return kept;
      }
    }
    Snapshot built = build(commits, version, withFiles);
    if (stamp != null && built.files().size() >= BIG_SNAPSHOT_FILES) {
      synchronized (this) {
        bigSnapshot = new SoftReference<>(built);
        bigSnapshotStamp = stamp;
      }
    }
    return built;
  }

  /**
   * What a kept snapshot at {@code version} was built from: the first commit, the checkpoint used and the commit
   * file of the version (size and time); a log rewritten since gives another stamp.
   */
  private String stamp(NavigableSet<Long> commits, long version) {
    try {
      Path commit = commitFile(version);
      return commits.first() + ":" + checkpointVersions().floor(version) + ":" + version + ":" + Files.size(commit)
          + ":" + Files.getLastModifiedTime(commit).toMillis();
    } catch (IOException e) {
      return null;
    }
  }

  private Snapshot build(NavigableSet<Long> commits, long version, boolean withFiles) {
    State state = new State(withFiles);
    long from = 0;
    // as Delta readers do: from the latest checkpoint at or below the version, else from the first commit
    Long cp = checkpointVersions().floor(version);
    if (cp != null && contiguous(commits, cp + 1, version)) {
      if (withFiles) {
        readCheckpoint(cp, state);
      } else {
        State at = checkpointState(cp);
        state.protocol = at.protocol;
        state.metadata = at.metadata;
      }
      from = cp + 1;
    } else if (!commits.contains(0L) || !contiguous(commits, 0, version)) {
      throw new NoSuchElementException("version " + version + " can no longer be reconstructed from " + logDir());
    }
    for (long v = from; v <= version; v++) {
      if (withFiles) {
        forEachAction(v, state::apply);
      } else { // file actions left unparsed: a big version's metadata in a moment
        visitActions(v, true, a -> {
          state.apply(a);
          return true;
        });
      }
    }
    if (state.metadata == null || state.protocol == null) {
      throw new IllegalStateException("log of " + tableDir + " has no metaData/protocol at version " + version);
    }
    return new Snapshot(version, timestamp(version), state.protocol, state.metadata, state.files);
  }

  private static boolean contiguous(NavigableSet<Long> commits, long from, long to) {
    return from > to || commits.subSet(from, true, to, true).size() == to - from + 1;
  }

  /**
   * Absolute path of a file named by a log action's (URI-encoded, relative or absolute) path. A relative path in the
   * kit's alias convention ({@code _alias-<n>/<path>}, see {@link DeltaTableWriter#appendAliases}) names the physical
   * file {@code <path>}: many distinct logical files, one file on disk.
   */
  public Path resolve(String actionPath) {
    URI uri = URI.create(actionPath);
    if (uri.isAbsolute()) {
      return Path.of(uri);
    }
    return tableDir.resolve(physicalPath(uri.getPath()));
  }

  /**
   * The physical relative path behind {@code relativePath}: itself, or for an alias ({@code _alias-<n>/<path>}, the
   * first segment {@code _alias-} and digits only) the path after that first segment.
   */
  static String physicalPath(String relativePath) {
    if (!relativePath.startsWith(ALIAS_PREFIX)) {
      return relativePath;
    }
    int slash = relativePath.indexOf('/');
    if (slash <= ALIAS_PREFIX.length()) {
      return relativePath;
    }
    for (int i = ALIAS_PREFIX.length(); i < slash; i++) {
      if (!Character.isDigit(relativePath.charAt(i))) {
        return relativePath;
      }
    }
    return relativePath.substring(slash + 1);
  }

  /** The protocol and metadata in checkpoint {@code version}, read once. */
  private synchronized State checkpointState(long version) {
    if (checkpointStateVersion != version) {
      State state = new State(false);
      readCheckpoint(version, state);
      checkpointState = state;
      checkpointStateVersion = version;
    }
    return checkpointState;
  }

  private void readCheckpoint(long version, State state) {
    Path file = checkpointFile(version);
    Configuration conf = new Configuration(false);
    if (!state.withFiles) { // read the protocol and metaData columns only
      try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(
          new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
        MessageType schema = footer.getFooter().getFileMetaData().getSchema();
        List<Type> kept = new ArrayList<>();
        for (String column : List.of("protocol", "metaData")) {
          if (schema.containsField(column)) {
            kept.add(schema.getType(column));
          }
        }
        conf.set(ReadSupport.PARQUET_READ_SCHEMA, new MessageType(schema.getName(), kept).toString());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read checkpoint " + file, e);
      }
    }
    try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(),
        new org.apache.hadoop.fs.Path(file.toUri())).withConf(conf).build()) {
      for (Group g = reader.read(); g != null; g = reader.read()) {
        ObjectNode line = (ObjectNode) toJson(g);
        for (Iterator<String> it = line.fieldNames(); it.hasNext(); ) {
          String key = it.next();
          DeltaAction a = DeltaAction.parse(key, line.get(key));
          if (a != null) {
            state.apply(a);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint " + file, e);
    }
  }

  /** Converts a checkpoint row to the JSON shape of the same actions in a commit file. */
  private static JsonNode toJson(Group g) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    GroupType type = g.getType();
    for (int i = 0; i < type.getFieldCount(); i++) {
      // typed copies of stats and partition values (stats_parsed, ...) are not needed and may hold INT96
      if (g.getFieldRepetitionCount(i) == 0 || type.getFieldName(i).endsWith("_parsed")) {
        continue;
      }
      out.set(type.getFieldName(i), value(g, i, type.getType(i)));
    }
    return out;
  }

  private static JsonNode value(Group g, int i, Type t) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (t.isPrimitive()) {
      switch (t.asPrimitiveType().getPrimitiveTypeName()) {
        case BOOLEAN: return f.booleanNode(g.getBoolean(i, 0));
        case INT32: return f.numberNode(g.getInteger(i, 0));
        case INT64: return f.numberNode(g.getLong(i, 0));
        case FLOAT: return f.numberNode(g.getFloat(i, 0));
        case DOUBLE: return f.numberNode(g.getDouble(i, 0));
        default: return f.textNode(g.getString(i, 0));
      }
    }
    Group inner = g.getGroup(i, 0);
    if (t.getOriginalType() == OriginalType.MAP) {
      ObjectNode map = f.objectNode();
      for (int k = 0; k < inner.getFieldRepetitionCount(0); k++) {
        Group kv = inner.getGroup(0, k);
        map.set(kv.getString(0, 0),
            kv.getFieldRepetitionCount(1) == 0 ? f.nullNode() : value(kv, 1, kv.getType().getType(1)));
      }
      return map;
    }
    if (t.getOriginalType() == OriginalType.LIST) {
      ArrayNode arr = f.arrayNode();
      for (int k = 0; k < inner.getFieldRepetitionCount(0); k++) {
        Group entry = inner.getGroup(0, k);
        arr.add(entry.getFieldRepetitionCount(0) == 0 ? f.nullNode() : value(entry, 0, entry.getType().getType(0)));
      }
      return arr;
    }
    return toJson(inner);
  }

  /**
   * Replays actions into protocol, metadata and (unless only the metadata is wanted) live files, keyed as Delta keys
   * logical files: by path and deletion vector.
   */
  private static final class State {
    final boolean withFiles;
    Protocol protocol;
    Metadata metadata;
    final LinkedHashMap<String, AddFile> files = new LinkedHashMap<>();

    State(boolean withFiles) {
      this.withFiles = withFiles;
    }

    void apply(DeltaAction a) {
      if (!withFiles && (a instanceof AddFile || a instanceof RemoveFile)) {
        return;
      }
      if (a instanceof AddFile) {
        AddFile add = (AddFile) a;
        files.remove(add.logicalKey());
        files.put(add.logicalKey(), add);
      } else if (a instanceof RemoveFile) {
        files.remove(((RemoveFile) a).logicalKey());
      } else if (a instanceof Metadata) {
        metadata = (Metadata) a;
      } else if (a instanceof Protocol) {
        protocol = (Protocol) a;
      }
    }
  }
}
