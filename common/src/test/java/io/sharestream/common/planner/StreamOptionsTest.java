package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.parquet.RebaseMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamOptionsTest {
  @Test
  void defaultsFollowTheSpec() {
    StreamSettings s = StreamSettings.defaults();
    assertThat(s.startingPoint()).isEqualTo(StartingPoint.LATEST);
    assertThat(s.skipChangeCommits()).isFalse();
    assertThat(s.readChangeFeed()).isFalse();
    assertThat(s.versionsPerRequest()).isEqualTo(100);
    assertThat(s.filesPerRequest()).isNull();
    assertThat(s.urlRefreshMargin()).isEqualTo(Duration.ofMinutes(15));
    assertThat(s.read()).isEqualTo(ReadSettings.DEFAULT);
  }

  @Test
  void everyOptionIsParsed() {
    StreamSettings s = StreamOptions.parse(Map.of("startingVersion", "12", "skipChangeCommits", "TRUE",
        "readChangeData", "true", "maxVersionsPerRpc", "5", "maxFilesPerRpc", "1000", "urlRefreshMarginSeconds", "60",
        "partitionTimeZone", "Europe/Paris", "datetimeRebaseMode", "legacy", "int96RebaseMode", "CORRECTED"));
    assertThat(s.startingPoint()).isEqualTo(StartingPoint.version(12));
    assertThat(s.skipChangeCommits()).isTrue();
    assertThat(s.readChangeFeed()).isTrue();
    assertThat(s.versionsPerRequest()).isEqualTo(5);
    assertThat(s.filesPerRequest()).isEqualTo(1000);
    assertThat(s.urlRefreshMargin()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.read().partitionZone()).isEqualTo(ZoneId.of("Europe/Paris"));
    assertThat(s.read().datetimeRebaseMode()).isEqualTo(RebaseMode.LEGACY);
    assertThat(s.read().int96RebaseMode()).isEqualTo(RebaseMode.CORRECTED);
    assertThat(StreamOptions.parse(Map.of("startingVersion", "snapshot")).startingPoint())
        .isEqualTo(StartingPoint.SNAPSHOT);
    assertThat(StreamOptions.parse(Map.of("startingTimestamp", "2024-01-31T10:00:00+01:00")).startingPoint())
        .isEqualTo(StartingPoint.timestamp(Instant.parse("2024-01-31T09:00:00Z")));
  }

  @Test
  void badValuesNameTheOption() {
    bad(Map.of("startingVersion", "first"), "'startingVersion' must be 'latest', 'snapshot', 'earliest' or a version number");
    bad(Map.of("startingVersion", "-3"), "'startingVersion' cannot be negative");
    bad(Map.of("startingVersion", "1", "startingTimestamp", "2024-01-01T00:00:00Z"), "not both");
    bad(Map.of("startingTimestamp", "yesterday"), "'startingTimestamp' must be an ISO-8601 instant");
    bad(Map.of("skipChangeCommits", "yes"), "'skipChangeCommits' must be true or false");
    bad(Map.of("readChangeFeed", "1"), "'readChangeFeed' must be true or false");
    bad(Map.of("maxVersionsPerRpc", "0"), "'maxVersionsPerRpc' must be a positive integer");
    bad(Map.of("maxFilesPerRpc", "many"), "'maxFilesPerRpc' must be a positive integer");
    bad(Map.of("partitionTimeZone", "Mars/Olympus"), "'partitionTimeZone'");
  }

  private static void bad(Map<String, String> options, String message) {
    assertThatThrownBy(() -> StreamOptions.parse(options)).isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining(message);
  }
}
