package io.sharestream.common.planner;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.planner.CommitRules.Commit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One listing's actions grouped by version, with each version's commit time and whether change data was recorded
 * then; every metadata line is checked by the {@link SchemaTracker}, and a historical protocol needing a reader
 * feature the client does not read stops the stream at its version.
 */
final class ListedVersions {
  private final SchemaTracker schemas;
  private final String table;
  private final Set<String> readerFeatures;
  private final TreeMap<Long, List<FileAction>> files = new TreeMap<>();
  private final Map<Long, Long> timestamps = new HashMap<>();
  private final TreeMap<Long, Boolean> cdfEnabledFrom = new TreeMap<>();

  /** A listing of {@code table} for a client reading {@code readerFeatures} (lower case). */
  ListedVersions(SchemaTracker schemas, String table, Set<String> readerFeatures) {
    this.schemas = schemas;
    this.table = table;
    this.readerFeatures = readerFeatures;
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
    files.computeIfAbsent(f.version(), v -> new ArrayList<>()).add(f);
    if (f.timestamp() != null) {
      timestamps.put(f.version(), f.timestamp());
    }
  }

  List<FileAction> files(long v) {
    return files.getOrDefault(v, Collections.emptyList());
  }

  Commit commit(long v) {
    return new Commit(v, files(v));
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
}
