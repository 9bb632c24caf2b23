package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.Endpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listings spilled to local disk ({@link SharingStreamPlanner#spillingBeyond}: here beyond one file, so every
 * version of the kit's change matrix with more than one file is spilled) plan and read exactly what listings in the
 * heap do, in every mode, from every position, with URL refreshes and backlogs, and leave no file behind.
 */
class SpilledListingsTest {
  private static final List<Map<String, String>> MODES = List.of(
      Map.of("startingVersion", "0"),
      Map.of("startingVersion", "0", "skipChangeCommits", "true"),
      Map.of("startingVersion", "0", "readChangeFeed", "true"),
      Map.of("startingVersion", "snapshot"),
      Map.of("startingVersion", "snapshot", "readChangeFeed", "true"));

  @TempDir Path tmp;

  private static SharingStreamPlanner spilling(PlannerFixture f, Map<String, String> options) {
    return f.planner(options).spillingBeyond(1);
  }

  private static List<String> units(SharingStreamPlanner p, Position from) {
    return p.units(from, p.plan(from, AdmissionLimits.UNLIMITED).end()).stream()
        .map(u -> u.version() + (u.isStartingVersion() ? "s" : "") + "#" + u.index() + ":" + u.file().id() + "/"
            + u.source() + "@" + u.commitTimestamp())
        .collect(Collectors.toList());
  }

  @Test
  void everyModeReadsTheSameUnitsAndRowsWhetherListingsAreSpilledOrNot() {
    for (boolean cdf : new boolean[] {false, true}) {
      try (PlannerFixture f = new PlannerFixture(tmp.resolve("t" + cdf), cdf)) {
        for (Map<String, String> mode : MODES) {
          for (AdmissionLimits limits : List.of(AdmissionLimits.UNLIMITED, AdmissionLimits.files(1))) {
            try (SharingStreamPlanner heap = f.planner(mode); SharingStreamPlanner disk = spilling(f, mode)) {
              String what = mode + " cdf=" + cdf + " " + limits;
              assertThat(units(disk, disk.initialPosition())).as(what).isEqualTo(units(heap, heap.initialPosition()))
                  .isNotEmpty();
              assertThat(PlannerFixture.drain(disk, f.client, disk.initialPosition(), limits, null)).as(what)
                  .isEqualTo(PlannerFixture.drain(heap, f.client, heap.initialPosition(), limits, null)).isNotEmpty();
            }
          }
        }
      }
    }
  }

  /**
   * Deletion vector commits, from history in the delta format and from a server that refuses it, where history is
   * derived from snapshots (both spilled too), OPTIMIZE recognized by its rows.
   */
  @Test
  void deletionVectorCommitsSpilledReadTheSameAsInTheHeapInEveryModeFromHistoryOrFromSnapshots() {
    for (boolean cdf : new boolean[] {false, true}) {
      DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv" + cdf), cdf, false);
      for (boolean deltaHistory : new boolean[] {true, false}) {
        try (ServedTables served = new ServedTables()) {
          DeltaSharingClient client = served.serve(table, deltaHistory);
          for (Map<String, String> mode : MODES) {
            try (SharingStreamPlanner heap = ServedTables.planner(client, StreamOptions.parse(mode));
                SharingStreamPlanner disk = ServedTables.planner(client, StreamOptions.parse(mode))
                    .spillingBeyond(1)) {
              String what = mode + " cdf=" + cdf + " history in the delta format: " + deltaHistory;
              assertThat(units(disk, disk.initialPosition())).as(what)
                  .isEqualTo(units(heap, heap.initialPosition()));
              assertThat(PlannerFixture.drain(disk, client, disk.initialPosition(), AdmissionLimits.files(1), null))
                  .as(what).isEqualTo(PlannerFixture.drain(heap, client, heap.initialPosition(),
                      AdmissionLimits.UNLIMITED, null)).isNotEmpty();
            }
          }
        }
      }
    }
  }

  @Test
  void snapshotsDiffedBeyondTheHeapLimitAreWalkedFromDiskAndGiveTheSameChanges() throws IOException {
    Path fds = openFiles();
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), false, false);
    try (ServedTables served = new ServedTables()) {
      DeltaSharingClient client = served.serve(table, false);
      long latest = client.tableVersion(ServedTables.T);
      FetchSpec all = FetchSpec.snapshotDiff(1, latest);
      FileLister disk = new FileLister(client, ServedTables.T, null);
      disk.spillBeyond(1);
      long before = openSpills(fds);
      long[] mostOpen = {0};
      List<String> spilled = changes(disk, all, () -> mostOpen[0] = Math.max(mostOpen[0], openSpills(fds) - before));
      assertThat(mostOpen[0]).as("open spills while diffing: the snapshots before and at a version").isEqualTo(2);
      assertThat(openSpills(fds)).isEqualTo(before);
      List<String> inHeap = changes(new FileLister(client, ServedTables.T, null), all, () -> 0L);
      assertThat(spilled).isEqualTo(inHeap).anyMatch(c -> c.contains(" REMOVE ")).anyMatch(c -> c.contains(" ADD "));
    }
  }

  /**
   * A derived window's first version needs the snapshots before and at it: both are asked at once, so the second
   * request reaches the server while the first one's answer is still held back (listed one after the other, it never
   * would), and the changes are the same.
   */
  @Test
  void theTwoSnapshotsAroundADerivedWindowsFirstVersionAreListedAtOnce() throws Exception {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), false, false);
    try (ServedTables served = new ServedTables()) {
      DeltaSharingClient client = served.serve(table, false);
      FetchSpec spec = FetchSpec.snapshotDiff(2, 3);
      List<String> expected = changes(new FileLister(client, ServedTables.T, null), spec, () -> 0L);
      java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
      java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
      served.last().requests().clear();
      served.last().faults().pause(Endpoint.QUERY, 3, held, release);
      FileLister disk = new FileLister(client, ServedTables.T, null);
      disk.spillBeyond(1);
      java.util.concurrent.CompletableFuture<List<String>> listed = java.util.concurrent.CompletableFuture
          .supplyAsync(() -> changes(disk, spec, () -> 0L));
      try {
        assertThat(held.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("an answer held back").isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (served.last().requests().count(Endpoint.QUERY) < 2 && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(served.last().requests().count(Endpoint.QUERY)).as("snapshot requests while one is held back")
            .isEqualTo(2);
      } finally {
        release.countDown();
      }
      assertThat(listed.get(60, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(expected).isNotEmpty();
      assertThat(served.last().requests().count(Endpoint.QUERY)).as("one request per snapshot (1, 2, 3)")
          .isEqualTo(3);
    }
  }

  /** When one of the two snapshots listed at once fails, the other one's spill is closed too, whichever ends first. */
  @Test
  void aFailedSnapshotOfTheTwoListedAtOnceLeavesNoSpillOpen() throws Exception {
    Path fds = openFiles();
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), false, false);
    try (ServedTables served = new ServedTables()) {
      DeltaSharingClient client = served.serve(table, false);
      long before = openSpills(fds);
      for (int round = 0; round < 5; round++) {
        served.last().faults().failWith(Endpoint.QUERY, 1, 403); // the first snapshot asked, not retried
        FileLister disk = spillingEverySnapshot(client);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> changes(disk, FetchSpec.snapshotDiff(2, 3),
            () -> 0L)).hasMessageContaining("403");
        awaitNoSnapshotLister("after round " + round);
        assertThat(openSpills(fds)).as("spills open after round " + round).isEqualTo(before);
      }
    }
  }

  /** The lines a listing gives, sorted within each version (the order a diff emits them in is its own). */
  private static List<String> changes(FileLister lister, FetchSpec spec, java.util.concurrent.Callable<Long> probe) {
    List<String> out = new ArrayList<>();
    lister.list(spec, m -> { }, a -> {
      try {
        probe.call();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      if (a instanceof io.sharestream.common.model.FileAction) {
        io.sharestream.common.model.FileAction f = (io.sharestream.common.model.FileAction) a;
        out.add(f.version() + " " + f.kind() + " " + f.id() + " " + f.timestamp() + " "
            + (f.deletionVector() == null ? "-" : f.deletionVector().stableKey()));
      }
    });
    out.sort(java.util.Comparator.comparing((String c) -> Long.parseLong(c.substring(0, c.indexOf(' '))))
        .thenComparing(c -> c));
    return out;
  }

  @Test
  void aPlannerRestartedAtAnyPositionInsideASpilledVersionReadsExactlyTheRest() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      long version = f.table.appendCopies(Samples.orders(0, 1), 12); // one version of 12 files
      for (Map<String, String> mode : List.of(Map.of("startingVersion", "snapshot"),
          Map.of("startingVersion", String.valueOf(version)))) {
        List<Position> positions = new ArrayList<>();
        List<String> all = new ArrayList<>();
        try (SharingStreamPlanner p = spilling(f, mode)) {
          Position pos = p.initialPosition();
          positions.add(pos);
          for (StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.files(1)); !plan.end().equals(pos);
              plan = p.plan(pos, AdmissionLimits.files(1))) {
            plan.units().forEach(u -> all.add(u.version() + "#" + u.index() + ":" + u.file().id()));
            pos = plan.end();
            positions.add(pos);
          }
        }
        assertThat(all).as("%s: every file once, in order", mode).hasSizeGreaterThanOrEqualTo(12)
            .doesNotHaveDuplicates();
        for (int i = 0; i < positions.size(); i++) {
          try (SharingStreamPlanner restarted = spilling(f, mode)) {
            List<String> rest = restarted.plan(positions.get(i), AdmissionLimits.UNLIMITED).units().stream()
                .map(u -> u.version() + "#" + u.index() + ":" + u.file().id()).collect(Collectors.toList());
            assertThat(rest).as("%s restarted at %s", mode, positions.get(i)).isEqualTo(all.subList(i, all.size()));
          }
        }
      }
    }
  }

  @Test
  void theBacklogOfSpilledVersionsIsWhatTheHeapPlannerCounts() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      f.table.appendCopies(Samples.orders(0, 1), 7);
      Map<String, String> mode = Map.of("startingVersion", "snapshot");
      try (SharingStreamPlanner heap = f.planner(mode); SharingStreamPlanner disk = spilling(f, mode)) {
        Position pos = disk.initialPosition();
        heap.plan(pos, AdmissionLimits.UNLIMITED);
        disk.plan(pos, AdmissionLimits.UNLIMITED);
        for (int i = 0; i < 10; i++) {
          Backlog expected = heap.backlog(pos);
          Backlog actual = disk.backlog(pos);
          assertThat(actual.files()).as("at %s", pos).isEqualTo(expected.files());
          assertThat(actual.bytes()).as("at %s", pos).isEqualTo(expected.bytes());
          pos = disk.plan(pos, AdmissionLimits.files(1)).end();
        }
        assertThat(disk.backlog(disk.initialPosition()).files()).as("the snapshot's files, 7 of them copies")
            .isGreaterThan(7).isEqualTo(heap.backlog(heap.initialPosition()).files());
      }
    }
  }

  @Test
  void aSpilledWindowWhoseUrlsExpireIsListedAgainWholeOnceAndKeepsItsFilesInOrder() {
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      f.table.appendCopies(Samples.orders(0, 1), 9);
      f.server.faults().urlTtl(Duration.ofSeconds(30));
      Map<String, String> mode = Map.of("startingVersion", "snapshot");
      try (SharingStreamPlanner heap = f.planner(mode);
          SharingStreamPlanner eager = new SharingStreamPlanner(f.client, PlannerFixture.T, StreamOptions.parse(mode)
              .withUrlRefreshMargin(Duration.ofSeconds(40)), Duration.ZERO, Clock.systemUTC()).spillingBeyond(1)) {
        List<WorkUnit> listed = heap.plan(heap.initialPosition(), AdmissionLimits.UNLIMITED).units();
        f.server.requests().clear();
        List<WorkUnit> refreshed = eager.plan(eager.initialPosition(), AdmissionLimits.files(5)).units();
        assertThat(f.server.requests().count(Endpoint.QUERY))
            .as("the snapshot listed, its commit time asked once, the snapshot listed again once").isEqualTo(3);
        assertThat(refreshed).extracting(u -> u.file().id())
            .isEqualTo(listed.subList(0, 5).stream().map(u -> u.file().id()).collect(Collectors.toList()));
        assertThat(refreshed).allSatisfy(u -> assertThat(u.file().url()).isNotEqualTo(
            listed.get((int) u.index()).file().url()));
        // the next batch reads on from the window listed again (its URLs are as fresh): one more listing, not two
        f.server.requests().clear();
        eager.plan(refreshed.get(4).endPosition(), AdmissionLimits.files(5));
        assertThat(f.server.requests().count(Endpoint.QUERY)).isEqualTo(1);
      }
    }
  }

  @Test
  void aSpilledWindowDerivedFromSnapshotsWhoseUrlsExpireIsListedAgainWholeAndKeepsItsFilesInOrder() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), false, false);
    try (ServedTables served = new ServedTables()) {
      DeltaSharingClient client = served.serve(table, false); // history derived from snapshots
      served.last().faults().urlTtl(Duration.ofSeconds(30));
      Map<String, String> mode = Map.of("startingVersion", "1");
      try (SharingStreamPlanner heap = ServedTables.planner(client, StreamOptions.parse(mode));
          SharingStreamPlanner eager = ServedTables.planner(client, StreamOptions.parse(mode)
              .withUrlRefreshMargin(Duration.ofSeconds(40))).spillingBeyond(1)) {
        List<WorkUnit> listed = heap.plan(heap.initialPosition(), AdmissionLimits.UNLIMITED).units();
        List<WorkUnit> refreshed = eager.plan(eager.initialPosition(), AdmissionLimits.UNLIMITED).units();
        assertThat(refreshed).extracting(u -> u.version() + "#" + u.index() + ":" + u.file().id())
            .isEqualTo(listed.stream().map(u -> u.version() + "#" + u.index() + ":" + u.file().id())
                .collect(Collectors.toList()))
            .hasSizeGreaterThan(3);
        Map<String, String> firstUrls = listed.stream()
            .collect(Collectors.toMap(u -> u.version() + "#" + u.index(), u -> u.file().url()));
        assertThat(refreshed).as("listed again: every URL fresh")
            .allSatisfy(u -> assertThat(u.file().url()).isNotEqualTo(firstUrls.get(u.version() + "#" + u.index())));
      }
    }
  }

  @Test
  void spillFilesAreGoneOnceTheirWindowsAreDroppedAndThePlannerIsClosed() throws IOException {
    Path fds = openFiles();
    try (PlannerFixture f = new PlannerFixture(tmp.resolve("t"), false)) {
      f.table.appendCopies(Samples.orders(0, 1), 5);
      long before = openSpills(fds);
      Map<String, String> mode = Map.of("startingVersion", "0", "maxVersionsPerRpc", "1");
      try (SharingStreamPlanner p = spilling(f, mode)) {
        PlannerFixture.drain(p, f.client, p.initialPosition(), AdmissionLimits.UNLIMITED, null);
        assertThat(openSpills(fds) - before).as("open spills: at most one per cached window")
            .isPositive().isLessThanOrEqualTo(4);
      }
      assertThat(openSpills(fds)).isEqualTo(before);
    }
  }

  /** A listing of the two snapshots interrupted (an engine stopping) ends as cancelled and leaves nothing behind. */
  @Test
  void anInterruptedListingOfTheTwoSnapshotsIsCancelledAndLeavesNoSpillOpen() throws Exception {
    Path fds = openFiles();
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), false, false);
    try (ServedTables served = new ServedTables()) {
      DeltaSharingClient client = served.serve(table, false);
      long before = openSpills(fds);
      java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(2);
      java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
      served.last().faults().pause(Endpoint.QUERY, 3, held, release).pause(Endpoint.QUERY, 3, held, release);
      FileLister disk = spillingEverySnapshot(client);
      RuntimeException[] failure = {null};
      Thread caller = new Thread(() -> {
        try {
          changes(disk, FetchSpec.snapshotDiff(2, 3), () -> 0L);
        } catch (RuntimeException e) {
          failure[0] = e;
        }
      });
      caller.start();
      try {
        assertThat(held.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("both answers held back").isTrue();
        caller.interrupt();
      } finally {
        release.countDown();
      }
      caller.join(60_000);
      assertThat(failure[0]).isInstanceOf(io.sharestream.common.errors.CancelledException.class);
      awaitNoSnapshotLister("after the interrupt");
      assertThat(openSpills(fds)).isEqualTo(before);
    }
  }

  /** A lister of the kit's table that spills every snapshot it lists to disk. */
  private static FileLister spillingEverySnapshot(DeltaSharingClient client) {
    FileLister lister = new FileLister(client, ServedTables.T, null);
    lister.spillBeyond(0);
    return lister;
  }

  /**
   * Waits (a minute at most) for the snapshot listed on a thread of its own to end (at its next line, or its request's
   * answer), then asserts none is left.
   */
  private static void awaitNoSnapshotLister(String when) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (snapshotListers() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(snapshotListers()).as("snapshot threads " + when).isZero();
  }

  private static long snapshotListers() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("sharestream-snapshot-"))
        .count();
  }

  /** This process's open files (Linux), for {@link #openSpills}; the test is skipped elsewhere. */
  private static Path openFiles() {
    Path fds = Paths.get("/proc/self/fd");
    assumeTrue(Files.isDirectory(fds), "counts open files through /proc (Linux)");
    return fds;
  }

  private static long openSpills(Path fds) {
    try (Stream<Path> s = Files.list(fds)) {
      return s.filter(fd -> {
        try {
          return Files.readSymbolicLink(fd).toString().contains("sharestream-files-");
        } catch (IOException e) {
          return false; // closed meanwhile
        }
      }).count();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
