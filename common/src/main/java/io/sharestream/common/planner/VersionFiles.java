package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import io.sharestream.common.planner.CommitRules.Commit;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;

/**
 * One version's file lines as a listing streams them in: in the heap, or, once {@link #spill spilled}, on local
 * disk with only their sort keys in the heap, so a version of a million files needs tens of megabytes while it is
 * listed and 16 bytes a file after ({@link SpilledFiles}).
 */
final class VersionFiles implements Closeable {
  private final int inHeapAtMost;
  private List<FileAction> heap = new ArrayList<>();
  private FileSpill spill;
  private SpillIndex index;
  private int count;
  private Long firstTimestamp;
  private Long newestModification;
  /** What a spilled commit's rewrite check needs ({@link Commit#mayKeepRows}), tallied as the lines come. */
  private boolean addsWithDataChange;
  private long removedLiveRecords;
  private long addedLiveRecords;

  /** Lines kept in the heap up to {@code inHeapAtMost}; from the next one on, all of them on disk. */
  VersionFiles(int inHeapAtMost) {
    this.inHeapAtMost = inHeapAtMost;
  }

  /** Lines in the heap until {@link #spill} is called. */
  VersionFiles() {
    this(Integer.MAX_VALUE);
  }

  void add(FileAction f) {
    if (spill == null && count >= inHeapAtMost) {
      spill();
    }
    if (f.kind() == FileAction.Kind.ADD) {
      addsWithDataChange |= f.dataChange();
      addedLiveRecords = CommitRules.plusLiveRecords(addedLiveRecords, f);
    } else if (f.kind() == FileAction.Kind.REMOVE) {
      removedLiveRecords = CommitRules.plusLiveRecords(removedLiveRecords, f);
    }
    if (count++ == 0) {
      firstTimestamp = f.timestamp();
    }
    if (f.modificationTime() != null && (newestModification == null || f.modificationTime() > newestModification)) {
      newestModification = f.modificationTime();
    }
    if (spill == null) {
      heap.add(f);
    } else {
      index.add(f, spill.append(f));
    }
  }

  /** Moves the lines to local disk; later lines go there too. */
  void spill() {
    if (spill == null) {
      spill = new FileSpill();
      index = new SpillIndex();
      for (FileAction f : heap) {
        index.add(f, spill.append(f));
      }
      heap = null;
    }
  }

  int size() {
    return count;
  }

  boolean spilled() {
    return spill != null;
  }

  /** The first line's commit time, if it has one. */
  Long firstTimestamp() {
    return firstTimestamp;
  }

  /** The newest modification time of the files, if any has one. */
  Long newestModification() {
    return newestModification;
  }

  /** Every line, in listing order, of lines never spilled. */
  List<FileAction> inHeap() {
    if (spill != null) {
      throw new IllegalStateException("spilled lines are read in planner order: sorted()");
    }
    return heap;
  }

  /**
   * The lines as version {@code version}'s commit: in the heap, or spilled in planner order (the commit's then, and
   * this holds nothing after); {@code fromSnapshots} as {@link Commit#Commit(long, List, boolean)} says.
   */
  Commit commit(long version, boolean fromSnapshots) {
    if (spill == null) {
      return new Commit(version, inHeap(), fromSnapshots);
    }
    boolean addsWithoutDataChange = !addsWithDataChange;
    long removed = removedLiveRecords;
    long added = addedLiveRecords;
    SpilledFiles sorted = sorted();
    return new Commit(version, sorted, addsWithoutDataChange && sorted.adds() > 0, removed, added);
  }

  /** The spilled lines in planner order; the caller owns them and this holds nothing after. */
  SpilledFiles sorted() {
    SpilledFiles out = index.sorted(spill);
    forget();
    return out;
  }

  @Override
  public void close() {
    if (spill != null) {
      spill.close();
      forget();
    }
  }

  private void forget() {
    spill = null;
    index = null;
    heap = new ArrayList<>();
    count = 0;
    addsWithDataChange = false;
    removedLiveRecords = 0;
    addedLiveRecords = 0;
  }
}
