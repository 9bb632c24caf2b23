package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import io.sharestream.common.planner.WorkUnit.RowSource;
import java.io.Closeable;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A version's units over its {@link SpilledFiles}: each made when asked for, from its lines read back from disk, so
 * a version of a million files holds some 16 to 33 bytes a file in the heap. Which lines are units is the
 * {@link SpilledParts}' (null: every line, read as added: an append or a snapshot).
 */
final class SpilledUnits extends AbstractList<WorkUnit> implements RandomAccess, Closeable {
  /** Makes the unit at an index of the version. */
  interface UnitMaker {
    WorkUnit unit(FileAction file, FileAction previous, RowSource source, boolean newImagesOnly, int index);
  }

  private final SpilledFiles files;
  private final SpilledParts parts;
  private final UnitMaker maker;

  SpilledUnits(SpilledFiles files, SpilledParts parts, UnitMaker maker) {
    this.files = files;
    this.parts = parts;
    this.maker = maker;
  }

  @Override
  public WorkUnit get(int index) {
    if (parts == null) {
      return maker.unit(files.get(index), null, RowSource.ADDED, false, index);
    }
    int previous = parts.previous(index);
    return maker.unit(files.get(parts.file(index)), previous < 0 ? null : files.get(previous), parts.source(index),
        parts.newImagesOnly(index), index);
  }

  @Override
  public int size() {
    return parts == null ? files.size() : parts.size();
  }

  /** The bytes of the units from {@code index} on, without reading them. */
  long bytesFrom(int index) {
    return parts == null ? files.bytesFrom(index) : parts.bytesFrom(index);
  }

  @Override
  public void close() {
    files.close();
  }
}
