package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaAction.AddFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A row-level command (DELETE, UPDATE, MERGE) over one snapshot, run as Delta Lake runs it. With deletion vectors on,
 * touched rows are marked in their file's deletion vector (remove of the file with its old DV and add of the same
 * path with old marks plus new ones, or only the remove when no live row is left) and new row images go to new
 * files; otherwise touched files are rewritten (copy-on-write). Change rows go to change data files when the change
 * data feed is on.
 */
final class RowLevelCommand {
  /** What the command does to one live row. */
  static final class Verdict {
    static final Verdict KEEP = new Verdict(false, null);
    static final Verdict DELETE = new Verdict(true, null);

    final boolean touched;
    /** The new image of a touched row; null when it is deleted. */
    final Map<String, Object> replacement;

    private Verdict(boolean touched, Map<String, Object> replacement) {
      this.touched = touched;
      this.replacement = replacement;
    }

    static Verdict replace(Map<String, Object> row) {
      return new Verdict(true, row);
    }
  }

  /** A file re-added with a grown deletion vector, at its place among the actions. */
  private static final class ReAdd {
    final int slot;
    final AddFile file;
    final NavigableSet<Long> marked;

    ReAdd(int slot, AddFile file, NavigableSet<Long> marked) {
      this.slot = slot;
      this.file = file;
      this.marked = marked;
    }
  }

  private final DataFiles files;
  private final Snapshot snapshot;
  private final long now;
  private final boolean inlineDeletionVectors;

  RowLevelCommand(DataFiles files, Snapshot snapshot, long now, boolean inlineDeletionVectors) {
    this.files = files;
    this.snapshot = snapshot;
    this.now = now;
    this.inlineDeletionVectors = inlineDeletionVectors;
  }

  /**
   * The command's actions: {@code verdict} judges each live row; {@code inserts} (asked for after every row was
   * judged) are new rows; {@code changeDataFiles} false leaves out change data files (Delta's DELETE with DVs).
   */
  List<DeltaAction> run(Function<Map<String, Object>, Verdict> verdict, Supplier<List<Map<String, Object>>> inserts,
      boolean changeDataFiles) {
    boolean deletionVectors = snapshot.metadata.deletionVectorsEnabled();
    List<DeltaAction> actions = new ArrayList<>();
    List<Map<String, Object>> changes = new ArrayList<>();
    List<Map<String, Object>> newImages = new ArrayList<>();
    List<ReAdd> reAdds = new ArrayList<>();
    for (AddFile f : snapshot.files()) {
      DataFiles.Rows rows = files.read(snapshot, f);
      List<Map<String, Object>> kept = new ArrayList<>();
      NavigableSet<Long> marked = new TreeSet<>(rows.deleted);
      for (int i = 0; i < rows.all.size(); i++) {
        if (rows.deleted.contains((long) i)) {
          continue;
        }
        Map<String, Object> row = rows.all.get(i);
        Verdict v = verdict.apply(row);
        if (!v.touched) {
          kept.add(row);
          continue;
        }
        marked.add((long) i);
        if (v.replacement == null) {
          changes.add(changeRow(row, "delete"));
        } else {
          changes.add(changeRow(row, "update_preimage"));
          changes.add(changeRow(v.replacement, "update_postimage"));
          (deletionVectors ? newImages : kept).add(v.replacement);
        }
      }
      if (marked.size() == rows.deleted.size()) {
        continue;
      }
      actions.add(f.remove(now, true));
      if (!deletionVectors) {
        for (List<Map<String, Object>> part : files.byPartition(snapshot, kept).values()) {
          actions.add(files.write(snapshot, part, true));
        }
      } else if (marked.size() < rows.all.size()) {
        reAdds.add(new ReAdd(actions.size(), f, marked));
        actions.add(null);
      }
    }
    fillReAdds(actions, reAdds);
    for (Map<String, Object> row : inserts.get()) {
      newImages.add(row);
      changes.add(changeRow(row, "insert"));
    }
    for (List<Map<String, Object>> part : files.byPartition(snapshot, newImages).values()) {
      actions.add(files.write(snapshot, part, true));
    }
    if (changeDataFiles && snapshot.metadata.changeDataFeedEnabled() && !changes.isEmpty()) {
      actions.addAll(files.writeChanges(snapshot, changes));
    }
    return actions;
  }

  /** Writes the commit's deletion vectors (one DV file, or inline) and puts the re-adds in their slots. */
  private void fillReAdds(List<DeltaAction> actions, List<ReAdd> reAdds) {
    if (reAdds.isEmpty()) {
      return;
    }
    List<DeletionVectorDescriptor> dvs = new ArrayList<>();
    if (inlineDeletionVectors) {
      reAdds.forEach(r -> dvs.add(DeletionVectorDescriptor.inline(r.marked)));
    } else {
      List<NavigableSet<Long>> marks = new ArrayList<>();
      reAdds.forEach(r -> marks.add(r.marked));
      try {
        dvs.addAll(DeletionVectorFile.write(files.tableDir(), marks));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write a deletion vector file", e);
      }
    }
    for (int i = 0; i < reAdds.size(); i++) {
      AddFile f = reAdds.get(i).file;
      actions.set(reAdds.get(i).slot, new AddFile(f.path, f.partitionValues, f.size, f.modificationTime, true,
          Stats.looseBounds(f.stats), dvs.get(i)));
    }
  }

  static Map<String, Object> changeRow(Map<String, Object> row, String type) {
    Map<String, Object> r = new LinkedHashMap<>(row);
    r.put(DeltaTableWriter.CHANGE_TYPE, type);
    return r;
  }
}
