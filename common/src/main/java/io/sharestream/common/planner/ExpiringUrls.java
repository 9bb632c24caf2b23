package io.sharestream.common.planner;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.FileAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refreshes the pre-signed URLs of planned units before they expire: each unit's request is run again once
 * ({@link FileLister#fresh}) and its files are found by id; the planner's cached windows then hand out the fresh
 * units.
 */
final class ExpiringUrls {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiringUrls.class);

  private ExpiringUrls() {}

  /** {@code units}, those whose URLs expire before {@code threshold} (epoch millis) refreshed. */
  static List<WorkUnit> refresh(List<WorkUnit> units, long threshold, FileLister lister, WindowCache windows,
      String table) {
    Map<FetchSpec, Map<String, FileAction>> fresh = new HashMap<>();
    Map<String, WorkUnit> refreshed = new HashMap<>();
    List<WorkUnit> out = new ArrayList<>(units.size());
    for (WorkUnit u : units) {
      Long exp = u.file().expirationTimestamp();
      if (exp == null || exp > threshold) {
        out.add(u);
        continue;
      }
      Map<String, FileAction> listed = fresh.computeIfAbsent(u.fetch(), lister::fresh);
      WorkUnit r = u.withFiles(relisted(listed, u.file(), u, table), u.previous() == null ? null
          : relisted(listed, u.previous(), u, table));
      refreshed.put(unitKey(r), r);
      out.add(r);
    }
    if (!refreshed.isEmpty()) {
      LOG.debug("Refreshed pre-signed URLs of {} before they expire", fresh.keySet());
      windows.replace(refreshed, ExpiringUrls::unitKey);
    }
    return out;
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
