package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import java.io.Closeable;

/**
 * A spilled version's file lines in planner order: where each line is in the spill and the bytes before it in the
 * heap (16 bytes a line), the lines themselves on disk, read as they are asked for.
 */
final class SpilledFiles implements Closeable {
  private final FileSpill spill;
  private final long[] offsets;
  private final long[] bytesBefore;
  private final int removes;
  private final int changeData;

  SpilledFiles(FileSpill spill, long[] offsets, long[] bytesBefore, int removes, int changeData) {
    this.spill = spill;
    this.offsets = offsets;
    this.bytesBefore = bytesBefore;
    this.removes = removes;
    this.changeData = changeData;
  }

  int size() {
    return offsets.length;
  }

  /** How many lines remove a file. */
  int removes() {
    return removes;
  }

  /** How many lines are change data files. */
  int changeData() {
    return changeData;
  }

  /** How many lines add a file. */
  int adds() {
    return offsets.length - removes - changeData;
  }

  FileAction get(int i) {
    return spill.read(offsets[i]);
  }

  /** The size of the files from {@code i} on. */
  long bytesFrom(int i) {
    return bytesBefore[offsets.length] - bytesBefore[i];
  }

  @Override
  public void close() {
    spill.close();
  }
}
