package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import java.io.Closeable;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A version's units over its {@link SpilledFiles}: each made when asked for, from its line read back from disk, so a
 * window of a million files holds 16 bytes a file. Only units alike but for their file are spilled (the adds of an
 * append or a snapshot); change commits are planned in the heap.
 */
final class SpilledUnits extends AbstractList<WorkUnit> implements RandomAccess, Closeable {
  /** Makes the unit at an index of the version from its file. */
  interface UnitMaker {
    WorkUnit unit(FileAction file, int index);
  }

  private final SpilledFiles files;
  private final UnitMaker maker;

  SpilledUnits(SpilledFiles files, UnitMaker maker) {
    this.files = files;
    this.maker = maker;
  }

  @Override
  public WorkUnit get(int index) {
    return maker.unit(files.get(index), index);
  }

  @Override
  public int size() {
    return files.size();
  }

  /** The bytes of the units from {@code index} on, without reading them. */
  long bytesFrom(int index) {
    return files.bytesFrom(index);
  }

  @Override
  public void close() {
    files.close();
  }
}
