package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;

/**
 * One version's file lines as a listing streams them in: in the heap, or, once {@link #spill spilled}, on local
 * disk with only their sort keys in the heap, so a version of a million files needs tens of megabytes while it is
 * listed and 16 bytes a file after ({@link SpilledFiles}).
 */
final class VersionFiles implements Closeable {
  private List<FileAction> heap = new ArrayList<>();
  private FileSpill spill;
  private SpillIndex index;
  private int count;
  private Long firstTimestamp;
  private Long newestModification;

  void add(FileAction f) {
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

  /** Every line in the heap, in listing order (read back from disk when spilled, which then stays in the heap). */
  List<FileAction> all() {
    if (spill != null) {
      List<FileAction> read = spill.readAll();
      spill.close();
      spill = null;
      index = null;
      heap = read;
    }
    return heap;
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
  }
}
