package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables shared for directory access only ({@code accessModes: ["dir"]}) stream exactly as the same tables shared
 * by URL: the kit's server vends expiring S3 credentials and its object store checks them (SigV4, session token,
 * expiry), and the client reads the Delta log and the files from there. Every mode of the change, deletion-vector and
 * column-mapping matrices, GCS, failures of the store and of the vending endpoint, and a table whose access changes
 * mid-stream.
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
  void everyModeOfTheChangeMatrixReadsTheSameRowsFromTheDirectoryAsByUrl() {
    for (boolean cdf : new boolean[] {true, false}) {
      DeltaTableWriter table = ChangeMatrix.write(tmp.resolve("changes" + cdf), cdf);
      DeltaSharingClient byUrl = client(serve(table, AccessMode.URL));
      DeltaSharingClient byDir = client(serve(table, AccessMode.DIR));
      for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
        Map<String, String> options = new HashMap<>(mode.options);
        options.put("startingVersion", "1");
        assertThat(drain(byDir, options)).as("cdf=%s %s", cdf, mode).isEqualTo(drain(byUrl, options))
            .isEqualTo(ChangeMatrix.canonical(ChangeMatrix.expected(mode, cdf)));
      }
      // the latest snapshot (after an OPTIMIZE), then changes
      Map<String, String> fromSnapshot = new HashMap<>(Map.of("startingVersion", "snapshot"));
      assertThat(drainRows(byDir, fromSnapshot)).as("cdf=%s from the snapshot", cdf)
          .isEqualTo(drainRows(byUrl, fromSnapshot)).hasSize(10);
    }
  }

  @Test
  void aTableInGoogleCloudStorageReadsTheSameRowsWithItsTokenInAHeaderAndATokenThatExpiredIsVendedAgain() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("gcs"), true, false);
    DeltaSharingClient byUrl = client(serve(table, AccessMode.URL));
    DeltaSharingServer gcs = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .accessModes("s.sc.t", AccessMode.DIR).storedInGcs("s.sc.t").start();
    servers.add(gcs);
    DeltaSharingClient byDir = client(gcs);
    for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
      Map<String, String> options = new HashMap<>(mode.options);
      options.put("startingVersion", "1");
      assertThat(drain(byDir, options)).as("%s", mode).isEqualTo(drain(byUrl, options)).isNotEmpty();
    }
    assertThat(gcs.requests().entries(Endpoint.OBJECT_STORE)).extracting(e -> e.path)
        .allMatch(p -> p.startsWith("/storage/v1/b/kit/o")).anyMatch(p -> p.contains("_delta_log"))
        .anyMatch(p -> p.endsWith(".parquet"));

    gcs.faults().credentialTtl(Duration.ofSeconds(1));
    Map<String, String> options = new HashMap<>(ChangeMatrix.Mode.READ_CHANGE_FEED.options);
    options.put("startingVersion", "0");
    int vended = gcs.requests().count(Endpoint.TEMPORARY_CREDENTIALS);
    assertThat(drainRows(client(gcs), options, plan -> {
      try {
        Thread.sleep(plan == 1 ? 1100 : 0); // the token of the first plan has expired by the second
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    })).isEqualTo(drainRows(byUrl, options));
    assertThat(gcs.requests().count(Endpoint.TEMPORARY_CREDENTIALS) - vended).isGreaterThan(1);
    assertThat(gcs.requests().count(Endpoint.QUERY) + gcs.requests().count(Endpoint.CHANGES)).isZero();
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
    List<String> rows = drainRows(byDir, options, plan -> {
      try {
        Thread.sleep(plan == 0 ? 0 : 1100); // the credentials of the plan before have expired by the next one
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    assertThat(rows).isEqualTo(drainRows(byUrl, options));
    assertThat(dirServer.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isGreaterThan(1);
  }

  @Test
  void storeAndVendingFailuresMidStreamAreRetriedAndTheRowsStayExact() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("faults"), true, false);
    DeltaSharingClient byUrl = client(serve(table, AccessMode.URL));
    DeltaSharingServer dirServer = serve(table, AccessMode.DIR);
    DeltaSharingClient byDir = client(dirServer);
    Map<String, String> options = new HashMap<>(ChangeMatrix.Mode.READ_CHANGE_FEED.options);
    options.put("startingVersion", "0");
    List<String> rows = drainRows(byDir, options, plan -> {
      switch (plan) {
        case 1: // the store fails twice
          dirServer.faults().failWith(Endpoint.OBJECT_STORE, 2, 503);
          break;
        case 2: // the store refuses the credentials once: they are vended again, and the vending fails once
          dirServer.faults().failWith(Endpoint.OBJECT_STORE, 1, 403).failWith(Endpoint.TEMPORARY_CREDENTIALS, 1, 503);
          break;
        default:
      }
    });
    assertThat(dirServer.faults().pending()).as("every fault was met").isZero();
    assertThat(rows).isEqualTo(drainRows(byUrl, options));
    assertThat(dirServer.requests().entries(Endpoint.TEMPORARY_CREDENTIALS)).extracting(e -> e.status)
        .containsSubsequence(200, 503, 200);
  }

  @Test
  void aVendingEndpointOrAStoreThatKeepsRefusingStopsTheStreamNamingTheTableAndNoSecret() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("refused"), true, false);
    Map<String, String> options = new HashMap<>(ChangeMatrix.Mode.READ_CHANGE_FEED.options);
    options.put("startingVersion", "0");

    DeltaSharingServer noCredentials = serve(table, AccessMode.DIR);
    noCredentials.faults().failWith(Endpoint.TEMPORARY_CREDENTIALS, 100, 403, "no credentials for you");
    assertThatThrownBy(() -> drainRows(client(noCredentials), options))
        .hasMessageContaining("s.sc.t").hasMessageContaining("403");

    DeltaSharingServer refusing = serve(table, AccessMode.DIR);
    DeltaSharingClient client = client(refusing);
    Throwable refused = catchThrowable(() -> drainRows(client, options, plan -> {
      if (plan == 1) {
        refusing.faults().failWith(Endpoint.OBJECT_STORE, 100, 403);
      }
    }));
    assertThat(refused).isNotNull().hasMessageContaining("403");
    String all = stackTrace(refused);
    assertThat(all).doesNotContain("X-Amz-Signature", "X-Amz-Security-Token", "X-Amz-Credential");
    for (String secret : refusing.objectStore().vendedSecrets()) {
      assertThat(all).doesNotContain(secret);
    }
  }

  private static String stackTrace(Throwable t) {
    java.io.StringWriter w = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(w));
    return w.toString();
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
        .withS3PathStyle(true).withS3Region(s.objectStore().region()).withGcsEndpoint(s.objectStore().endpoint());
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
  static List<String> drainRows(DeltaSharingClient client, Map<String, String> options) {
    return drainRows(client, options, plan -> { });
  }

  /** Every row read, in stream order; {@code beforePlan} runs before each plan (numbered from 0) is made. */
  static List<String> drainRows(DeltaSharingClient client, Map<String, String> options, IntConsumer beforePlan) {
    List<String> out = new ArrayList<>();
    try (SharingStreamPlanner planner = ServedTables.planner(client, StreamOptions.parse(options))) {
      Position pos = planner.initialPosition();
      for (int n = 0; n < 1000; n++) {
        beforePlan.accept(n);
        StreamPlanner.Plan p = planner.plan(pos, AdmissionLimits.files(2));
        out.addAll(read(client, planner, p));
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
