package io.sharestream.common.planner;

import java.util.Collections;
import java.util.List;
import java.util.TreeMap;

/** Units of a range of versions as listed, sorted and numbered per version; a snapshot is a window of one version. */
final class VersionWindow {
  /** The request that listed it: a refresh of a spilled window runs it again. */
  final FetchSpec spec;
  final long start;
  final long end;
  final boolean snapshot;
  final TreeMap<Long, List<WorkUnit>> byVersion = new TreeMap<>();

  VersionWindow(FetchSpec spec) {
    this.spec = spec;
    this.start = spec.startVersion();
    this.end = spec.endVersion();
    this.snapshot = spec.kind() == FetchSpec.Kind.SNAPSHOT;
  }

  List<WorkUnit> units(long v) {
    return byVersion.getOrDefault(v, Collections.emptyList());
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
