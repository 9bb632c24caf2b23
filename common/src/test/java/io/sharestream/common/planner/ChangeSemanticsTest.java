package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ChangeMatrix;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SPEC §4: which rows flow, for each kind of commit and each mode, with the change data feed on and off. */
class ChangeSemanticsTest {
  @TempDir Path tmp;

  private static final List<String> LAST = List.of("9:insert@7/u9", "10:insert@7/u10");

  /** Versions come in order; within a version rows follow the files' ids, so they are compared as sets. */
  static void assertFlow(List<String> actual, List<String> expected) {
    assertThat(ChangeMatrix.canonical(actual)).isEqualTo(ChangeMatrix.canonical(expected));
  }

  private List<String> run(boolean cdf, Map<String, String> options) {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t" + cdf + options.hashCode()), cdf);
        SharingStreamPlanner p = f.planner(options)) {
      return f.drain(p, p.initialPosition());
    }
  }

  @Test
  void skipChangeCommitsLetsOnlyAppendsFlow() {
    for (boolean cdf : new boolean[] {true, false}) {
      assertFlow(run(cdf, Map.of("startingVersion", "0", "skipChangeCommits", "true")),
          ChangeMatrix.expected(ChangeMatrix.Mode.SKIP_CHANGE_COMMITS, cdf));
    }
  }

  @Test
  void defaultModeEmitsNewRowImagesFromChangeDataWhenRecorded() {
    // v3: only the post-image of id 4; v4 (a delete) has no new image
    assertFlow(run(true, Map.of("startingVersion", "0")), ChangeMatrix.expected(ChangeMatrix.Mode.DEFAULT, true));
  }

  @Test
  void defaultModeEmitsAllRowsOfAddedFilesWithoutChangeData() {
    // v3 rewrote file {3,4,5}; v4 rewrote file {0,1,2} without 0
    assertFlow(run(false, Map.of("startingVersion", "0")), ChangeMatrix.expected(ChangeMatrix.Mode.DEFAULT, false));
  }

  @Test
  void readChangeFeedEmitsEveryChangeFromChangeData() {
    List<String> rows = run(true, Map.of("startingVersion", "1", "readChangeFeed", "true"));
    assertFlow(rows, ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true));
    // within a change data file rows keep file order: the pre-image before the post-image
    assertThat(rows.indexOf("4:update_preimage@3/u4")).isLessThan(rows.indexOf("4:update_postimage@3/x4"));
  }

  @Test
  void readChangeFeedDerivesDeletesAndInsertsWithoutChangeData() {
    // v3: the removed file's rows as deletes, the added file's as inserts (files ordered by id)
    assertFlow(run(false, Map.of("startingVersion", "1", "readChangeFeed", "true")),
        ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, false));
  }

  @Test
  void snapshotStartEmitsTheLatestRowsThenLaterChanges() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("snap"), true);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "snapshot"))) {
      Position start = p.initialPosition();
      assertThat(start.isStartingVersion()).isTrue();
      assertThat(start.tableVersion()).isEqualTo(7);
      List<String> rows = f.drain(p, start);
      assertThat(rows).containsExactlyInAnyOrder("1:insert@7/u1", "2:insert@7/u2", "3:insert@7/u3", "4:insert@7/x4",
          "5:insert@7/u5", "6:insert@7/u6", "7:insert@7/u7", "8:insert@7/u8", "9:insert@7/u9", "10:insert@7/u10");
      f.table.append(PlannerFixture.rows(20, 21)); // 8
      Position[] end = new Position[1];
      PlannerFixture.drain(p, f.client, start, AdmissionLimits.UNLIMITED, end);
      assertThat(f.drain(p, end[0])).isEmpty();
      assertThat(end[0]).isEqualTo(Position.beforeVersion(start.tableId(), 9, false));
    }
  }

  @Test
  void latestStartWaitsForTheNextCommit() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("latest"), false);
        SharingStreamPlanner p = f.planner(Map.of())) {
      Position start = p.initialPosition();
      assertThat(start).isEqualTo(Position.beforeVersion(start.tableId(), 8, false));
      StreamPlanner.Plan nothing = p.plan(start, AdmissionLimits.UNLIMITED);
      assertThat(nothing.units()).isEmpty();
      assertThat(nothing.end()).isEqualTo(start);
      f.table.append(PlannerFixture.rows(20, 22)); // 8
      assertThat(f.drain(p, start)).containsExactly("20:insert@8/u20", "21:insert@8/u21");
    }
  }

  @Test
  void aStartingVersionBeyondTheLatestWaitsInsteadOfFailing() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("future"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "9"))) {
      Position start = p.initialPosition();
      assertThat(p.plan(start, AdmissionLimits.UNLIMITED).end()).isEqualTo(start);
      f.table.append(PlannerFixture.rows(20, 21)); // 8: still before the start
      assertThat(f.drain(p, start)).isEmpty();
      f.table.append(PlannerFixture.rows(30, 31)); // 9
      assertThat(f.drain(p, start)).containsExactly("30:insert@9/u30");
    }
  }

  @Test
  void startingTimestampStartsAtTheFirstVersionCommittedAtOrAfterIt() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("ts"), true)) {
      String at = java.time.Instant.ofEpochMilli(f.table.log().timestamp(7)).toString();
      try (SharingStreamPlanner p = f.planner(Map.of("startingTimestamp", at))) {
        assertThat(p.initialPosition().tableVersion()).isEqualTo(7);
        assertFlow(f.drain(p, p.initialPosition()), LAST);
      }
      String future = java.time.Instant.ofEpochMilli(f.table.log().timestamp(7) + 60_000).toString();
      try (SharingStreamPlanner p = f.planner(Map.of("startingTimestamp", future))) {
        assertThat(p.initialPosition().tableVersion()).isEqualTo(8);
      }
    }
  }

  @Test
  void anAddedColumnWidensTheSchemaAndOlderRowsReadItAsNull() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("widen"), false)) {
      // a planner started before the column was added (read schema without 'score')
      try (SharingStreamPlanner p = f.planner(Map.of("startingVersion", "0", "skipChangeCommits", "true"))) {
        assertThat(p.schema().fieldNames()).containsExactly("id", "name", "score"); // latest at start
        List<WorkUnit> units = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units();
        assertThat(units).isNotEmpty();
      }
    }
  }
}
