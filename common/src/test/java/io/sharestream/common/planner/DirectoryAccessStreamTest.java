package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.AccessSettings;
import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.storage.StorageSettings;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables shared for directory access only ({@code accessModes: ["dir"]}) stream exactly as the same tables shared
 * by URL: the kit's server vends expiring S3 credentials and its object store checks them (SigV4, session token,
 * expiry), and the client reads the Delta log and the files from there. Every mode of the deletion-vector and
 * column-mapping matrices, and a table whose access changes mid-stream.
 */
class DirectoryAccessStreamTest {
  @TempDir Path tmp;
  private final List<DeltaSharingServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(DeltaSharingServer::close);
  }

  @Test
  void everyModeOfTheDeletionVectorMatrixReadsTheSameRowsFromTheDirectoryAsByUrl() {
    for (boolean inline : new boolean[] {false, true}) {
      DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv" + inline), true, inline);
      DeltaSharingClient byUrl = client(serve(table, AccessMode.URL));
      DeltaSharingServer dirServer = serve(table, AccessMode.DIR);
      DeltaSharingClient byDir = client(dirServer);
      for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
        Map<String, String> options = new HashMap<>(mode.options);
        options.put("startingVersion", "1");
        assertThat(drain(byDir, options)).as("inline=%s %s", inline, mode).isEqualTo(drain(byUrl, options))
            .isNotEmpty();
      }
      assertThat(dirServer.requests().count(Endpoint.QUERY)).isZero();
      assertThat(dirServer.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isPositive();
      assertThat(dirServer.requests().count(Endpoint.OBJECT_STORE)).isPositive();
    }
  }

  @Test
  void aColumnMappedTableWithRenamesAndDropsReadsTheSameRowsFromTheDirectory() {
    DeltaTableWriter table = ColumnMappingMatrix.write(tmp.resolve("cm"), "name", true);
    DeltaSharingClient byUrl = client(serve(table, AccessMode.URL));
    DeltaSharingClient byDir = client(serve(table, AccessMode.DIR));
    for (String start : new String[] {"0", "snapshot"}) {
      Map<String, String> options = new HashMap<>();
      options.put("startingVersion", start);
      options.put("readChangeFeed", "true");
      assertThat(drainRows(byDir, options)).as(start).isEqualTo(drainRows(byUrl, options)).isNotEmpty();
    }
  }

  @Test
  void credentialsThatExpireMidStreamAreVendedAgain() throws Exception {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("ttl"), true, false);
    DeltaSharingClient byUrl = client(serve(table, AccessMode.URL));
    DeltaSharingServer dirServer = serve(table, AccessMode.DIR);
    dirServer.faults().credentialTtl(Duration.ofSeconds(1));
    DeltaSharingClient byDir = client(dirServer);
    Map<String, String> options = new HashMap<>(ChangeMatrix.Mode.READ_CHANGE_FEED.options);
    options.put("startingVersion", "0");
    List<String> rows = new ArrayList<>();
    try (SharingStreamPlanner planner = ServedTables.planner(byDir, StreamOptions.parse(options))) {
      Position pos = planner.initialPosition();
      for (int guard = 0; guard < 1000; guard++) {
        StreamPlanner.Plan p = planner.plan(pos, AdmissionLimits.files(2));
        rows.addAll(read(byDir, planner, p));
        if (p.end().equals(pos)) {
          break;
        }
        pos = p.end();
        Thread.sleep(1100); // the credentials of the plan before have expired by the next one
      }
    }
    assertThat(rows).isEqualTo(drainRows(byUrl, options));
    assertThat(dirServer.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isGreaterThan(1);
  }

  @Test
  void aTableMovedBetweenUrlAndDirectoryAccessMidStreamResumesExactly() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("moved"), true, false);
    DeltaSharingServer moving = serve(table, AccessMode.URL);
    DeltaSharingClient client = client(moving);
    Map<String, String> options = new HashMap<>(ChangeMatrix.Mode.READ_CHANGE_FEED.options);
    options.put("startingVersion", "0");
    List<String> moved = new ArrayList<>();
    int storeRequestsBefore = 0;
    try (SharingStreamPlanner planner = ServedTables.planner(client, StreamOptions.parse(options))) {
      Position pos = planner.initialPosition();
      // caught up, the provider moves the table and commits again: the stream goes on by the other access
      for (AccessMode next : new AccessMode[] {AccessMode.DIR, AccessMode.URL, AccessMode.DIR, null}) {
        for (int guard = 0; guard < 1000; guard++) {
          StreamPlanner.Plan p = planner.plan(pos, AdmissionLimits.files(1));
          for (WorkUnit u : p.units()) {
            try (UnitReader r = UnitReader.open(client, u, planner.urls(u), planner.schema(),
                io.sharestream.common.parquet.ReadSettings.DEFAULT, 0)) {
              r.forEachRemaining(c -> moved.add(c.row() + " " + c.changeType() + "@" + u.version()));
            }
          }
          if (p.end().equals(pos)) {
            break;
          }
          pos = p.end();
        }
        if (next == AccessMode.URL) {
          assertThat(moving.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).as("read by directory access")
              .isPositive();
        }

        if (next != null) {
          storeRequestsBefore = moving.requests().count(Endpoint.OBJECT_STORE);
          moving.tables().accessModes("s.sc.t", next);
          Map<String, Object> row = new HashMap<>();
          row.put("id", 100L + moved.size());
          row.put("name", "after " + next);
          table.append(java.util.Collections.singletonList(row));
        }
      }
    }
    assertThat(moved).isEqualTo(drainRows(client(serve(table, AccessMode.URL)), options));
    // the last commit was read from the directory again (with the credentials vended before, still valid)
    assertThat(moving.requests().count(Endpoint.OBJECT_STORE)).isGreaterThan(storeRequestsBefore);
  }

  private DeltaSharingServer serve(DeltaTableWriter table, AccessMode mode) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .accessModes("s.sc.t", mode).start();
    servers.add(s);
    return s;
  }

  private static DeltaSharingClient client(DeltaSharingServer s) {
    StorageSettings storage = StorageSettings.defaults().withS3Endpoint(s.objectStore().endpoint())
        .withS3PathStyle(true).withS3Region(s.objectStore().region());
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(s.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1)))
        .withAccess(AccessSettings.DEFAULT.withStorage(storage)));
  }

  /** The rows of a plan's units, whole, with their change type and version. */
  private static List<String> read(DeltaSharingClient client, SharingStreamPlanner planner, StreamPlanner.Plan p) {
    List<String> out = new ArrayList<>();
    for (WorkUnit u : p.units()) {
      try (UnitReader r = UnitReader.open(client, u, planner.urls(u), planner.schema(),
          io.sharestream.common.parquet.ReadSettings.DEFAULT, 0)) {
        r.forEachRemaining(c -> out.add(c.row() + " " + c.changeType() + "@" + u.version()));
      }
    }
    return out;
  }

  /** Every row read, whole, with its change type and version, in stream order. */
  private static List<String> drainRows(DeltaSharingClient client, Map<String, String> options) {
    List<String> out = new ArrayList<>();
    try (SharingStreamPlanner planner = ServedTables.planner(client, StreamOptions.parse(options))) {
      Position pos = planner.initialPosition();
      for (int guard = 0; guard < 1000; guard++) {
        StreamPlanner.Plan p = planner.plan(pos, AdmissionLimits.files(2));
        for (WorkUnit u : p.units()) {
          try (UnitReader r = UnitReader.open(client, u, planner.urls(u), planner.schema(),
              io.sharestream.common.parquet.ReadSettings.DEFAULT, 0)) {
            r.forEachRemaining(c -> out.add(c.row() + " " + c.changeType() + "@" + u.version()));
          }
        }
        if (p.end().equals(pos)) {
          break;
        }
        pos = p.end();
      }
    }
    return out;
  }

  private static String drain(DeltaSharingClient client, Map<String, String> options) {
    try (SharingStreamPlanner p = ServedTables.planner(client, StreamOptions.parse(options))) {
      return ChangeMatrix.canonical(PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.files(2),
          null));
    }
  }
}
