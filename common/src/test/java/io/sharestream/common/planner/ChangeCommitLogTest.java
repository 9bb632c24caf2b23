package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §4, default mode: a change commit's deletes are not emitted, so its one log line counts them, whether or not
 * the commit recorded change data: from deletion vector cardinalities and file stats, "unknown" (never 0) when the
 * removed files came without row counts.
 */
class ChangeCommitLogTest {
  @TempDir Path tmp;
  final ServedTables served = new ServedTables();

  @AfterEach
  void stop() {
    served.close();
  }

  /** Streams {@code table} from version 0 in default mode; the line logged for {@code version}. */
  private String logOf(DeltaTableWriter table, long version) {
    DeltaSharingClient client = served.serve(table, true);
    try (SharingStreamPlanner p = ServedTables.planner(client, StreamOptions.parse(Map.of("startingVersion", "0")))) {
      PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.UNLIMITED, null);
      return p.changeCommitLog(version);
    }
  }

  /** Ten rows in one file (1), then rows 0, 3, 6 and 9 deleted by a deletion vector (2). */
  private DeltaTableWriter deletedByVector(String name, boolean cdf) {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve(name), ChangeMatrix.SCHEMA).deletionVectors(true)
        .changeDataFeed(cdf).commit();
    t.append(ChangeMatrix.rows(0, 10));
    t.deleteWhere(r -> (Long) r.get("id") % 3 == 0);
    return t;
  }

  @Test
  void theDeletesOfAChangeCommitWithChangeDataAreCounted() {
    // an UPDATE with deletion vectors records change data (a DELETE with them does not, as in Delta): its rows 0, 3,
    // 6 and 9 are marked in the re-added file; the change data tells which were deleted, up to those 4
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("cdf"), ChangeMatrix.SCHEMA).deletionVectors(true)
        .changeDataFeed(true).commit();
    t.append(ChangeMatrix.rows(0, 10));
    t.updateWhere(r -> (Long) r.get("id") % 3 == 0, r -> {
      r.put("name", "x" + r.get("id"));
      return r;
    });
    assertThat(logOf(t, 2))
        .startsWith("Change commit 2 of s.sc.t removed 1 file and added 2 files: emitting its inserted and updated "
            + "rows from the change data feed")
        .contains("its deleted rows (at most 4 rows: the live rows of the files it removed) and pre-images are not "
            + "emitted (set readChangeFeed=true");
  }

  @Test
  void theDeletesOfAChangeCommitWithoutChangeDataAreCounted() {
    assertThat(logOf(deletedByVector("plain", false), 2))
        .isEqualTo(logOf(deletedByVector("cdf-not-recorded", true), 2)) // DELETE with vectors: no change data

        .startsWith("Change commit 2 of s.sc.t removed 1 file and added 1 file: emitting the rows it added")
        .contains("its deleted rows (4 rows: the live rows of the files it removed, by file stats and deletion "
            + "vectors) are not emitted");
  }

  @Test
  void deletesNoStatsCountAreUnknownNotZero() {
    // copy-on-write: the removed files come without stats, as from most servers
    for (boolean cdf : new boolean[] {true, false}) {
      String line = logOf(ChangeMatrix.write(tmp.resolve("cow" + cdf), cdf), 4);
      assertThat(line).as("cdf=" + cdf).contains("its deleted rows (unknown: the files it removed came without row "
          + "counts (stats))").doesNotContain("(0 rows");
    }
  }
}
