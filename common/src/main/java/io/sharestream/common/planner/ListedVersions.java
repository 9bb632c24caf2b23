package io.sharestream.common.planner;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.CommitRules.Commit;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One listing's actions grouped by version, with each version's commit time and whether change data was recorded
 * then; every metadata line is checked by the {@link SchemaTracker}, and a historical protocol needing a reader
 * feature the client does not read stops the stream at its version. Files beyond {@code filesInHeap} are spilled to
 * local disk a version at a time ({@link VersionFiles}); files a commit rewrote without changing data (OPTIMIZE) are
 * not kept at all, except from snapshots, where that flag says nothing.
 */
final class ListedVersions implements AutoCloseable {
  private final SchemaTracker schemas;
  private final String table;
  private final Set<String> readerFeatures;
  private final boolean fromSnapshots;
  private final int filesInHeap;
  private int inHeap;
  private final TreeMap<Long, VersionFiles> files = new TreeMap<>();
  private final Map<Long, Long> timestamps = new HashMap<>();
  private final TreeMap<Long, Boolean> cdfEnabledFrom = new TreeMap<>();

  /**
   * A listing of {@code table} for a client reading {@code readerFeatures} (lower case); {@code fromSnapshots}: the
   * changes derived from snapshots.
   */
  ListedVersions(SchemaTracker schemas, String table, Set<String> readerFeatures, boolean fromSnapshots,
      int filesInHeap) {
    this.schemas = schemas;
    this.table = table;
    this.readerFeatures = readerFeatures;
    this.fromSnapshots = fromSnapshots;
    this.filesInHeap = filesInHeap;
  }

  /** The listing's first metadata, that of {@code start}. */
  void head(TableMetadata m, long start) {
    schemas.check(m, start);
    cdfEnabledFrom.put(start, m.changeDataFeedEnabled());
  }

  /** A line of the listing; {@code what} names the listing in errors. */
  void action(SharingAction a, String what) {
    if (a instanceof TableMetadata) {
      TableMetadata m = (TableMetadata) a;
      schemas.check(m, m.version());
      if (m.version() != null) {
        cdfEnabledFrom.put(m.version(), m.changeDataFeedEnabled());
      }
      return;
    }
    if (a instanceof ProtocolInfo) {
      ProtocolInfo p = (ProtocolInfo) a;
      String unsupported = p.unsupported(readerFeatures);
      if (unsupported != null && p.version() != null) {
        schemas.stopAt(p.version(), Errors.unsupportedFeature("version " + p.version() + " of " + table, unsupported));
      }
      return;
    }
    FileAction f = (FileAction) a;
    if (f.version() == null) {
      throw Errors.protocol(what, f.kind() + " line without a version");
    }
    if (f.timestamp() != null) {
      timestamps.put(f.version(), f.timestamp());
    }
    if (!f.dataChange() && !fromSnapshots) {
      return; // a rewrite without data change (OPTIMIZE): a server should not send it for history
    }
    VersionFiles vf = files.computeIfAbsent(f.version(), v -> new VersionFiles());
    if (!vf.spilled() && inHeap >= filesInHeap) {
      inHeap -= vf.size();
      vf.spill();
    }
    vf.add(f);
    if (!vf.spilled()) {
      inHeap++;
    }
  }

  /**
   * The actions of {@code v}: in the heap, or its spill in planner order (the caller's to close); from snapshots,
   * every file, else data changes only.
   */
  Commit commit(long v) {
    VersionFiles vf = files.get(v);
    return vf == null ? new Commit(v, Collections.emptyList()) : vf.commit(v, fromSnapshots);
  }

  /** The commit time of {@code v} from its lines, else {@code otherwise}. */
  long timestamp(long v, long otherwise) {
    return timestamps.getOrDefault(v, otherwise);
  }

  long timestamp(long v) {
    return timestamp(v, 0L);
  }

  boolean cdfEnabledAt(long v) {
    Map.Entry<Long, Boolean> e = cdfEnabledFrom.floorEntry(v);
    return e != null && e.getValue();
  }

  /** Deletes what is still spilled. */
  @Override
  public void close() {
    files.values().forEach(VersionFiles::close);
  }
}
