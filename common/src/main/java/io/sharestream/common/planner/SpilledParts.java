package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import io.sharestream.common.planner.CommitRules.Rule;
import io.sharestream.common.planner.WorkUnit.RowSource;
import java.util.Arrays;

/**
 * {@link CommitRules} over a spilled commit: which lines of its spill become units and how their rows are labelled,
 * found in one pass over the lines in planner order (an add and a remove of one file id are neighbours there), kept as
 * indexes into the spill (about 17 bytes a unit).
 */
final class SpilledParts {
  private static final int NEW_IMAGES_ONLY = 8;

  private int[] file = new int[1024];
  private int[] previous = new int[1024];
  private byte[] flags = new byte[1024];
  private long[] bytesBefore = new long[1025];
  private int size;

  private SpilledParts() {}

  /** The parts of {@code files} by {@code rule}, in planner order. */
  static SpilledParts of(SpilledFiles files, Rule rule) {
    SpilledParts out = new SpilledParts();
    forEachFile(files, (add, addAt, remove, removeAt) -> {
      if (rule == Rule.CHANGE_DATA || rule == Rule.NEW_CHANGE_DATA) {
        return; // change data lines come one by one, below
      }
      if (rule == Rule.REMOVED) {
        if (remove != null) {
          out.add(removeAt, -1, RowSource.REMOVED, false, remove.size());
        }
        return;
      }
      if (add != null && (remove == null || rule == Rule.ADDED)) {
        out.add(addAt, -1, RowSource.ADDED, false, add.size());
      } else if (add != null && (rule == Rule.DERIVED_CHANGES || remove.deletionVector() != null)) {
        out.add(addAt, removeAt, RowSource.DELETION_VECTOR_CHANGE, rule == Rule.NEW_IMAGES, add.size());
      } else if (add == null && rule == Rule.DERIVED_CHANGES) {
        out.add(removeAt, -1, RowSource.REMOVED, false, remove.size());
      }
    }, (cdc, at) -> {
      if (rule == Rule.CHANGE_DATA || rule == Rule.NEW_CHANGE_DATA) {
        out.add(at, -1, RowSource.CHANGE_DATA, rule == Rule.NEW_CHANGE_DATA, cdc.size());
      }
    });
    return out;
  }

  /** As {@link CommitRules#deletedRows} for a spilled commit: -1 when a removed file has no stats. */
  static long deletedRows(SpilledFiles files) {
    long[] n = {0};
    forEachFile(files, (add, addAt, remove, removeAt) -> {
      if (remove == null || n[0] < 0) {
        return;
      }
      long rows = add != null ? Math.max(0, cardinality(add) - cardinality(remove)) : remove.liveRecords();
      n[0] = rows < 0 ? -1 : n[0] + rows;
    }, (cdc, at) -> { });
    return n[0];
  }

  private static long cardinality(FileAction f) {
    return f.deletionVector() == null ? 0 : f.deletionVector().cardinality();
  }

  /** A data file's lines in a commit: its add and its remove (either may be null), and where they are. */
  private interface FileLines {
    void accept(FileAction add, int addAt, FileAction remove, int removeAt);
  }

  private interface ChangeDataLine {
    void accept(FileAction cdc, int at);
  }

  /** Walks the lines in planner order, a file id at a time. */
  private static void forEachFile(SpilledFiles files, FileLines lines, ChangeDataLine changeData) {
    int n = files.size();
    FileAction next = n > 0 ? files.get(0) : null;
    for (int i = 0; i < n; ) {
      String id = next.id();
      FileAction add = null;
      FileAction remove = null;
      int addAt = -1;
      int removeAt = -1;
      for (; i < n && next.id().equals(id); i++, next = i < n ? files.get(i) : null) {
        if (next.kind() == FileAction.Kind.CDF) {
          changeData.accept(next, i);
        } else if (next.kind() == FileAction.Kind.REMOVE) {
          remove = next;
          removeAt = i;
        } else {
          add = next;
          addAt = i;
        }
      }
      if (add != null || remove != null) {
        lines.accept(add, addAt, remove, removeAt);
      }
    }
  }

  private void add(int fileAt, int previousAt, RowSource source, boolean newImagesOnly, long bytes) {
    if (size == file.length) {
      int n = size + (size >> 1);
      file = Arrays.copyOf(file, n);
      previous = Arrays.copyOf(previous, n);
      flags = Arrays.copyOf(flags, n);
      bytesBefore = Arrays.copyOf(bytesBefore, n + 1);
    }
    file[size] = fileAt;
    previous[size] = previousAt;
    flags[size] = (byte) (source.ordinal() | (newImagesOnly ? NEW_IMAGES_ONLY : 0));
    bytesBefore[size + 1] = bytesBefore[size] + bytes;
    size++;
  }

  int size() {
    return size;
  }

  /** Where part {@code i}'s file is in the spill. */
  int file(int i) {
    return file[i];
  }

  /** Where part {@code i}'s removed file is in the spill ({@link RowSource#DELETION_VECTOR_CHANGE}), else -1. */
  int previous(int i) {
    return previous[i];
  }

  RowSource source(int i) {
    return RowSource.values()[flags[i] & (NEW_IMAGES_ONLY - 1)];
  }

  boolean newImagesOnly(int i) {
    return (flags[i] & NEW_IMAGES_ONLY) != 0;
  }

  long bytesFrom(int i) {
    return bytesBefore[size] - bytesBefore[i];
  }
}
