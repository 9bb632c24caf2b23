package io.sharestream.common.planner;

import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/** Units of a range of versions as listed, sorted and numbered per version; a snapshot is a window of one version. */
final class VersionWindow {
  final long start;
  final long end;
  final boolean snapshot;
  final TreeMap<Long, List<WorkUnit>> byVersion = new TreeMap<>();

  VersionWindow(long start, long end, boolean snapshot) {
    this.start = start;
    this.end = end;
    this.snapshot = snapshot;
  }

  List<WorkUnit> units(long v) {
    return byVersion.getOrDefault(v, Collections.emptyList());
  }

  /** Whether any version's units are spilled to disk (a URL refresh lists such a window again whole). */
  boolean spilled() {
    return byVersion.values().stream().anyMatch(u -> u instanceof SpilledUnits);
  }

  /** Deletes the spills of its versions. */
  void close() {
    byVersion.values().forEach(u -> {
      if (u instanceof SpilledUnits) {
        ((SpilledUnits) u).close();
      }
    });
  }
}
