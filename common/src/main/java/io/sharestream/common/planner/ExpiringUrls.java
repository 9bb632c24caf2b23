package io.sharestream.common.planner;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.FileAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refreshes the pre-signed URLs of planned units before they expire: each unit's request is run again once and its
 * files are found by id ({@link FileLister#fresh}), and the planner's cached windows then hand out the fresh units. A
 * window spilled to disk is listed again whole instead ({@code relist} of its request), so every URL in it is fresh
 * for as long again and a stream through a million files lists it once per URL lifetime, not once per batch.
 */
final class ExpiringUrls {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiringUrls.class);

  private ExpiringUrls() {}

  /** {@code units}, those whose URLs expire before {@code threshold} (epoch millis) refreshed. */
  static List<WorkUnit> refresh(List<WorkUnit> units, long threshold, FileLister lister, WindowCache windows,
      String table, Function<FetchSpec, VersionWindow> relist) {
    Map<FetchSpec, VersionWindow> relisted = new LinkedHashMap<>();
    Map<WorkUnit, VersionWindow> spilledIn = new IdentityHashMap<>();
    Map<FetchSpec, Set<String>> wanted = new LinkedHashMap<>();
    for (WorkUnit u : units) {
      if (expiring(u, threshold)) {
        VersionWindow holder = u.isStartingVersion() ? windows.get(u.fetch()) : windows.holding(u.version());
        if (holder != null && holder.units(u.version()) instanceof SpilledUnits) {
          spilledIn.put(u, relisted.computeIfAbsent(holder.spec, relist));
        } else {
          Set<String> keys = wanted.computeIfAbsent(u.fetch(), s -> new HashSet<>());
          keys.add(FileLister.key(u.file()));
          if (u.previous() != null) {
            keys.add(FileLister.key(u.previous()));
          }
        }
      }
    }
    if (relisted.isEmpty() && wanted.isEmpty()) {
      return units;
    }
    Map<FetchSpec, Map<String, FileAction>> fresh = new HashMap<>();
    wanted.forEach((spec, keys) -> fresh.put(spec, lister.fresh(spec, keys)));
    Map<String, WorkUnit> refreshed = new HashMap<>();
    List<WorkUnit> out = new ArrayList<>(units.size());
    for (WorkUnit u : units) {
      if (!expiring(u, threshold)) {
        out.add(u);
      } else if (spilledIn.containsKey(u)) {
        out.add(relistedUnit(spilledIn.get(u), u, table));
      } else {
        Map<String, FileAction> listed = fresh.get(u.fetch());
        WorkUnit r = u.withFiles(relisted(listed, u.file(), u, table), u.previous() == null ? null
            : relisted(listed, u.previous(), u, table));
        refreshed.put(unitKey(r), r);
        out.add(r);
      }
    }
    LOG.debug("Refreshed pre-signed URLs of {} before they expire", fresh.isEmpty() ? relisted.keySet()
        : fresh.keySet());
    if (!refreshed.isEmpty()) {
      windows.replace(refreshed, ExpiringUrls::unitKey);
    }
    return out;
  }

  private static boolean expiring(WorkUnit u, long threshold) {
    Long exp = u.file().expirationTimestamp();
    return exp != null && exp <= threshold;
  }

  /** The unit at {@code u}'s place in the window listed again, which must be the same file. */
  private static WorkUnit relistedUnit(VersionWindow w, WorkUnit u, String table) {
    List<WorkUnit> now = w.units(u.version());
    if (u.index() >= now.size() || !now.get((int) u.index()).fileKey().equals(u.fileKey())) {
      throw Errors.fileIdsChanged(table, u.version(), u.index());
    }
    return now.get((int) u.index());
  }

  private static FileAction relisted(Map<String, FileAction> listed, FileAction f, WorkUnit u, String table) {
    FileAction r = listed.get(FileLister.key(f));
    if (r == null) {
      throw Errors.protocol("refreshing URLs of " + u.fetch() + " of " + table, "file " + f.id()
          + " is no longer listed");
    }
    return r;
  }

  private static String unitKey(WorkUnit u) {
    return u.fetch() + "/" + FileLister.key(u.file());
  }
}
