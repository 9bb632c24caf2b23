package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import io.sharestream.common.planner.WorkUnit.RowSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SPEC §4 and §4b for one commit: which of its files are read, and how their rows are labelled. A commit that
 * removes any file is a change commit. An add and a remove of the same file id in one commit are a re-add: the
 * file's deletion vector changed (a DELETE, UPDATE or MERGE with deletion vectors), so its rows are not new; only
 * the rows whose deletion mark changed are changes.
 */
final class CommitRules {
  private CommitRules() {}

  /** Which of a commit's files are read, and how their rows are labelled. */
  enum Rule {
    /** Every added file's live rows, as inserts: an append, a snapshot. */
    ADDED,
    /** Default mode without change data: {@link #newImages}. */
    NEW_IMAGES,
    /** readChangeFeed without change data: {@link #derivedChanges}. */
    DERIVED_CHANGES,
    /** Every row of the change data files. */
    CHANGE_DATA,
    /** The inserts and post-images of the change data files (default mode). */
    NEW_CHANGE_DATA,
    /** Every removed file's live rows, as deletes: one side of a rewrite's check ({@link RewriteCheck}). */
    REMOVED
  }

  /**
   * The data-change actions of one version: in the heap, or, for a version listed beyond the planner's heap limit,
   * on local disk in planner order ({@link #spilled}, whose lists here stay empty).
   */
  static final class Commit {
    final long version;
    final List<FileAction> adds = new ArrayList<>();
    final List<FileAction> removes = new ArrayList<>();
    final List<FileAction> changeData = new ArrayList<>();
    /** The spilled files, or null; owned by whoever makes units of them, else closed with {@link #close}. */
    final SpilledFiles spilled;

    /** The adds all have {@code dataChange=false}: a rewrite (OPTIMIZE), or snapshot files from a checkpoint. */
    final boolean addsWithoutDataChange;
    /** The live rows of the removed and of the added files, -1 when a file has no stats. */
    final long removedLiveRecords;
    final long addedLiveRecords;

    /** A version's actions from history (where a rewrite without data change is left out, if a server sent it). */
    Commit(long version, List<FileAction> actions) {
      this(version, actions, false);
    }

    /**
     * {@code fromSnapshots}: derived from two snapshots, whose files' {@code dataChange} says little (every file read
     * from a checkpoint has false), so every action counts.
     */
    Commit(long version, List<FileAction> actions, boolean fromSnapshots) {
      this.version = version;
      this.spilled = null;
      boolean noDataChange = true;
      long removed = 0;
      long added = 0;
      for (FileAction f : actions) {
        if (f.kind() == FileAction.Kind.ADD) {
          noDataChange &= !f.dataChange();
        }
        if (!f.dataChange() && !fromSnapshots) {
          continue; // a rewrite without data change (OPTIMIZE): a server should not send it for history
        }
        switch (f.kind()) {
          case REMOVE:
            removes.add(f);
            removed = plusLiveRecords(removed, f);
            break;
          case CDF:
            changeData.add(f);
            break;
          default:
            adds.add(f);
            added = plusLiveRecords(added, f);
        }
      }
      this.addsWithoutDataChange = noDataChange && !adds.isEmpty();
      this.removedLiveRecords = removed;
      this.addedLiveRecords = added;
    }

    /**
     * A spilled version's actions (history: files a rewrite added without data change are not in it), with what
     * {@link #mayKeepRows} needs tallied as they were listed.
     */
    Commit(long version, SpilledFiles spilled, boolean addsWithoutDataChange, long removedLiveRecords,
        long addedLiveRecords) {
      this.version = version;
      this.spilled = spilled;
      this.addsWithoutDataChange = addsWithoutDataChange;
      this.removedLiveRecords = removedLiveRecords;
      this.addedLiveRecords = addedLiveRecords;
    }

    int addCount() {
      return spilled != null ? spilled.adds() : adds.size();
    }

    int removeCount() {
      return spilled != null ? spilled.removes() : removes.size();
    }

    boolean hasChangeData() {
      return spilled != null ? spilled.changeData() > 0 : !changeData.isEmpty();
    }

    /** Deletes the spill of a commit no units were made of. */
    void close() {
      if (spilled != null) {
        spilled.close();
      }
    }

    /**
     * Whether a commit derived from snapshots may be a rewrite that kept every row (OPTIMIZE, REORG): it removed
     * files, added files without data change, and as many live rows as it removed (where stats tell).
     */
    boolean mayKeepRows() {
      return removeCount() > 0 && addsWithoutDataChange
          && (removedLiveRecords < 0 || addedLiveRecords < 0 || removedLiveRecords == addedLiveRecords);
    }

    /** Whether the commit removes or rewrites data (UPDATE, DELETE, MERGE, overwrite). */
    boolean isChange() {
      return removeCount() > 0;
    }

    /** The removes by file id, for pairing with re-adds. */
    Map<String, FileAction> removesById() {
      Map<String, FileAction> out = new HashMap<>();
      removes.forEach(r -> out.put(r.id(), r));
      return out;
    }
  }

  /** A unit to make of a file: its row source, the removed file of a re-add, new images only. */
  static final class Part {
    final FileAction file;
    final FileAction previous;
    final RowSource source;
    final boolean newImagesOnly;

    Part(FileAction file, FileAction previous, RowSource source, boolean newImagesOnly) {
      this.file = file;
      this.previous = previous;
      this.source = source;
      this.newImagesOnly = newImagesOnly;
    }
  }

  /** {@code sum} plus the live rows of {@code f}; -1 once a file has no stats. */
  static long plusLiveRecords(long sum, FileAction f) {
    return sum < 0 || f.liveRecords() < 0 ? -1 : sum + f.liveRecords();
  }

  /** The parts of a commit in the heap by {@code rule}. */
  static List<Part> parts(Commit c, Rule rule) {
    switch (rule) {
      case ADDED:
        return added(c.adds);
      case NEW_IMAGES:
        return newImages(c);
      case DERIVED_CHANGES:
        return derivedChanges(c);
      case CHANGE_DATA:
        return changeData(c.changeData, false);
      case REMOVED:
        return removed(c);
      default:
        return changeData(c.changeData, true);
    }
  }

  /** An append commit's rows, or the rows of a snapshot: every live row of each added file, as inserts. */
  static List<Part> added(List<FileAction> files) {
    List<Part> out = new ArrayList<>();
    files.forEach(f -> out.add(new Part(f, null, RowSource.ADDED, false)));
    return out;
  }

  /** The live rows of a commit's removed files, as deletes. */
  static List<Part> removed(Commit c) {
    List<Part> out = new ArrayList<>();
    c.removes.forEach(f -> out.add(new Part(f, null, RowSource.REMOVED, false)));
    return out;
  }

  /** Change data files: every row (readChangeFeed), or only inserts and post-images (default mode). */
  static List<Part> changeData(List<FileAction> files, boolean newImagesOnly) {
    List<Part> out = new ArrayList<>();
    files.forEach(f -> out.add(new Part(f, null, RowSource.CHANGE_DATA, newImagesOnly)));
    return out;
  }

  /**
   * Default mode, no change data recorded: the commit's new row images, the live rows of the files it added; a
   * re-added file brings only rows its new deletion vector no longer marks (none after a DELETE or UPDATE).
   */
  static List<Part> newImages(Commit c) {
    Map<String, FileAction> removed = c.removesById();
    List<Part> out = new ArrayList<>();
    for (FileAction add : c.adds) {
      FileAction previous = removed.get(add.id());
      if (previous == null) {
        out.add(new Part(add, null, RowSource.ADDED, false));
      } else if (previous.deletionVector() != null) {
        out.add(new Part(add, previous, RowSource.DELETION_VECTOR_CHANGE, true));
      }
    }
    return out;
  }

  /**
   * readChangeFeed, no change data recorded: every change derived from the files: a removed file's live rows as
   * deletes, an added file's live rows as inserts, a re-added file's rows whose deletion mark changed.
   */
  static List<Part> derivedChanges(Commit c) {
    Map<String, FileAction> removed = c.removesById();
    Map<String, FileAction> readded = new HashMap<>();
    List<Part> out = new ArrayList<>();
    for (FileAction add : c.adds) {
      FileAction previous = removed.get(add.id());
      if (previous == null) {
        out.add(new Part(add, null, RowSource.ADDED, false));
      } else {
        readded.put(add.id(), add);
        out.add(new Part(add, previous, RowSource.DELETION_VECTOR_CHANGE, false));
      }
    }
    for (Part r : removed(c)) {
      if (!readded.containsKey(r.file.id())) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Rows the commit deleted, from file stats and deletion vector cardinalities: live rows of removed files, plus
   * the rows newly marked in re-added files; -1 when a removed file has no stats.
   */
  static long deletedRows(Commit c) {
    Map<String, FileAction> adds = new HashMap<>();
    c.adds.forEach(a -> adds.put(a.id(), a));
    long n = 0;
    for (FileAction r : c.removes) {
      FileAction readd = adds.get(r.id());
      long rows = readd != null ? Math.max(0, cardinality(readd) - cardinality(r)) : r.liveRecords();
      if (rows < 0) {
        return -1;
      }
      n += rows;
    }
    return n;
  }

  private static long cardinality(FileAction f) {
    return f.deletionVector() == null ? 0 : f.deletionVector().cardinality();
  }
}
