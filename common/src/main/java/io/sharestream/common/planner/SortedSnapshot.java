package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * One snapshot's files in file id order, for diffing two snapshots by walking them side by side: in the heap, or,
 * beyond the planner's heap limit, spilled to local disk as it is listed ({@link VersionFiles}) and read back a file
 * at a time, so two snapshots of a million files take some 16 bytes a file in the heap.
 */
final class SortedSnapshot implements Closeable {
  static final SortedSnapshot EMPTY = new SortedSnapshot(Collections.emptyList(), null, 0);

  private final List<FileAction> heap;
  private final SpilledFiles spilled;
  private final long newestModification;

  private SortedSnapshot(List<FileAction> heap, SpilledFiles spilled, long newestModification) {
    this.heap = heap;
    this.spilled = spilled;
    this.newestModification = newestModification;
  }

  /** The listed {@code files} in id order; they are this snapshot's after (the spill, if any, moves here). */
  static SortedSnapshot of(VersionFiles files) {
    long newest = files.newestModification() == null ? 0 : files.newestModification();
    if (files.spilled()) {
      return new SortedSnapshot(null, files.sorted(), newest);
    }
    List<FileAction> sorted = new ArrayList<>(files.inHeap());
    sorted.sort(Comparator.comparing(FileAction::id)); // the spill's order: ids as String.compareTo orders them
    return new SortedSnapshot(sorted, null, newest);
  }

  int size() {
    return spilled != null ? spilled.size() : heap.size();
  }

  FileAction get(int i) {
    return spilled != null ? spilled.get(i) : heap.get(i);
  }

  /** The newest modification time of its files, 0 when none has one. */
  long newestModification() {
    return newestModification;
  }

  @Override
  public void close() {
    if (spilled != null) {
      spilled.close();
    }
  }
}
