package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batch plans: snapshots at any version with hints passed on, and change ranges labelled as streams label them. */
class BatchPlannerTest {
  @TempDir Path tmp;

  private static List<String> rows(PlannerFixture f, BatchPlanner.Plan plan) {
    List<String> out = new ArrayList<>();
    for (WorkUnit u : plan.units()) {
      UnitUrls urls = new UnitUrls(new FileLister(f.client, new TableRef("s", "sc", "t"), null), u);
      try (UnitReader r = UnitReader.open(f.client, u, urls, plan.metadata().schema(), ReadSettings.DEFAULT, 0)) {
        r.forEachRemaining(c -> out.add(c.row().get("id") + ":" + c.changeType() + "@" + u.version()
            + "/" + c.row().get("name")));
      }
    }
    return out;
  }

  private static List<Long> ids(PlannerFixture f, BatchPlanner.Plan plan) {
    return rows(f, plan).stream().map(r -> Long.parseLong(r.substring(0, r.indexOf(':')))).sorted()
        .collect(Collectors.toList());
  }

  @Test
  void snapshotsAreReadLatestAtAVersionOrAsOfAnInstant() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), true)) {
      BatchPlanner.Plan latest = BatchPlanner.snapshot(f.client, PlannerFixture.T, null, null, null, null, null);
      assertThat(latest.version()).isEqualTo(ChangeMatrix.LATEST);
      assertThat(ids(f, latest)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
      BatchPlanner.Plan v2 = BatchPlanner.snapshot(f.client, PlannerFixture.T, 2L, null, null, null, null);
      assertThat(v2.version()).isEqualTo(2);
      assertThat(ids(f, v2)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
      Instant at3 = Instant.ofEpochMilli(f.table.log().timestamp(3));
      BatchPlanner.Plan asOf = BatchPlanner.snapshot(f.client, PlannerFixture.T, null, at3.plusMillis(1), null, null,
          null);
      assertThat(asOf.version()).isEqualTo(3);
      assertThat(rows(f, asOf)).contains("4:insert@3/x4");
    }
  }

  @Test
  void hintsAndPagingReachTheServer() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      String hint = "{\"op\":\"greaterThan\",\"children\":[{\"op\":\"column\",\"name\":\"id\",\"valueType\":\"long\"},"
          + "{\"op\":\"literal\",\"value\":\"8\",\"valueType\":\"long\"}]}";
      BatchPlanner.Plan pruned = BatchPlanner.snapshot(f.client, PlannerFixture.T, null, null, hint, null, null);
      assertThat(ids(f, pruned)).containsExactly(9L, 10L); // only the last file can hold ids above 8
      f.server.requests().clear();
      BatchPlanner.Plan paged = BatchPlanner.snapshot(f.client, PlannerFixture.T, null, null, null, null, 1);
      assertThat(paged.units()).hasSize(2);
      assertThat(f.server.requests().entries(Endpoint.QUERY)).hasSize(2); // one file per page
      BatchPlanner.Plan limited = BatchPlanner.snapshot(f.client, PlannerFixture.T, null, null, null, 1L, null);
      assertThat(limited.units()).hasSize(1);
    }
  }

  @Test
  void changeRangesAreLabelledAsReadChangeFeedStreamsLabelThem() {
    for (boolean cdf : new boolean[] {true, false}) {
      try (PlannerFixture f = new PlannerFixture(tmp.resolve("t" + cdf), cdf)) {
        BatchPlanner.Plan all = BatchPlanner.changes(f.client, PlannerFixture.T, StreamSettings.defaults(), 1L, null,
            null, null);
        assertThat(ChangeMatrix.canonical(rows(f, all)))
            .isEqualTo(ChangeMatrix.canonical(ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, cdf)));
        Instant t3 = Instant.ofEpochMilli(f.table.log().timestamp(3));
        Instant t4 = Instant.ofEpochMilli(f.table.log().timestamp(4));
        BatchPlanner.Plan middle = BatchPlanner.changes(f.client, PlannerFixture.T, StreamSettings.defaults(), null,
            t3, null, t4);
        assertThat(middle.version()).isEqualTo(4);
        assertThat(rows(f, middle)).allMatch(r -> r.contains("@3/") || r.contains("@4/")).isNotEmpty();
        BatchPlanner.Plan justThree = BatchPlanner.changes(f.client, PlannerFixture.T, StreamSettings.defaults(), 3L,
            null, 3L, null);
        assertThat(rows(f, justThree)).allMatch(r -> r.contains("@3/")).isNotEmpty();
      }
    }
  }
}
