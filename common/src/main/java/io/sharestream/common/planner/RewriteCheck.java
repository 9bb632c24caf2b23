package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.types.Row;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a commit derived from two snapshots kept the table's rows: files a snapshot reads from a checkpoint all
 * say {@code dataChange=false}, so an OPTIMIZE cannot be told from an UPDATE by its files alone. The live rows of
 * the removed files and of the added ones are compared as multisets, by an order-independent digest (count, sum and
 * sum of squares of 64-bit row hashes): equal for a rewrite, different for any change of data.
 */
final class RewriteCheck {
  private RewriteCheck() {}

  static boolean keepsRows(DeltaSharingClient client, FileLister lister, List<WorkUnit> removed,
      List<WorkUnit> added, ReadSettings read) {
    return Arrays.equals(digest(client, lister, removed, read), digest(client, lister, added, read));
  }

  private static long[] digest(DeltaSharingClient client, FileLister lister, List<WorkUnit> units,
      ReadSettings read) {
    long[] d = new long[3];
    for (WorkUnit u : units) {
      try (UnitReader r = UnitReader.open(client, u, new UnitUrls(lister, u), u.schema(), read, 0)) {
        while (r.hasNext()) {
          long h = mix(hash(r.next().row()));
          d[0]++;
          d[1] += h;
          d[2] += h * h;
        }
      }
    }
    return d;
  }

  private static long hash(Row row) {
    long h = 1;
    for (int i = 0; i < row.size(); i++) {
      Object v = row.get(i);
      int one = v instanceof Row ? (int) hash((Row) v) : Arrays.deepHashCode(new Object[] {v});
      h = h * 1_000_003L + one;
    }
    return h;
  }

  /** The splitmix64 finalizer: spreads a hash over all 64 bits. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
