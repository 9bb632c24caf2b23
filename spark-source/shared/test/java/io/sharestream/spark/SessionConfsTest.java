package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.errors.InvalidSettingException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The session confs as the reference client reads them, with errors naming the conf. */
class SessionConfsTest {
  private static SessionConfs confs(Map<String, String> set) {
    return SessionConfs.of(set::get, ZoneOffset.UTC);
  }

  @Test
  void unsetConfsKeepTheSourcesDefaults() {
    SessionConfs c = confs(Map.of());
    assertThat(c.versionPollInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.predicateHints()).isTrue();
    assertThat(c.limitHints()).isTrue();
    assertThat(c.filesPerRequest()).isNull();
    ClientSettings s = c.apply(ClientSettings.DEFAULT);
    assertThat(s.retry().maxAttempts()).isEqualTo(ClientSettings.DEFAULT.retry().maxAttempts());
    assertThat(s.requestTimeout()).isEqualTo(ClientSettings.DEFAULT.requestTimeout());
  }

  @Test
  void theReferencesVersionIntervalIsATimeStringOfAtLeastTenSecondsAndOursTakesPrecedence() {
    assertThat(confs(Map.of(SessionConfs.QUERY_TABLE_VERSION_INTERVAL, "30s")).versionPollInterval())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(confs(Map.of(SessionConfs.QUERY_TABLE_VERSION_INTERVAL, "2m")).versionPollInterval())
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(confs(Map.of(SessionConfs.QUERY_TABLE_VERSION_INTERVAL, "45")).versionPollInterval())
        .as("a bare number is seconds").isEqualTo(Duration.ofSeconds(45));
    assertThat(confs(Map.of(SessionConfs.QUERY_TABLE_VERSION_INTERVAL, "30s",
        SessionConfs.VERSION_POLL_INTERVAL_MS, "250")).versionPollInterval()).isEqualTo(Duration.ofMillis(250));
    assertThatThrownBy(() -> confs(Map.of(SessionConfs.QUERY_TABLE_VERSION_INTERVAL, "9s")))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("must not be less than 10 seconds")
        .hasMessageContaining(SessionConfs.VERSION_POLL_INTERVAL_MS);
    assertThatThrownBy(() -> confs(Map.of(SessionConfs.QUERY_TABLE_VERSION_INTERVAL, "soon")))
        .hasMessageContaining(SessionConfs.QUERY_TABLE_VERSION_INTERVAL + " must be a duration");
  }

  @Test
  void networkConfsBecomeTheClientsRetriesAndTimeouts() {
    ClientSettings s = confs(Map.of(SessionConfs.NUM_RETRIES, "10", SessionConfs.MAX_RETRY_DURATION, "60000",
        SessionConfs.TIMEOUT, "90s")).apply(ClientSettings.DEFAULT);
    assertThat(s.retry().maxAttempts()).isEqualTo(11);
    assertThat(s.retry().maxTotal()).isEqualTo(Duration.ofMinutes(1));
    assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThat(s.readTimeout()).isEqualTo(Duration.ofSeconds(90));
    assertThatThrownBy(() -> confs(Map.of(SessionConfs.NUM_RETRIES, "-1")))
        .hasMessageContaining(SessionConfs.NUM_RETRIES + " must be a number >= 0");
    assertThatThrownBy(() -> confs(Map.of(SessionConfs.TIMEOUT, "0s")))
        .hasMessageContaining(SessionConfs.TIMEOUT + " must be a positive duration");
  }

  @Test
  void paginationTakesThePageSizeAndBooleansAreChecked() {
    assertThat(confs(Map.of(SessionConfs.QUERY_PAGINATION, "true")).filesPerRequest()).isEqualTo(100_000);
    assertThat(confs(Map.of(SessionConfs.QUERY_PAGINATION, "true", SessionConfs.MAX_FILES_PER_QUERY_REQUEST, "50"))
        .filesPerRequest()).isEqualTo(50);
    assertThat(confs(Map.of(SessionConfs.MAX_FILES_PER_QUERY_REQUEST, "50")).filesPerRequest())
        .as("a page size alone does not page").isNull();
    assertThatThrownBy(() -> confs(Map.of(SessionConfs.JSON_PREDICATE_HINTS, "off")))
        .hasMessageContaining(SessionConfs.JSON_PREDICATE_HINTS + " must be true or false, not 'off'");
  }
}
