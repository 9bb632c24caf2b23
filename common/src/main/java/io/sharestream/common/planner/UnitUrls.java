package io.sharestream.common.planner;

import io.sharestream.common.client.SignedUrl;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.FileAction;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Where a unit's files can be fetched now: its data file and its deletion vectors (its own and, for a re-added
 * file, the removed one's). Storage answering 403 refreshes them all at once, by running the request that listed
 * the unit again and matching its files by kind and id; a known reference-client bug drops deletion vector URLs
 * on refresh, so here they are refreshed with the data URL, never apart from it.
 */
public final class UnitUrls {
  private final FileLister lister;
  private volatile WorkUnit unit;

  public UnitUrls(FileLister lister, WorkUnit unit) {
    this.lister = lister;
    this.unit = unit;
  }

  /** The unit with the URLs in use now. */
  public WorkUnit unit() {
    return unit;
  }

  /** The data file's URL. */
  public SignedUrl data() {
    return url(u -> u.file().url());
  }

  /** The URL of the file's own deletion vector (which must be stored by URL). */
  public SignedUrl deletionVector() {
    return url(u -> u.file().deletionVector().pathOrInlineDv());
  }

  /** The URL of the deletion vector the removed file had ({@link WorkUnit.RowSource#DELETION_VECTOR_CHANGE}). */
  public SignedUrl previousDeletionVector() {
    return url(u -> u.previous().deletionVector().pathOrInlineDv());
  }

  private SignedUrl url(Function<WorkUnit, String> pick) {
    return new SignedUrl() {
      @Override
      public String current() {
        return pick.apply(unit);
      }

      @Override
      public String refresh() {
        return pick.apply(refreshAll());
      }
    };
  }

  /** Lists the unit's request again and takes its files' fresh URLs. */
  private synchronized WorkUnit refreshAll() {
    WorkUnit u = unit;
    Set<String> keys = new HashSet<>();
    keys.add(FileLister.key(u.file()));
    if (u.previous() != null) {
      keys.add(FileLister.key(u.previous()));
    }
    Map<String, FileAction> fresh = lister.fresh(u.fetch(), keys);
    FileAction file = find(fresh, u.file(), u);
    FileAction previous = u.previous() == null ? null : find(fresh, u.previous(), u);
    unit = u.withFiles(file, previous);
    return unit;
  }

  private static FileAction find(Map<String, FileAction> fresh, FileAction f, WorkUnit u) {
    FileAction found = fresh.get(FileLister.key(f));
    if (found == null) {
      throw Errors.protocol("refreshing the URLs of " + u.describe(), "the file is no longer listed by " + u.fetch());
    }
    return found;
  }
}
