package io.sharestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.errors.Errors;
import org.junit.jupiter.api.Test;

/** The core's messages say what to do with the engines' options; the CLI says it with its flags. */
class CliTermsTest {
  @Test
  void optionSettingsBecomeTheFlagsOfTheRunningCommand() {
    assertThat(CliTerms.of("(set readChangeFeed=true to receive them)", "tail"))
        .isEqualTo("(pass --read-change-feed to receive them)");
    assertThat(CliTerms.of("(or set readChangeFeed=false)", "tail")).isEqualTo("(or leave out --read-change-feed)");
    assertThat(CliTerms.of("set responseFormat=auto (the default) or delta.", "head"))
        .isEqualTo("pass --response-format auto (the default) or delta.");
    assertThat(CliTerms.of("'startingVersion' cannot be negative: -1.", "tail"))
        .isEqualTo("--starting-version cannot be negative: -1.");
    assertThat(CliTerms.of("'startingVersion' cannot be negative: -1.", "changes"))
        .isEqualTo("--from cannot be negative: -1.");
  }

  @Test
  void remediesForResumingStreamsBecomeTheCliOnes() {
    String cleanedUp = Errors.fromResponse(400, "Cannot load table version 3: it is before the earliest available "
        + "version 5.", "the query of s.sc.t", null).getMessage();
    String failing = Errors.retriesExhausted("listing shares", 5, new RuntimeException("HTTP 503")).getMessage();

    assertThat(CliTerms.of(cleanedUp, "tail")).contains("Start from a later version: set a newer "
        + "--starting-version.").doesNotContain("checkpoint");
    assertThat(CliTerms.of(failing, "shares")).contains("raise --max-retries if the server needs longer");
  }

  @Test
  void wordsThatOnlyContainAnOptionNameStayAsTheyAre() {
    assertThat(CliTerms.of("readChangeFeedX and myresponseFormat", "tail"))
        .isEqualTo("readChangeFeedX and myresponseFormat");
  }
}
