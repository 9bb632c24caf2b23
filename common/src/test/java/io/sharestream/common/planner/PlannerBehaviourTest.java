package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.errors.HistoryNotSharedException;
import io.sharestream.common.errors.IncompatibleSchemaChangeException;
import io.sharestream.common.errors.InvalidPositionException;
import io.sharestream.common.errors.TableRecreatedException;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.jvm.MovableClock;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.RequestLog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlannerBehaviourTest {
  @TempDir Path tmp;

  private static List<String> ids(List<WorkUnit> units) {
    return units.stream().map(u -> u.version() + "#" + u.index() + ":" + u.file().id()).collect(Collectors.toList());
  }

  @Test
  void filesOfAVersionAreOrderedByIdAndNumbered() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1", "skipChangeCommits", "true"))) {
      List<WorkUnit> v1 = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units().stream()
          .filter(u -> u.version() == 1).collect(Collectors.toList());
      assertThat(v1).extracting(WorkUnit::index).containsExactly(0L, 1L);
      assertThat(v1.get(0).file().id()).isLessThan(v1.get(1).file().id());
    }
  }

  @Test
  void admissionTakesAtMostMaxFilesAndAtLeastOneAndPositionsAdvanceByFileThenVersion() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1", "skipChangeCommits", "true"))) {
      Position start = p.initialPosition();
      StreamPlanner.Plan first = p.plan(start, AdmissionLimits.files(1));
      assertThat(first.units()).hasSize(1);
      assertThat(first.end()).isEqualTo(first.units().get(0).endPosition()); // (1, 0)
      StreamPlanner.Plan second = p.plan(first.end(), AdmissionLimits.files(1));
      assertThat(second.end()).isEqualTo(Position.beforeVersion(start.tableId(), 2, false)); // version 1 done
      StreamPlanner.Plan bytes = p.plan(start, new AdmissionLimits(100, 1)); // 1 byte: still one file
      assertThat(bytes.units()).hasSize(1);
      // the rest: v2, v3/v4 skipped, v5 compaction empty, v6 metadata only, v7
      StreamPlanner.Plan rest = p.plan(second.end(), AdmissionLimits.UNLIMITED);
      assertThat(rest.units()).extracting(WorkUnit::version).containsExactly(2L, 7L);
      assertThat(rest.end()).isEqualTo(Position.beforeVersion(start.tableId(), 8, false));
      assertThat(p.plan(rest.end(), AdmissionLimits.UNLIMITED).units()).isEmpty();
    }
  }

  @Test
  void theBacklogCountsTheListedFilesAndBytesNotYetReadAndIsUnknownForVersionsNotListed() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1", "skipChangeCommits", "true"))) {
      Position start = p.initialPosition();
      assertThat(p.backlog(start)).isNull(); // nothing listed yet
      List<WorkUnit> all = p.plan(start, AdmissionLimits.UNLIMITED).units();
      StreamPlanner.Plan first = p.plan(start, AdmissionLimits.files(1));

      Backlog behind = p.backlog(first.end());
      assertThat(behind.files()).isEqualTo(all.size() - 1);
      assertThat(behind.bytes()).isEqualTo(all.stream().skip(1).mapToLong(u -> u.file().size()).sum());
      assertThat(p.backlog(start).files()).isEqualTo(all.size());
      Position end = p.plan(start, AdmissionLimits.UNLIMITED).end();
      assertThat(p.backlog(end).files()).isZero();
      assertThat(p.backlog(end).bytes()).isZero();
    }
  }

  @Test
  void versionPollsBackOffWhileTheTableIsIdleAndComeBackToTheIntervalOnceItChanges() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      MovableClock clock = new MovableClock();
      VersionPolling polling = VersionPolling.every(Duration.ofSeconds(1)).backingOffUpTo(Duration.ofSeconds(4));
      try (SharingStreamPlanner p = new SharingStreamPlanner(f.client, PlannerFixture.T,
          StreamOptions.parse(Map.of()), polling, clock)) {
        f.server.requests().clear();
        List<Integer> asked = new ArrayList<>(); // the seconds at which the server was asked
        for (int second = 1; second <= 16; second++) {
          clock.advance(Duration.ofSeconds(1));
          int before = f.server.requests().count(Endpoint.VERSION);
          p.latestVersion();
          if (f.server.requests().count(Endpoint.VERSION) > before) {
            asked.add(second);
          }
          if (second == 11) {
            f.table.append(PlannerFixture.rows(100, 101)); // a commit: seen at the next ask, then every second
          }
        }
        assertThat(asked).containsExactly(1, 3, 7, 11, 15, 16);
      }
    }
  }

  @Test
  void aRestartedPlannerPlansTheSameUnitsForTheSameRange() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), true)) {
      Map<String, String> opts = Map.of("startingVersion", "0", "readChangeFeed", "true");
      List<String> before;
      Position start;
      Position end;
      try (SharingStreamPlanner p = f.planner(opts)) {
        start = p.initialPosition();
        StreamPlanner.Plan plan = p.plan(start, AdmissionLimits.files(3));
        end = plan.end();
        before = ids(plan.units());
        assertThat(ids(p.units(start, end))).isEqualTo(before);
      }
      try (SharingStreamPlanner restarted = f.planner(opts)) {
        assertThat(ids(restarted.units(start, end))).isEqualTo(before);
        assertThat(ids(restarted.plan(start, AdmissionLimits.files(3)).units())).isEqualTo(before);
      }
      // a range ending after the last version, as a caught-up plan returns it
      try (SharingStreamPlanner p = f.planner(opts)) {
        StreamPlanner.Plan all = p.plan(start, AdmissionLimits.UNLIMITED);
        assertThat(all.end()).isEqualTo(Position.beforeVersion(start.tableId(), 8, false));
        try (SharingStreamPlanner restarted = f.planner(opts)) {
          assertThat(ids(restarted.units(start, all.end()))).isEqualTo(ids(all.units()));
          assertThat(ids(restarted.units(end, all.end()))).isEqualTo(ids(all.units()).subList(before.size(),
              all.units().size()));
        }
      }
    }
  }

  @Test
  void aPositionInsideAFileResumesThatFileAfterItsRow() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1", "skipChangeCommits", "true"))) {
      WorkUnit first = p.plan(p.initialPosition(), AdmissionLimits.files(1)).units().get(0);
      Position mid = first.rowPosition(0); // row 0 emitted, then the task stopped
      List<WorkUnit> again = p.plan(mid, AdmissionLimits.files(1)).units();
      assertThat(again.get(0).file().id()).isEqualTo(first.file().id());
      List<Long> rows = new ArrayList<>();
      try (UnitReader r = UnitReader.open(f.client, again.get(0), p.urls(again.get(0)), p.schema(),
          ReadSettings.DEFAULT, mid.row() + 1)) {
        r.forEachRemaining(c -> rows.add(c.rowIndex()));
      }
      assertThat(rows).containsExactly(1L, 2L);
    }
  }

  @Test
  void changeDataFilesOfOneVersionAreAdmittedTogether() {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("part", DeltaType.STRING));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("p"), schema).partitionedBy("part").changeDataFeed(true)
        .commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 6; i++) {
      rows.add(new java.util.HashMap<>(Map.of("id", i, "part", "p" + (i % 3))));
    }
    t.append(rows); // 1: three partitions
    t.updateWhere(r -> true, r -> r); // 2: three cdc files, one per partition
    try (io.sharestream.testkit.server.DeltaSharingServer server = io.sharestream.testkit.server.DeltaSharingServer
        .builder().table("s", "sc", "t", t.dir(), true).start()) {
      io.sharestream.common.client.DeltaSharingClient client = new io.sharestream.common.client.DeltaSharingClient(
          io.sharestream.common.profile.DeltaSharingProfile.fromJson(server.profileJson()),
          io.sharestream.common.client.ClientSettings.DEFAULT);
      try (SharingStreamPlanner p = new SharingStreamPlanner(client, PlannerFixture.T,
          StreamOptions.parse(Map.of("startingVersion", "2", "readChangeFeed", "true")), Duration.ZERO,
          Clock.systemUTC())) {
        StreamPlanner.Plan plan = p.plan(p.initialPosition(), AdmissionLimits.files(1));
        assertThat(plan.units()).hasSize(3).allSatisfy(u -> {
          assertThat(u.source()).isEqualTo(WorkUnit.RowSource.CHANGE_DATA);
          assertThat(u.version()).isEqualTo(2);
        });
        assertThat(plan.end()).isEqualTo(Position.beforeVersion(p.metadata().id(), 3, false));
      }
    }
  }

  @Test
  void urlsCloseToExpiryAreRefreshedBeforeTheyAreHandedOut() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      f.server.faults().urlTtl(Duration.ofSeconds(30));
      try (SharingStreamPlanner p = new SharingStreamPlanner(f.client, PlannerFixture.T,
          StreamOptions.parse(Map.of("startingVersion", "1", "skipChangeCommits", "true"))
              .withUrlRefreshMargin(Duration.ofSeconds(20)), Duration.ZERO, Clock.systemUTC())) {
        Position start = p.initialPosition();
        List<WorkUnit> first = p.plan(start, AdmissionLimits.UNLIMITED).units();
        int queries = f.server.requests().count(Endpoint.QUERY);
        // fresh URLs (30 s left, 20 s margin) are handed out as listed
        assertThat(first).allSatisfy(u -> assertThat(u.file().expirationTimestamp())
            .isGreaterThan(System.currentTimeMillis() + 20_000));
        // a planner whose margin exceeds the lifetime refreshes, keeping ids and order
        try (SharingStreamPlanner eager = new SharingStreamPlanner(f.client, PlannerFixture.T,
            StreamOptions.parse(Map.of("startingVersion", "1", "skipChangeCommits", "true"))
                .withUrlRefreshMargin(Duration.ofSeconds(40)), Duration.ZERO, Clock.systemUTC())) {
          f.server.requests().clear();
          List<WorkUnit> refreshed = eager.plan(start, AdmissionLimits.UNLIMITED).units();
          assertThat(ids(refreshed)).isEqualTo(ids(first));
          assertThat(f.server.requests().count(Endpoint.QUERY)).as("listing + one refresh of the same window")
              .isEqualTo(2);
          assertThat(refreshed).allSatisfy(u -> assertThat(u.file().url())
              .isNotEqualTo(first.stream().filter(x -> x.file().id().equals(u.file().id())).findFirst().get()
                  .file().url()));
          List<RequestLog.Entry> queriesSeen = f.server.requests().entries(Endpoint.QUERY);
          assertThat(queriesSeen).hasSize(2);
        }
        assertThat(queries).isPositive();
      }
    }
  }

  @Test
  void aRecreatedTableIsReportedNotMixed() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1"))) {
      Position start = p.initialPosition();
      DeltaTableWriter again = DeltaTableWriter.create(tmp.resolve("t2"), PlannerFixture.SCHEMA).commit();
      again.append(PlannerFixture.rows(0, 20));
      again.append(PlannerFixture.rows(0, 20));
      f.server.tables().relocate("s.sc.t", again.dir());
      assertThatThrownBy(() -> p.plan(start, AdmissionLimits.UNLIMITED)).isInstanceOf(TableRecreatedException.class)
          .hasMessageContaining("was recreated").hasMessageContaining("delete the checkpoint/offsets");
      try (SharingStreamPlanner fresh = f.planner(Map.of())) {
        assertThatThrownBy(() -> fresh.plan(start, AdmissionLimits.UNLIMITED))
            .isInstanceOf(TableRecreatedException.class).hasMessageContaining(start.tableId());
      }
    }
  }

  @Test
  void anIncompatibleSchemaChangeStopsTheStreamWithWhatToDo() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of())) {
      Position start = p.initialPosition();
      f.table.replaceSchema(DeltaType.struct(DeltaType.field("id", DeltaType.STRING, false),
          DeltaType.field("name", DeltaType.STRING), DeltaType.field("score", DeltaType.DOUBLE)));
      assertThatThrownBy(() -> p.plan(start, AdmissionLimits.UNLIMITED))
          .isInstanceOf(IncompatibleSchemaChangeException.class).hasMessageContaining("'id' changed type")
          .hasMessageContaining("Restart the stream");
    }
  }

  @Test
  void anAdditiveSchemaChangeContinuesWithAWiderSchema() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of())) {
      Position start = p.initialPosition();
      f.table.addColumn(DeltaType.field("extra", DeltaType.STRING)); // 8
      List<Map<String, Object>> rows = PlannerFixture.rows(50, 51);
      rows.get(0).put("extra", "e");
      f.table.append(rows); // 9
      List<WorkUnit> units = p.plan(start, AdmissionLimits.UNLIMITED).units();
      assertThat(p.schema().fieldNames()).containsExactly("id", "name", "score", "extra");
      assertThat(units).hasSize(1);
      assertThat(units.get(0).schema().fieldNames()).contains("extra");
    }
  }

  @Test
  void tablesWithoutHistoryAreRefusedAtStartWithTheFix() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      f.server.tables().add("s", "sc", "nohistory", f.table.dir(), false);
      assertThatThrownBy(() -> new SharingStreamPlanner(f.client, new io.sharestream.common.profile.TableRef("s",
          "sc", "nohistory"), StreamSettings.defaults(), Duration.ZERO, Clock.systemUTC()))
          .isInstanceOf(HistoryNotSharedException.class).hasMessageContaining("WITH HISTORY");
    }
  }

  @Test
  void eachRequestCoversAtMostVersionsPerRequest() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "0", "maxVersionsPerRpc", "3",
            "skipChangeCommits", "true"))) {
      f.server.requests().clear();
      PlannerFixture.drain(p, f.client, p.initialPosition(), AdmissionLimits.UNLIMITED, null);
      // versions 0..7 in windows [0,2] [3,5] [6,7]
      assertThat(f.server.requests().count(Endpoint.QUERY)).isEqualTo(3);
    }
  }

  @Test
  void versionPollsAreRateLimited() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = new SharingStreamPlanner(f.client, PlannerFixture.T, StreamSettings.defaults(),
            Duration.ofHours(1), Clock.systemUTC())) {
      f.server.requests().clear();
      for (int i = 0; i < 5; i++) {
        p.latestVersion();
      }
      assertThat(f.server.requests().count(Endpoint.VERSION)).isZero();
    }
  }

  @Test
  void aUrlExpiringDuringALongReadIsRefreshedByRelistingItsWindow() throws Exception {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("pad", DeltaType.STRING));
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("slow"), schema).rowGroupBytes(16 * 1024).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    java.util.Random random = new java.util.Random(7);
    for (long i = 0; i < 6000; i++) { // ~300 KB in ~18 row groups: one range request each
      rows.add(new java.util.HashMap<>(Map.of("id", i, "pad", Long.toHexString(random.nextLong())
          + Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()))));
    }
    t.append(rows);
    try (io.sharestream.testkit.server.DeltaSharingServer server = io.sharestream.testkit.server.DeltaSharingServer
        .builder().table("s", "sc", "t", t.dir(), true).start()) {
      io.sharestream.common.client.DeltaSharingClient client = new io.sharestream.common.client.DeltaSharingClient(
          io.sharestream.common.profile.DeltaSharingProfile.fromJson(server.profileJson()),
          io.sharestream.common.client.ClientSettings.DEFAULT);
      server.faults().urlTtl(Duration.ofSeconds(1)); // every URL lives one second
      server.faults().slowStorage(Duration.ofMillis(100)); // and the file takes longer than that to read
      try (SharingStreamPlanner p = new SharingStreamPlanner(client, PlannerFixture.T,
          StreamOptions.parse(Map.of("startingVersion", "1")).withUrlRefreshMargin(Duration.ZERO), Duration.ZERO,
          Clock.systemUTC())) {
        WorkUnit u = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units().get(0);
        long count = 0;
        long last = -1;
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), p.schema(), ReadSettings.DEFAULT, 0)) {
          while (r.hasNext()) {
            ChangeRow c = r.next();
            assertThat(c.rowIndex()).isEqualTo(last + 1);
            last = c.rowIndex();
            count++;
          }
        }
        assertThat(count).isEqualTo(6000);
        assertThat(server.requests().entries(Endpoint.STORAGE).stream().filter(e -> e.status == 403))
            .as("the URL expired mid-read and was refreshed").isNotEmpty();
      }
    }
  }

  @Test
  void snapshotStartWithReadChangeFeedLabelsSnapshotRowsAsInsertsOfThatVersion() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), true);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "snapshot", "readChangeFeed", "true"))) {
      List<WorkUnit> units = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units();
      assertThat(units).isNotEmpty().allSatisfy(u -> {
        assertThat(u.isStartingVersion()).isTrue();
        assertThat(u.version()).isEqualTo(7);
        assertThat(u.commitTimestamp()).isEqualTo(f.table.log().timestamp(7));
        assertThat(u.changeType(null)).isEqualTo(ChangeTypes.INSERT);
      });
    }
  }

  /** The snapshot's version is a metadata-only commit (its files were written earlier): rows carry its commit time. */
  @Test
  void snapshotStartAtAMetadataOnlyVersionStampsRowsWithThatVersionsCommitTime() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), true)) {
      long v = f.table.setProperty("delta.appendOnly", "false"); // 8: no file changes
      try (SharingStreamPlanner p = f.planner(Map.of("startingVersion", "snapshot", "readChangeFeed", "true"))) {
        assertThat(p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units()).isNotEmpty().allSatisfy(u -> {
          assertThat(u.version()).isEqualTo(v);
          assertThat(u.commitTimestamp()).isEqualTo(f.table.log().timestamp(v));
        });
      }
    }
    DeltaTableWriter mapped = DeltaTableWriter.create(tmp.resolve("mapped"), ChangeMatrix.SCHEMA)
        .columnMapping("name").commit();
    mapped.append(ChangeMatrix.rows(0, 4), 2); // 1
    long renamed = mapped.renameColumn("name", "label"); // 2: a RENAME, answered in the delta format
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", mapped.dir(), true).start();
        DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
            ClientSettings.DEFAULT);
        SharingStreamPlanner p = new SharingStreamPlanner(client, new TableRef("s", "sc", "t"),
            StreamOptions.parse(Map.of("startingVersion", "snapshot")), Duration.ZERO, Clock.systemUTC())) {
      assertThat(p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units()).hasSize(2).allSatisfy(u ->
          assertThat(u.commitTimestamp()).isEqualTo(mapped.log().timestamp(renamed)));
    }
  }

  @Test
  void smallBatchesReadOnFromTheListedWindowInsteadOfListingAgain() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1", "skipChangeCommits", "true"))) {
      Position pos = p.initialPosition();
      f.server.requests().clear();
      int batches = 0;
      for (StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.files(1)); !plan.end().equals(pos);
          plan = p.plan(pos, AdmissionLimits.files(1))) {
        pos = plan.end();
        batches++;
      }
      assertThat(batches).isGreaterThanOrEqualTo(4); // 5 files, one per batch
      assertThat(f.server.requests().count(Endpoint.QUERY)).isEqualTo(1);
    }
  }

  @Test
  void workUnitsSurviveJavaSerializationForShippingToExecutors() throws Exception {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), true);
        SharingStreamPlanner p = f.planner(Map.of("startingVersion", "1", "readChangeFeed", "true"))) {
      for (WorkUnit u : p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units()) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
          out.writeObject(u);
        }
        WorkUnit back;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
            new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
          back = (WorkUnit) in.readObject();
        }
        assertThat(back.endPosition()).isEqualTo(u.endPosition());
        assertThat(back.file().url()).isEqualTo(u.file().url());
        assertThat(back.file().partitionValues()).isEqualTo(u.file().partitionValues());
        assertThat(back.schema()).isEqualTo(u.schema());
        assertThat(back.fetch()).isEqualTo(u.fetch());
        assertThat(back.source()).isEqualTo(u.source());
      }
    }
  }
}
