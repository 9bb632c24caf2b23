package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.DeltaSharingServer.TimestampResolution;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * startingTimestamp starts at the first version committed at or after the instant, whichever way the server
 * resolves it: exactly (the protocol), or one version late at a commit's exact time and 0 before a cleaned-up log
 * (the reference server).
 */
class StartingTimestampTest {
  @TempDir Path tmp;

  private long startVersion(DeltaTableWriter table, TimestampResolution resolution, Instant t) {
    try (DeltaSharingServer server = DeltaSharingServer.builder().timestampResolution(resolution)
        .table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);
      try (SharingStreamPlanner p = new SharingStreamPlanner(client, PlannerFixture.T,
          StreamOptions.parse(Map.of("startingTimestamp", t.toString())), Duration.ZERO, Clock.systemUTC())) {
        Position start = p.initialPosition();
        assertThat(start.index()).isEqualTo(-1);
        return start.tableVersion();
      }
    }
  }

  /** Commits a second apart, so "just before a commit" is after the one before it. */
  private static DeltaTableWriter table(Path dir, int appends) {
    Clock seconds = new Clock() {
      private long now = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

      @Override
      public synchronized long millis() {
        return now += 1000;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(millis());
      }

      @Override
      public java.time.ZoneId getZone() {
        return java.time.ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }
    };
    DeltaTableWriter t = DeltaTableWriter.create(dir, PlannerFixture.SCHEMA).clock(seconds).commit();
    for (int v = 1; v <= appends; v++) {
      t.append(PlannerFixture.rows(v * 10, v * 10 + 2));
    }
    return t;
  }

  @ParameterizedTest
  @EnumSource(TimestampResolution.class)
  void anInstantExactlyAtACommitStartsAtThatCommit(TimestampResolution resolution) {
    DeltaTableWriter t = table(tmp.resolve("t"), 4);
    for (long v = 1; v <= 4; v++) {
      Instant at = Instant.ofEpochMilli(t.log().timestamp(v));
      assertThat(startVersion(t, resolution, at)).as("exactly at version %d", v).isEqualTo(v);
      assertThat(startVersion(t, resolution, at.minusMillis(1))).as("just before version %d", v).isEqualTo(v);
    }
  }

  @ParameterizedTest
  @EnumSource(TimestampResolution.class)
  void anInstantAfterTheLatestCommitWaitsForTheNextOne(TimestampResolution resolution) {
    DeltaTableWriter t = table(tmp.resolve("t"), 2);
    assertThat(startVersion(t, resolution, Instant.ofEpochMilli(t.log().timestamp(2) + 1))).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(TimestampResolution.class)
  void anInstantBeforeACleanedUpLogStartsAtTheEarliestVersionStillServed(TimestampResolution resolution) {
    DeltaTableWriter t = table(tmp.resolve("t"), 12);
    t.checkpoint(); // 12
    t.append(PlannerFixture.rows(200, 201)); // 13
    t.cleanUpLogBefore(12);
    assertThat(startVersion(t, resolution, Instant.parse("2000-01-01T00:00:00Z"))).isEqualTo(12);
  }
}
