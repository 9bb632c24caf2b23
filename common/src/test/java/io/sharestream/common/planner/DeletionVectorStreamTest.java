package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.InvalidDeletionVectorException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeletionVectorDescriptor;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.RequestLog;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC §4b over a table with deletion vectors (the kit's {@link DeletionVectorMatrix}: DELETEs that re-add files with
 * growing vectors, an UPDATE, a whole-file DELETE, OPTIMIZE), served in the delta format by a server that answers
 * history (as Databricks does) and by one that refuses it (as the reference server does): every mode's rows, exact
 * snapshots, resumes across vector changes, each vector fetched once, URL refreshes, and corrupt vectors.
 */
class DeletionVectorStreamTest {
  static final TableRef T = ServedTables.T;
  @TempDir Path tmp;
  final ServedTables served = new ServedTables();

  @AfterEach
  void stop() {
    served.close();
  }

  private DeltaSharingClient serve(DeltaTableWriter table, boolean history) {
    return served.serve(table, history);
  }

  private static SharingStreamPlanner planner(DeltaSharingClient client, Map<String, String> options) {
    return ServedTables.planner(client, StreamOptions.parse(options));
  }

  private static Map<String, String> options(ChangeMatrix.Mode mode, String... more) {
    Map<String, String> o = new java.util.HashMap<>(mode.options);
    for (int i = 0; i < more.length; i += 2) {
      o.put(more[i], more[i + 1]);
    }
    return o;
  }

  @Test
  void everyModeEmitsExactlyTheRowsOfTheMatrixWhetherTheServerAnswersHistoryOrNot() {
    for (boolean cdf : new boolean[] {true, false}) {
      for (boolean inline : new boolean[] {false, true}) {
        DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("t" + cdf + inline), cdf, inline);
        for (boolean history : new boolean[] {true, false}) {
          DeltaSharingClient client = serve(table, history);
          for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
            List<String> expected = DeletionVectorMatrix.expected(mode, cdf);
            if (!history && cdf && mode == ChangeMatrix.Mode.READ_CHANGE_FEED) {
              // snapshots carry no change data files: the UPDATE is derived (delete + insert), as without CDF
              expected = DeletionVectorMatrix.expected(mode, false);
            }
            if (!history && cdf && mode == ChangeMatrix.Mode.DEFAULT) {
              expected = DeletionVectorMatrix.expected(mode, false);
            }
            try (SharingStreamPlanner p = planner(client, options(mode, "startingVersion", "1"))) {
              List<String> flow = PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.files(2),
                  null);
              assertThat(ChangeMatrix.canonical(flow)).as("cdf=%s inline=%s history=%s %s", cdf, inline, history,
                  mode).isEqualTo(ChangeMatrix.canonical(expected));
            }
          }
        }
      }
    }
  }

  @Test
  void snapshotsHoldExactlyTheLiveRowsAtEveryVersion() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("snapshots"), true, false);
    DeltaSharingClient client = serve(table, false);
    for (long v = 1; v <= DeletionVectorMatrix.LATEST; v++) {
      BatchPlanner.Plan plan = BatchPlanner.snapshot(client, T, v, null, null, null, null);
      List<String> rows = new ArrayList<>();
      for (WorkUnit u : plan.units()) {
        try (UnitReader r = UnitReader.open(client, u, new UnitUrls(new FileLister(client, T, null), u),
            plan.metadata().schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> rows.add(c.row().get("id") + "/" + c.row().get("name")));
        }
      }
      assertThat(rows.stream().sorted().collect(Collectors.toList())).as("version %d", v)
          .isEqualTo(DeletionVectorMatrix.rowsAt(v).stream().sorted().collect(Collectors.toList()));
    }
    // a stream started with the snapshot reads the latest live rows, then nothing more
    try (SharingStreamPlanner p = planner(client, Map.of("startingVersion", "snapshot"))) {
      List<String> flow = PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.UNLIMITED, null);
      assertThat(flow.stream().map(f -> f.replaceAll(":insert@8", "")).sorted().collect(Collectors.toList()))
          .isEqualTo(DeletionVectorMatrix.rowsAt(8).stream().sorted().collect(Collectors.toList()));
    }
  }

  @Test
  void aStreamResumedInsideAFileWhoseVectorLaterGrowsLosesAndRepeatsNothing() {
    // one file of 10 rows; the snapshot read stops after its 4th live row; then rows are deleted from it
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("resume"), ChangeMatrix.SCHEMA)
        .deletionVectors(true).commit();
    table.append(ChangeMatrix.rows(0, 10)); // 1
    table.deleteWhere(r -> (Long) r.get("id") % 3 == 0); // 2: DV {0, 3, 6, 9}
    DeltaSharingClient client = serve(table, true);
    List<String> first = new ArrayList<>();
    Position stop;
    try (SharingStreamPlanner p = planner(client, Map.of("startingVersion", "snapshot"))) {
      WorkUnit u = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units().get(0);
      try (UnitReader r = UnitReader.open(client, u, p.urls(u), p.schema(), ReadSettings.DEFAULT, 0)) {
        ChangeRow last = null;
        for (int i = 0; i < 4; i++) {
          last = r.next();
          first.add(last.row().get("id").toString());
        }
        stop = u.rowPosition(last.rowIndex()); // a Kafka-style offset: the physical row index
      }
    }
    assertThat(first).containsExactly("1", "2", "4", "5");
    assertThat(stop.row()).isEqualTo(5);
    table.deleteWhere(r -> r.get("id").equals(7L) || r.get("id").equals(1L)); // 3: DV grows to {0,1,3,6,7,9}
    table.append(ChangeMatrix.rows(10, 12)); // 4
    List<String> rest = new ArrayList<>();
    try (SharingStreamPlanner p = planner(client, Map.of())) {
      StreamPlanner.Plan plan = p.plan(stop, AdmissionLimits.UNLIMITED);
      for (WorkUnit u : plan.units()) {
        long start = u.version() == stop.tableVersion() && u.index() == stop.index() ? stop.row() + 1 : 0;
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), p.schema(), ReadSettings.DEFAULT,
            start)) {
          r.forEachRemaining(c -> rest.add(c.row().get("id") + ":" + c.changeType() + "@" + u.version()));
        }
      }
    }
    // the snapshot's file goes on under the vector it was read with (7 and 8 are still live at version 2); version
    // 3 re-adds it, which brings no row by default; version 4 appends
    assertThat(rest).containsExactly("7:insert@2", "8:insert@2", "10:insert@4", "11:insert@4");
  }

  @Test
  void eachDeletionVectorIsFetchedOnceByOneRangeRequest() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("requests"), false, false);
    DeltaSharingClient client = serve(table, true);
    DeltaSharingServer server = served.last();
    try (SharingStreamPlanner p = planner(client, options(ChangeMatrix.Mode.READ_CHANGE_FEED,
        "startingVersion", "3"))) {
      server.requests().clear();
      PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.UNLIMITED, null);
    }
    List<RequestLog.Entry> dv = server.requests().entries(Endpoint.STORAGE).stream()
        .filter(e -> e.path.contains("deletion_vector_")).collect(Collectors.toList());
    // version 3: A's new vector; 4: A's new and old ones; 5: B's new one (the removes of 3 and 5 had none)
    assertThat(dv).hasSize(4).allSatisfy(e -> assertThat(e.range).matches("bytes=\\d+-\\d+"));
  }

  @Test
  void anExpiredDeletionVectorUrlIsRefreshedWithItsDataFile() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("expiry"), false, false);
    DeltaSharingClient client = serve(table, true);
    DeltaSharingServer server = served.last();
    server.faults().urlTtl(Duration.ofMillis(300));
    try (SharingStreamPlanner p = planner(client, options(ChangeMatrix.Mode.READ_CHANGE_FEED,
        "startingVersion", "3", "urlRefreshMarginSeconds", "1"))) {
      StreamPlanner.Plan plan = p.plan(p.initialPosition(), AdmissionLimits.files(1));
      sleep(500); // listed, then expired before the vector is fetched
      List<String> rows = new ArrayList<>();
      for (WorkUnit u : plan.units()) {
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), p.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> rows.add(c.row().get("id") + ":" + c.changeType()));
        }
      }
      assertThat(rows).containsExactly("1:delete");
    }
    assertThat(server.requests().entries(Endpoint.STORAGE).stream().filter(e -> e.status == 403)
        .map(e -> e.path)).anyMatch(path -> path.contains("deletion_vector_"));
  }

  @Test
  void aCorruptDeletionVectorFailsNamingTableVersionAndFileBeforeAnyRowOfTheFile() throws Exception {
    for (String damage : List.of("checksum", "magic", "offset", "cardinality")) {
      DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("bad-" + damage), ChangeMatrix.SCHEMA)
          .deletionVectors(true).commit();
      table.append(ChangeMatrix.rows(0, 10)); // 1
      table.deleteWhere(r -> r.get("id").equals(2L)); // 2
      DeltaAction.AddFile add = table.snapshot().files().iterator().next();
      DeletionVectorDescriptor dv = add.deletionVector;
      Path file = dv.absolutePath(table.dir());
      switch (damage) {
        case "checksum":
          flip(file, dv.offset + 4 + dv.sizeInBytes + 3);
          break;
        case "magic":
          flip(file, dv.offset + 4 + 1);
          rewriteChecksum(file, dv.offset, dv.sizeInBytes); // the checksum matches: the magic number is wrong
          break;
        default: { // a vector whose descriptor lies: past the file's end, or the wrong number of rows
          DeletionVectorDescriptor lie = damage.equals("offset")
              ? new DeletionVectorDescriptor(dv.storageType, dv.pathOrInlineDv, dv.offset + 1000, dv.sizeInBytes,
                  dv.cardinality)
              : new DeletionVectorDescriptor(dv.storageType, dv.pathOrInlineDv, dv.offset, dv.sizeInBytes, 2);
          table.commitActions("DELETE", List.of(add.remove(System.currentTimeMillis(), true),
              new DeltaAction.AddFile(add.path, add.partitionValues, add.size, add.modificationTime, true,
                  add.stats, lie))); // 3
        }
      }
      DeltaSharingClient client = serve(table, true);
      try (SharingStreamPlanner p = planner(client, Map.of("startingVersion", "snapshot"))) {
        WorkUnit u = p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units().get(0);
        assertThatThrownBy(() -> UnitReader.open(client, u, p.urls(u), p.schema(), ReadSettings.DEFAULT,
            0)).as(damage).isInstanceOf(InvalidDeletionVectorException.class)
            .hasMessageContaining("file " + u.file().id()).hasMessageContaining("of version " + u.version())
            .hasMessageContaining("of s.sc.t").hasMessageContaining(damage.equals("offset") ? "offset"
                : damage.equals("cardinality") ? "marks 1 rows, but its descriptor says 2"
                : damage.equals("magic") ? "magic number" : damage)
            .hasMessageNotContaining("X-Signature");
      }
    }
  }

  private static void flip(Path file, long at) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0x10);
    }
  }

  private static void rewriteChecksum(Path file, int offset, int size) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      byte[] bitmap = new byte[size];
      f.seek(offset + 4);
      f.readFully(bitmap);
      java.util.zip.CRC32 crc = new java.util.zip.CRC32();
      crc.update(bitmap);
      f.writeInt((int) crc.getValue());
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
