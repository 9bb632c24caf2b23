package io.sharestream.common.planner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The windows a planner listed last, by what was fetched: a stream moving through a window in small batches reads
 * on from it instead of listing again, and refreshed URLs replace the cached ones.
 */
final class WindowCache {
  private final Map<FetchSpec, VersionWindow> windows;

  WindowCache(int capacity) {
    this.windows = new LinkedHashMap<FetchSpec, VersionWindow>(8, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<FetchSpec, VersionWindow> eldest) {
        if (size() > capacity) {
          eldest.getValue().close();
          return true;
        }
        return false;
      }
    };
  }

  synchronized VersionWindow get(FetchSpec spec) {
    return windows.get(spec);
  }

  /** A cached window of history (not a snapshot) holding version {@code v}, or null. */
  synchronized VersionWindow holding(long v) {
    for (VersionWindow w : windows.values()) {
      if (!w.snapshot && w.start <= v && v <= w.end) {
        return w;
      }
    }
    return null;
  }

  synchronized void put(FetchSpec spec, VersionWindow w) {
    VersionWindow replaced = windows.put(spec, w);
    if (replaced != null && replaced != w) {
      replaced.close();
    }
  }

  /** Cached units whose {@code key} is in {@code refreshed} become the refreshed ones. */
  synchronized void replace(Map<String, WorkUnit> refreshed, Function<WorkUnit, String> key) {
    for (VersionWindow w : windows.values()) {
      w.byVersion.replaceAll((v, units) -> {
        if (units instanceof SpilledUnits) {
          return units; // refreshed by listing the window again whole
        }
        List<WorkUnit> copy = new ArrayList<>(units);
        copy.replaceAll(u -> refreshed.getOrDefault(key.apply(u), u));
        return copy;
      });
    }
  }

  synchronized void clear() {
    windows.values().forEach(VersionWindow::close);
    windows.clear();
  }
}
