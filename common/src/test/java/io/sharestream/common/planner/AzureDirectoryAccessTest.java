package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import io.sharestream.testkit.storage.Azurite;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables shared for directory access only whose files are in Azure Blob Storage: Azurite (Microsoft's emulator, a
 * real Blob service in a process of its own) holds them, the kit vends SAS tokens for their container, and the client
 * lists the log with List Blobs and reads every file with the token. Every mode of the deletion-vector matrix and the
 * column-mapping matrix read the same rows as the same tables by URL, commits added while streaming included, and a
 * token that expires mid-stream is vended again. Needs Node.js (Azurite is installed with npm on first use).
 */
class AzureDirectoryAccessTest {
  private static Azurite azurite;
  @TempDir Path tmp;
  private final List<DeltaSharingServer> servers = new ArrayList<>();

  @BeforeAll
  static void startAzurite() {
    assumeTrue(Azurite.nodeAvailable(), "Node.js runs Azurite: none on the PATH");
    azurite = Azurite.start();
  }

  @AfterAll
  static void stopAzurite() {
    if (azurite != null) {
      azurite.close();
    }
  }

  @AfterEach
  void stop() {
    servers.forEach(DeltaSharingServer::close);
  }

  @Test
  void everyModeOfTheDeletionVectorMatrixReadsTheSameRowsFromAzureAsByUrl() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv"), true, false);
    DeltaSharingClient byUrl = client(serve(table, "dv-table", false));
    DeltaSharingServer inAzure = serve(table, "dv-table", true);
    DeltaSharingClient fromAzure = client(inAzure);
    for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
      Map<String, String> options = new HashMap<>(mode.options);
      options.put("startingVersion", "1");
      assertThat(drain(fromAzure, options)).as("%s", mode).isEqualTo(drain(byUrl, options)).isNotEmpty();
    }
    assertThat(inAzure.requests().count(Endpoint.QUERY) + inAzure.requests().count(Endpoint.CHANGES)).isZero();
    assertThat(inAzure.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isPositive();
    assertThat(inAzure.requests().count(Endpoint.OBJECT_STORE)).as("the kit's S3 store was not asked").isZero();
  }

  @Test
  void aColumnMappedTableStreamsFromAzureAsByUrlThroughNewCommitsAndAnExpiredToken() {
    DeltaTableWriter table = ColumnMappingMatrix.write(tmp.resolve("cm"), "name", true);
    DeltaSharingClient byUrl = client(serve(table, "cm-table", false));
    DeltaSharingServer inAzure = serve(table, "cm-table", true);
    inAzure.faults().credentialTtl(Duration.ofSeconds(2));
    DeltaSharingClient fromAzure = client(inAzure);
    Map<String, String> options = new HashMap<>(ChangeMatrix.Mode.READ_CHANGE_FEED.options);
    options.put("startingVersion", "0");
    List<String> rows = DirectoryAccessStreamTest.drainRows(fromAzure, options, plan -> {
      if (plan == 2) {
        try {
          Thread.sleep(2100); // the token vended for the plans before has expired
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        Map<String, Object> row = new HashMap<>();
        row.put("id", 1000L);
        row.put("full_name", "added while streaming");
        table.append(List.of(row));
        azurite.mirror(table.dir(), "cm-table", inAzure.tables().get("s.sc.t").keyRoot());
      }
    });
    assertThat(rows).isEqualTo(DirectoryAccessStreamTest.drainRows(byUrl, options)).anyMatch(r -> r.contains(
        "added while streaming"));
    assertThat(inAzure.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).as("vended again").isGreaterThan(1);
  }

  /**
   * {@code table} as {@code s.sc.t}: by URL, or for directory access only from Azurite, mirrored to a container of
   * its own, {@code container}.
   */
  private DeltaSharingServer serve(DeltaTableWriter table, String container, boolean inAzure) {
    DeltaSharingServer.Builder b = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .accessModes("s.sc.t", inAzure ? AccessMode.DIR : AccessMode.URL);
    if (inAzure) {
      b.storedInAzure("s.sc.t", container);
      azurite.createContainer(container);
    }
    DeltaSharingServer s = b.start();
    servers.add(s);
    if (inAzure) {
      azurite.mirror(table.dir(), container, s.tables().get("s.sc.t").keyRoot());
    }
    return s;
  }

  private static DeltaSharingClient client(DeltaSharingServer s) {
    StorageSettings storage = StorageSettings.defaults().withAzureEndpoint(azurite.endpointTemplate());
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(s.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1)))
        .withAccess(AccessSettings.DEFAULT.withStorage(storage)));
  }

  private static String drain(DeltaSharingClient client, Map<String, String> options) {
    try (SharingStreamPlanner p = ServedTables.planner(client, StreamOptions.parse(options))) {
      return ChangeMatrix.canonical(PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.files(2),
          null));
    }
  }
}
