package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaAction;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table whose protocol changes while it is streamed: deletion vectors or column mapping switched on (its answers
 * turn from parquet to delta) are read from their version on across restarts placed before, at and after it; a
 * reader feature this product does not read stops the stream at its version, after every version before it.
 */
class ProtocolChangeStreamTest {
  static final TableRef T = new TableRef("s", "sc", "t");
  static final Map<String, String> CHANGE_FEED = Map.of("startingVersion", "1", "readChangeFeed", "true");

  @TempDir Path tmp;
  DeltaTableWriter table;
  DeltaSharingServer server;
  DeltaSharingClient client;

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private void serve() {
    table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 4), 2); // 1: two files
    table.append(ChangeMatrix.rows(4, 6)); // 2
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1))));
  }

  private SharingStreamPlanner planner() {
    return planner(CHANGE_FEED);
  }

  private SharingStreamPlanner planner(Map<String, String> options) {
    return new SharingStreamPlanner(client, T, StreamOptions.parse(options), Duration.ZERO, Clock.systemUTC());
  }

  /** Reads one plan's rows into {@code out} ("id:changeType@version/name", as the fixture) and returns its end. */
  private Position readOnce(SharingStreamPlanner p, Position from, AdmissionLimits limits, List<String> out) {
    StreamPlanner.Plan plan = p.plan(from, limits);
    for (WorkUnit u : plan.units()) {
      try (UnitReader r = UnitReader.open(client, u, p.urls(u), p.schema(), ReadSettings.DEFAULT, 0)) {
        r.forEachRemaining(c -> out.add(c.row().get("id") + ":" + c.changeType() + "@" + u.version() + "/"
            + c.row().get("name")));
      }
    }
    return plan.end();
  }

  private List<String> drainFrom(Position from) {
    try (SharingStreamPlanner p = planner()) {
      return PlannerFixture.drain(p, client, from, AdmissionLimits.UNLIMITED, null);
    }
  }

  @Test
  void deletionVectorsSwitchedOnMidStreamAreReadFromTheirVersionOnAcrossRestartsBeforeAtAndAfterIt() {
    List<String> all = switchedOnMidStream(() -> {
      table.setProperty("delta.enableDeletionVectors", "true"); // 3: reader feature deletionVectors, delta answers
      table.append(ChangeMatrix.rows(6, 10), 2); // 4: two files
      table.deleteWhere(r -> ((Number) r.get("id")).longValue() % 2 == 0); // 5: deletion vectors
      table.append(ChangeMatrix.rows(10, 11)); // 6
    });
    assertThat(all).hasSize(16).contains("6:insert@4/u6", "9:insert@4/u9", "10:insert@6/u10", "0:delete@5/u0",
        "6:delete@5/u6", "8:delete@5/u8").doesNotContain("1:delete@5/u1", "9:delete@5/u9");
  }

  @Test
  void columnMappingSwitchedOnMidStreamIsReadFromItsVersionOnAcrossRestartsBeforeAtAndAfterIt() {
    List<String> all = switchedOnMidStream(() -> {
      table.setProperty("delta.columnMapping.mode", "name"); // 3: reader feature columnMapping, delta answers
      table.append(ChangeMatrix.rows(6, 10), 2); // 4: two files, written under the physical names
      table.append(ChangeMatrix.rows(10, 11)); // 5
    });
    assertThat(table.snapshot().protocol.readerFeatures).contains("columnMapping");
    assertThat(all).hasSize(11).contains("6:insert@4/u6", "9:insert@4/u9", "10:insert@5/u10");
  }

  /**
   * A table read from version 1 by a stream while its answers are parquet (versions 1 and 2), then {@code switchOn}
   * commits the switch at version 3 and what follows (version 4 adding two files): a stream running across the
   * switch and the stream from scratch read every version, and streams restarted before the switch (inside version 1, a position stored under parquet
   * answers), at it and after it (inside version 4) read the same rows. Returns them.
   */
  private List<String> switchedOnMidStream(Runnable switchOn) {
    serve();
    List<String> beforeN = new ArrayList<>();
    Position insideV1;
    Position atN;
    try (SharingStreamPlanner p = planner()) {
      insideV1 = readOnce(p, p.initialPosition(), AdmissionLimits.files(1), beforeN);
      List<String> rest = new ArrayList<>();
      Position[] end = {null};
      rest.addAll(PlannerFixture.drain(p, client, insideV1, AdmissionLimits.UNLIMITED, end));
      atN = end[0];
      beforeN.addAll(rest);
    }
    assertThat(insideV1.fileKey()).isNotNull();
    assertThat(atN).isEqualTo(Position.beforeVersion(table.tableId(), 3, false));
    assertThat(server.requests().entries(Endpoint.QUERY)).allSatisfy(e ->
        assertThat(e.capabilities).startsWith("responseformat=delta,parquet"));

    List<String> running = new ArrayList<>(beforeN);
    try (SharingStreamPlanner p = planner()) { // a stream that runs across the switch
      assertThat(PlannerFixture.drain(p, client, atN, AdmissionLimits.UNLIMITED, null)).isEmpty();
      switchOn.run();
      p.latestVersionNow();
      running.addAll(PlannerFixture.drain(p, client, atN, AdmissionLimits.UNLIMITED, null));
    }

    List<String> all;
    try (SharingStreamPlanner p = planner()) {
      all = PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.UNLIMITED, null);
    }
    assertThat(beforeN).isEqualTo(all.subList(0, beforeN.size()));
    assertThat(running).isEqualTo(all);

    // before N: inside version 1, stored while the answers were in parquet format
    List<String> fromInsideV1 = new ArrayList<>(beforeN.subList(0, 2));
    fromInsideV1.addAll(drainFrom(Position.fromJson(insideV1.toJson())));
    assertThat(fromInsideV1).isEqualTo(all);

    // at N
    List<String> fromN = new ArrayList<>(beforeN);
    fromN.addAll(drainFrom(atN));
    assertThat(fromN).isEqualTo(all);

    // after N: inside version 4
    List<String> toInsideV4 = new ArrayList<>(beforeN);
    Position insideV4;
    try (SharingStreamPlanner p = planner()) {
      Position pos = atN;
      do {
        pos = readOnce(p, pos, AdmissionLimits.files(1), toInsideV4);
      } while (pos.tableVersion() < 4);
      insideV4 = pos;
    }
    assertThat(insideV4.tableVersion()).isEqualTo(4);
    assertThat(insideV4.index()).isZero();
    toInsideV4.addAll(drainFrom(Position.fromJson(insideV4.toJson())));
    assertThat(toInsideV4).isEqualTo(all);
    return all;
  }

  /** The change feed lists a version per request (the protocol heads it); the default mode many (it comes inline). */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aReaderFeatureNotReadSwitchedOnMidStreamStopsTheStreamAtItsVersionAfterEveryVersionBefore(boolean changeFeed) {
    serve();
    table.setProperty("delta.enableDeletionVectors", "true"); // 3
    List<String> read = new ArrayList<>();
    try (SharingStreamPlanner p = planner(changeFeed ? CHANGE_FEED : Map.of("startingVersion", "1"))) {
      Position[] end = {null};
      read.addAll(PlannerFixture.drain(p, client, p.initialPosition(), AdmissionLimits.UNLIMITED, end));
      assertThat(end[0].tableVersion()).isEqualTo(4);

      table.append(ChangeMatrix.rows(6, 8)); // 4
      table.commitActions("ALTER TABLE", List.of(new DeltaAction.Protocol(3, 7,
          List.of("deletionVectors", "catalogOwned-preview"), List.of("deletionVectors", "catalogOwned-preview")))); // 5
      table.append(ChangeMatrix.rows(8, 10)); // 6
      p.latestVersionNow();

      List<String> more = new ArrayList<>();
      Position next = readOnce(p, end[0], AdmissionLimits.UNLIMITED, more);
      assertThat(more).containsExactly("6:insert@4/u6", "7:insert@4/u7");
      assertThat(next).isEqualTo(Position.beforeVersion(table.tableId(), 5, false));
      assertThatThrownBy(() -> p.plan(next, AdmissionLimits.UNLIMITED))
          .isInstanceOf(UnsupportedTableFeatureException.class)
          .hasMessageContaining("s.sc.t").hasMessageContaining("version 5").hasMessageContaining("catalogOwned-preview");
    }
    assertThat(read).hasSize(6);
  }
}
