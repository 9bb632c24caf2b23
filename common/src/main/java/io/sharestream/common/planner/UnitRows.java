package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.client.SignedUrl;
import io.sharestream.common.deletionvectors.DeletionVectorFormat;
import io.sharestream.common.deletionvectors.RowIndexSet;
import io.sharestream.common.deletionvectors.RowSelection;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidDataFileException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.DeletionVectorDescriptor;
import io.sharestream.common.planner.WorkUnit.RowSource;

/**
 * Which rows of a unit's file are read, and their change types, from its deletion vectors (SPEC §4b): the rows of
 * an added, removed or snapshot file but those its vector marks; for a re-added file the rows whose mark changed
 * (newly marked: {@code delete}; no longer marked: {@code insert}). Each vector is fetched once, with one range
 * request (inline ones need none), and checked: size, checksum, magic number and cardinality.
 */
public final class UnitRows {
  private final WorkUnit unit;
  private final RowSelection selection;
  private final RowIndexSet deleted;

  private UnitRows(WorkUnit unit, RowSelection selection, RowIndexSet deleted) {
    this.unit = unit;
    this.selection = selection;
    this.deleted = deleted;
  }

  /** Loads the deletion vectors {@code unit} needs through {@code urls}; every row when it has none. */
  public static UnitRows load(DeltaSharingClient client, WorkUnit unit, UnitUrls urls) {
    if (!unit.hasDeletionVectors()) {
      return new UnitRows(unit, unit.source() == RowSource.DELETION_VECTOR_CHANGE
          ? RowSelection.only(RowIndexSet.EMPTY) : RowSelection.ALL, RowIndexSet.EMPTY);
    }
    RowIndexSet now = load(client, unit, unit.file().deletionVector(), urls::deletionVector);
    if (unit.source() != RowSource.DELETION_VECTOR_CHANGE) {
      return new UnitRows(unit, RowSelection.excluding(now), RowIndexSet.EMPTY);
    }
    RowIndexSet before = load(client, unit, unit.previous().deletionVector(), urls::previousDeletionVector);
    RowIndexSet restored = before.andNot(now);
    if (unit.newImagesOnly()) {
      return new UnitRows(unit, RowSelection.only(restored), RowIndexSet.EMPTY);
    }
    RowIndexSet newlyDeleted = now.andNot(before);
    return new UnitRows(unit, RowSelection.only(newlyDeleted.or(restored)), newlyDeleted);
  }

  /** The rows to read. */
  public RowSelection selection() {
    return selection;
  }

  /** Whether rows of the unit differ in change type (a re-add that both deletes and restores rows). */
  public boolean labelsPerRow() {
    return unit.source() == RowSource.DELETION_VECTOR_CHANGE && !deleted.isEmpty()
        && deleted.cardinality() != selection.rows().cardinality();
  }

  /** The change type of a selected row (for change data: the row's own {@code rowChangeType}). */
  public String changeType(long row, String rowChangeType) {
    if (unit.source() == RowSource.DELETION_VECTOR_CHANGE) {
      return deleted.contains(row) ? ChangeTypes.DELETE : ChangeTypes.INSERT;
    }
    return unit.changeType(rowChangeType);
  }

  /** The change type of every row, when {@link #labelsPerRow()} is false and the unit is not change data. */
  public String constantChangeType() {
    if (unit.source() == RowSource.DELETION_VECTOR_CHANGE) {
      return deleted.isEmpty() ? ChangeTypes.INSERT : ChangeTypes.DELETE;
    }
    return unit.changeType(null);
  }

  private static RowIndexSet load(DeltaSharingClient client, WorkUnit unit, DeletionVectorDescriptor dv,
      java.util.function.Supplier<SignedUrl> url) {
    if (dv == null || dv.cardinality() == 0) {
      return RowIndexSet.EMPTY;
    }
    try {
      switch (dv.storageType()) {
        case DeletionVectorDescriptor.INLINE:
          return DeletionVectorFormat.inline(dv);
        case DeletionVectorDescriptor.URL: {
          int length = DeletionVectorFormat.storedLength(dv);
          HttpInputFile file = new HttpInputFile(client, url.get(), (long) dv.offset() + length,
              "deletion vector of " + unit.describe());
          return DeletionVectorFormat.stored(dv, file.read(dv.offset(), length));
        }
        default:
          throw new IllegalArgumentException("the server sent it stored relative to the table (storage type '"
              + dv.storageType() + "', " + DeletionVectorFormat.relativePath(dv) + "), which only the server can "
              + "resolve; a sharing server must send it as a pre-signed URL (storage type 'p')");
      }
    } catch (IllegalArgumentException | InvalidDataFileException e) {
      throw Errors.invalidDeletionVector(unit.describe(), e.getMessage(), e);
    } catch (VersionNotAvailableException e) {
      throw Errors.invalidDeletionVector(unit.describe(), "its file is not in storage or shorter than its offset "
          + dv.offset() + " (" + e.getMessage() + ")", e);
    }
  }
}
