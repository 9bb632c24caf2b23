package io.sharestream.common.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets leave no message, by pattern (bearer tokens, pre-signed URLs) and by value (the tokens the JVM holds); nor
 * do a parser's internals.
 */
class RedactionTest {
  @TempDir Path tmp;

  @Test
  void aServerMessageRepeatingTheProfileTokenWithoutTheBearerWordLosesTheToken() {
    DeltaTableWriter.create(tmp.resolve("t"), DeltaType.struct(DeltaType.field("id", DeltaType.LONG))).commit();
    try (DeltaSharingServer server = DeltaSharingServer.builder().bearerToken("plainlettersonlytoken")
        .table("s", "sc", "t", tmp.resolve("t"), true).start()) {
      server.faults().failWith(Endpoint.LIST_SHARES, 1, 400, "token plainlettersonlytoken is not valid here");
      ClientSettings settings = ClientSettings.DEFAULT.withRetry(new RetrySettings(1, Duration.ofMillis(1),
          Duration.ofMillis(1), Duration.ofSeconds(5)));
      try (DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          settings)) {
        assertThatThrownBy(() -> client.listShares().hasNext()).isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("token <redacted> is not valid here")
            .hasMessageNotContaining("plainlettersonlytoken");
      }
    }
  }

  @Test
  void anExpiredTokenMessageKeepsItsWords() {
    DeltaSharingException e = Errors.fromResponse(401, "", "listing shares", Instant.parse("2020-01-01T00:00:00Z"));

    assertThat(e.getMessage()).contains("bearer token expired at 2020-01-01T00:00:00Z").doesNotContain("<redacted>");
  }

  @Test
  void bearerTokensAndPresignedQueriesAreRedactedByPattern() {
    assertThat(Errors.redact("Authorization: Bearer dapi0123456789abcdef, see https://h/p/f.parquet?X-Sig=abc s"))
        .isEqualTo("Authorization: Bearer <redacted>, see https://h/p/f.parquet?<redacted> s");
  }

  @Test
  void anAnswerThatIsNotJsonIsDescribedWithoutTheParsersInternals() {
    Throwable parse = org.assertj.core.api.Assertions.catchThrowable(() ->
        new com.fasterxml.jackson.databind.ObjectMapper().readTree("<html>\nNot Found</html>"));

    assertThat(Errors.describe(parse)).startsWith("the answer is not valid JSON (line 1, column 2): Unexpected "
        + "character ('<'").doesNotContain("Source").doesNotContain("\n");
  }

  @Test
  void shortValuesAreNotTreatedAsSecrets() {
    Secrets.register("abc");

    assertThat(Errors.redact("abc def")).isEqualTo("abc def");
  }
}
