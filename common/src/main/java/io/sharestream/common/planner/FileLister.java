package io.sharestream.common.planner;

import io.sharestream.common.client.ChangesRequest;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.TableRef;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs the request a {@link FetchSpec} describes. The planner lists windows with it; URL refreshes run the same
 * spec again and look the file up by {@link #key}. A {@link FetchSpec.Kind#SNAPSHOT_DIFF} lists the snapshots of
 * consecutive versions and derives each version's removes and adds from their difference (files by id and deletion
 * vector), stamped with a commit time taken from the files' modification times.
 */
public final class FileLister {
  private final DeltaSharingClient client;
  private final TableRef table;
  private final Integer pageSize;
  /** Files of one listing kept in the heap by default; beyond them a version's files are spilled to local disk. */
  static final int FILES_IN_HEAP = 10_000;
  private int filesInHeap = FILES_IN_HEAP;

  public FileLister(DeltaSharingClient client, TableRef table, Integer pageSize) {
    this.client = client;
    this.table = table;
    this.pageSize = pageSize;
  }

  /**
   * Has listings spilled beyond {@code files} to disk: the snapshots it diffs here, the windows its planner lists
   * (tests spill small tables).
   */
  void spillBeyond(int files) {
    this.filesInHeap = files;
  }

  /** Files of one listing kept in the heap; beyond them a version's files are spilled to local disk. */
  int filesInHeap() {
    return filesInHeap;
  }

  /** Streams the spec's answer: its head metadata first, then every action. */
  void list(FetchSpec spec, Consumer<TableMetadata> head, Consumer<SharingAction> actions) {
    if (spec.kind() == FetchSpec.Kind.SNAPSHOT_DIFF) {
      listDiff(spec, head, actions);
      return;
    }
    try (FileListing l = open(spec)) {
      head.accept(l.metadata());
      while (l.hasNext()) {
        actions.accept(l.next());
      }
    }
  }

  private FileListing open(FetchSpec spec) {
    switch (spec.kind()) {
      case SNAPSHOT:
        return client.query(table, paged(QueryRequest.atVersion(spec.startVersion())));
      case LATEST:
        return client.query(table, paged(QueryRequest.latest()));
      case QUERY:
        return client.query(table, paged(QueryRequest.changes(spec.startVersion(), spec.endVersion())));
      default: {
        ChangesRequest c = ChangesRequest.fromVersion(spec.startVersion()).endingVersion(spec.endVersion());
        return client.changes(table, pageSize == null ? c : c.maxFiles(pageSize));
      }
    }
  }

  /** The commit time on the first file line of {@code version}'s history, or null; the rest is not listed. */
  Long firstTimestamp(long version) {
    return firstFileTimestamp(open(FetchSpec.query(version, version)));
  }

  /**
   * The commit time of {@code version} as a snapshot at it states it: servers give it on the file lines of a paged
   * versioned snapshot (one file is asked for); null when it has no file or the server says nothing.
   */
  Long snapshotCommitTimestamp(long version) {
    return firstFileTimestamp(client.query(table, QueryRequest.atVersion(version).maxFiles(1)));
  }

  /** The commit time on the first file line of {@code listing}, or null; the listing is closed after it. */
  private static Long firstFileTimestamp(FileListing listing) {
    try (FileListing l = listing) {
      while (l.hasNext()) {
        SharingAction a = l.next();
        if (a instanceof FileAction) {
          return ((FileAction) a).timestamp();
        }
      }
      return null;
    }
  }

  private QueryRequest paged(QueryRequest q) {
    return pageSize == null ? q : q.maxFiles(pageSize);
  }

  /**
   * The changes of {@code spec}'s versions from snapshots: version v's removes are the files of v-1 that v lacks,
   * its adds the files of v that v-1 lacks (a file whose deletion vector changed is both), found by walking the two
   * snapshots side by side in file id order; snapshots beyond the heap limit are spilled to disk as they are listed.
   * Snapshots are asked unpaged (servers that refuse history in the delta format refuse paging too). A version's
   * metadata is reported when it differs from the one before.
   */
  private void listDiff(FetchSpec spec, Consumer<TableMetadata> head, Consumer<SharingAction> actions) {
    TableMetadata[] meta = {null};
    SortedSnapshot[] pair = snapshotsAround(spec.startVersion(), meta); // {before, now}
    try {
      TableMetadata previous = null;
      for (long v = spec.startVersion(); v <= spec.endVersion(); v++) {
        if (v > spec.startVersion()) {
          pair[0].close();
          pair[0] = pair[1];
          pair[1] = null; // should the next listing fail, pair[0] is not closed twice
          pair[1] = snapshot(v, meta, () -> false);
        }
        TableMetadata m = meta[0].withVersion(v);
        if (v == spec.startVersion()) {
          head.accept(m);
        } else if (!m.sameAs(previous)) {
          actions.accept(m);
        }
        diff(pair[0], pair[1], v, actions);
        previous = m;
      }
    } finally {
      close(pair[0]);
      close(pair[1]);
    }
  }

  /**
   * The snapshots at {@code version - 1} (empty before version 0) and at {@code version}, listed at once, the one
   * before on a thread of its own: the first version of a derived window needs both, and each can be a listing of a
   * million files. Whatever fails, no spill is left open and the other listing stops.
   */
  private SortedSnapshot[] snapshotsAround(long version, TableMetadata[] meta) {
    if (version == 0) {
      return new SortedSnapshot[] {SortedSnapshot.EMPTY, snapshot(0, meta, () -> false)};
    }
    CompletableFuture<SortedSnapshot> before = new CompletableFuture<>();
    Thread lister = new Thread(() -> {
      try {
        SortedSnapshot s = snapshot(version - 1, new TableMetadata[1], before::isDone);
        if (!before.complete(s)) {
          s.close(); // given up on meanwhile
        }
      } catch (Throwable e) {
        before.completeExceptionally(e);
      }
    }, "sharestream-snapshot-" + table + "@" + (version - 1));
    lister.setDaemon(true);
    lister.start();
    SortedSnapshot now;
    try {
      now = snapshot(version, meta, () -> false);
    } catch (RuntimeException | Error e) {
      abandon(before);
      throw e;
    }
    try {
      return new SortedSnapshot[] {before.get(), now};
    } catch (InterruptedException e) { // an engine stopping
      Thread.currentThread().interrupt();
      now.close();
      abandon(before);
      throw new CancelledException("Listing the snapshot of " + table + " at version " + (version - 1)
          + " was interrupted.");
    } catch (ExecutionException e) {
      now.close();
      if (e.getCause() instanceof Error) {
        throw (Error) e.getCause();
      }
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
          : new IllegalStateException(e.getCause());
    }
  }

  /** Stops a snapshot listing at its next line, which then closes what it spilled; closes it if it is done. */
  private static void abandon(CompletableFuture<SortedSnapshot> listing) {
    listing.cancel(false);
    listing.thenAccept(FileLister::close); // runs only if it was listed before the cancel
  }

  private static void close(SortedSnapshot s) {
    if (s != null) {
      s.close();
    }
  }

  /**
   * The removes and adds that turn {@code before} into {@code now} as version {@code v}, stamped with the newest
   * modification time of the files involved (never after the commit).
   */
  private static void diff(SortedSnapshot before, SortedSnapshot now, long v, Consumer<SharingAction> actions) {
    long ts = Math.max(before.newestModification(), now.newestModification());
    int i = 0;
    int j = 0;
    FileAction b = i < before.size() ? before.get(i) : null;
    FileAction n = j < now.size() ? now.get(j) : null;
    while (b != null || n != null) {
      int order = b == null ? 1 : n == null ? -1 : b.id().compareTo(n.id());
      if (order <= 0 && (order < 0 || !sameDeletionVector(b, n))) {
        actions.accept(b.as(FileAction.Kind.REMOVE, v, ts));
      }
      if (order >= 0 && (order > 0 || !sameDeletionVector(b, n))) {
        actions.accept(n.as(FileAction.Kind.ADD, v, ts));
      }
      if (order <= 0) {
        b = ++i < before.size() ? before.get(i) : null;
      }
      if (order >= 0) {
        n = ++j < now.size() ? now.get(j) : null;
      }
    }
  }

  private static boolean sameDeletionVector(FileAction a, FileAction b) {
    return a.deletionVector() == null ? b.deletionVector() == null
        : b.deletionVector() != null && a.deletionVector().stableKey().equals(b.deletionVector().stableKey());
  }

  /**
   * The files of the snapshot at {@code version} in id order; its metadata into {@code meta[0]}. Listing ends early
   * once {@code stop} holds: the caller then drops what it gets.
   */
  private SortedSnapshot snapshot(long version, TableMetadata[] meta, BooleanSupplier stop) {
    try (VersionFiles files = new VersionFiles(filesInHeap)) {
      try (FileListing l = client.query(table, QueryRequest.atVersion(version))) {
        meta[0] = l.metadata();
        while (!stop.getAsBoolean() && l.hasNext()) {
          SharingAction a = l.next();
          if (a instanceof FileAction) {
            files.add((FileAction) a);
          }
        }
      }
      return SortedSnapshot.of(files);
    }
  }

  /** The spec's files of {@code keys} ({@link #key}) again, with fresh URLs, by key; others are not kept. */
  public Map<String, FileAction> fresh(FetchSpec spec, Set<String> keys) {
    Map<String, FileAction> out = new HashMap<>();
    list(spec, m -> { }, a -> {
      if (a instanceof FileAction && keys.contains(key((FileAction) a))) {
        out.put(key((FileAction) a), (FileAction) a);
      }
    });
    return out;
  }

  /** Identity of a file line within one answer: an add and a remove of one path share an id, so the kind counts. */
  public static String key(FileAction f) {
    return f.kind() + ":" + f.id() + (f.version() == null ? "" : "@" + f.version());
  }
}
