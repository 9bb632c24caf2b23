package io.sharestream.common.deletionvectors;

/**
 * Which rows of a data file a reader returns, by physical row index (counted from 0 over the whole file): all of
 * them, all but a deletion vector's, or only a given set (rows whose deletion changed between two vectors).
 */
public final class RowSelection {
  /** Every row. */
  public static final RowSelection ALL = new RowSelection(RowIndexSet.EMPTY, false);

  private final RowIndexSet rows;
  private final boolean only;

  private RowSelection(RowIndexSet rows, boolean only) {
    this.rows = rows;
    this.only = only;
  }

  /** Every row but {@code deleted}. */
  public static RowSelection excluding(RowIndexSet deleted) {
    return deleted.isEmpty() ? ALL : new RowSelection(deleted, false);
  }

  /** Only {@code rows}. */
  public static RowSelection only(RowIndexSet rows) {
    return new RowSelection(rows, true);
  }

  public boolean selects(long row) {
    return only == rows.contains(row);
  }

  /** Rows of {@code [from, to)} selected. */
  public long count(long from, long to) {
    long marked = rows.count(from, to);
    return only ? marked : to - from - marked;
  }

  /**
   * The selected rows of {@code [first, first + n)} as offsets from {@code first}, ascending, into {@code out}
   * (at least {@code n} long); returns how many. Walks the marked rows only, not every row.
   */
  public int selected(long first, int n, int[] out) {
    int count = 0;
    long end = first + n;
    if (only) {
      for (long r = rows.next(first); r >= 0 && r < end; r = rows.next(r + 1)) {
        out[count++] = (int) (r - first);
      }
      return count;
    }
    long from = first;
    for (long r = rows.next(first); r >= 0 && r < end; r = rows.next(r + 1)) {
      for (long i = from; i < r; i++) {
        out[count++] = (int) (i - first);
      }
      from = r + 1;
    }
    for (long i = from; i < end; i++) {
      out[count++] = (int) (i - first);
    }
    return count;
  }

  /** Whether no row can be selected (without reading the file). */
  public boolean selectsNothing() {
    return only && rows.isEmpty();
  }

  /** Whether every row is selected. */
  public boolean selectsAll() {
    return !only && rows.isEmpty();
  }

  /** The rows marked: excluded ones, or with {@link #only} the selected ones. */
  public RowIndexSet rows() {
    return rows;
  }

  @Override
  public String toString() {
    return selectsAll() ? "all rows" : (only ? "only " : "all but ") + rows.cardinality() + " rows";
  }
}
