package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.errors.InvalidPositionException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File ids across answer formats: the client pins one scheme ({@code fileidhash}), and a resume inside a version on a
 * server that ignores the pin, whose ids then change with the format, fails instead of reading the wrong file.
 */
class FileIdStabilityTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaSharingClient client;

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private void serve(boolean honourFileIdHash) {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 10), 2); // version 1: 5 files
    table.append(ChangeMatrix.rows(10, 16), 2); // version 2: 3 files
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .honourFileIdHash(honourFileIdHash).start();
    client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1))));
  }

  private List<String> ids() {
    List<String> ids = new ArrayList<>();
    try (FileListing l = client.query(T, QueryRequest.changes(1, null))) {
      l.forEachRemaining(a -> ids.add(((FileAction) a).id()));
    }
    ids.sort(null);
    return ids;
  }

  private SharingStreamPlanner planner() {
    return new SharingStreamPlanner(client, T, StreamOptions.parse(Map.of("startingVersion", "1")), Duration.ZERO,
        Clock.systemUTC());
  }

  @Test
  void pinnedIdsStayTheSameWhenATablesAnswersTurnFromParquetToDelta() {
    serve(true);
    List<String> parquet = ids();
    server.faults().respondInDeltaFormat(Endpoint.QUERY, 1);
    assertThat(ids()).hasSize(8).isEqualTo(parquet);
  }

  @Test
  void onAServerIgnoringThePinIdsChangeWithTheFormat() {
    serve(false);
    List<String> parquet = ids();
    server.faults().respondInDeltaFormat(Endpoint.QUERY, 1);
    assertThat(ids()).hasSize(8).doesNotContainAnyElementsOf(parquet);
  }

  @Test
  void aResumeInsideAVersionGoesOnWithTheRestOfItsFilesWhenIdsArePinned() {
    serve(true);
    Position mid;
    try (SharingStreamPlanner p = planner()) {
      mid = p.plan(p.initialPosition(), AdmissionLimits.files(2)).end();
    }
    assertThat(mid.tableVersion()).isEqualTo(1);
    assertThat(mid.index()).isEqualTo(1);
    assertThat(mid.fileKey()).isNotNull();

    server.faults().respondInDeltaFormat(Endpoint.QUERY, 10); // the provider enabled deletion vectors meanwhile
    try (SharingStreamPlanner p = planner()) {
      List<String> rest = PlannerFixture.drain(p, client, Position.fromJson(mid.toJson()), AdmissionLimits.UNLIMITED,
          null);
      assertThat(rest).hasSize(12); // 3 more files of version 1 and version 2's 3 files, 2 rows each
    }
  }

  @Test
  void aResumeInsideAVersionWhoseFileIdsChangedFailsInsteadOfReadingAnotherFile() {
    serve(false);
    Position mid;
    try (SharingStreamPlanner p = planner()) {
      mid = p.plan(p.initialPosition(), AdmissionLimits.files(2)).end();
    }
    Position stored = Position.fromMap(mid.toMap());

    server.faults().respondInDeltaFormat(Endpoint.QUERY, 10);
    try (SharingStreamPlanner p = planner()) {
      assertThatThrownBy(() -> p.plan(stored, AdmissionLimits.UNLIMITED)).isInstanceOf(InvalidPositionException.class)
          .hasMessageContaining("inside version 1 of s.sc.t").hasMessageContaining("other file ids")
          .hasMessageContaining("restart the stream at version 1");
    }
    // a position at a version boundary has nothing to place inside a version: it goes on
    server.faults().respondInDeltaFormat(Endpoint.QUERY, 10);
    try (SharingStreamPlanner p = planner()) {
      assertThat(PlannerFixture.drain(p, client, Position.beforeVersion(mid.tableId(), 2, false),
          AdmissionLimits.UNLIMITED, null)).hasSize(6);
    }
  }
}
