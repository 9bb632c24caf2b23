package io.sharestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.AsyncMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each exit code class with its one stderr line; secrets never printed. */
class ExitCodesTest {
  private static final String WRONG_TOKEN = "wrong-token-0123456789abcdef";
  private static final String CLIENT_SECRET = "client-secret-0123456789abcdef";

  @TempDir
  static Path tmp;
  static DeltaSharingServer server;
  static String profile;

  @BeforeAll
  static void serve() throws IOException {
    Fixtures.orders(tmp.resolve("orders"));
    Fixtures.orders(tmp.resolve("nohistory"));
    Fixtures.orders(tmp.resolve("corrupt"));
    try (Stream<Path> files = Files.walk(tmp.resolve("corrupt"))) {
      for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".parquet"))::iterator) {
        Files.write(f, new byte[(int) Files.size(f)]); // same size, no Parquet in it
      }
    }
    DeltaTableWriter.create(tmp.resolve("variant"), Fixtures.ORDERS)
        .protocol(3, 7, List.of("variantType", "catalogOwned-preview"), List.of("variantType", "catalogOwned-preview"))
        .commit(); // variants are read, catalog-owned tables are not
    server = DeltaSharingServer.builder().table("s", "sc", "orders", tmp.resolve("orders"), true)
        .table("s", "sc", "nohistory", tmp.resolve("nohistory"), false)
        .table("s", "sc", "corrupt", tmp.resolve("corrupt"), true)
        .table("broken", "sc", "ok", tmp.resolve("orders"), true)
        .table("broken", "sc", "variant", tmp.resolve("variant"), true)
        .table("broken", "sc", "gone", Files.createDirectories(tmp.resolve("gone")), true).start();
    server.enableOAuth("client", "the-right-secret", Duration.ofMinutes(5));
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @AfterEach
  void clearFaults() {
    server.faults().clear();
  }

  @Test
  void successIsZero() {
    assertThat(Cli.run("shares", "--profile", profile).code()).isZero();
  }

  @Test
  void noCommandIsAUsageErrorShowingTheCommands() {
    Cli.Run r = Cli.run();

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(Cli.lines("Name a command: help, shares, tables, describe, head, changes, tail.",
        "Try 'sharestream --help' for more information."));
  }

  @Test
  void aVersionAfterTheLatestSaysSoNotThatItWasCleanedUp() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders", "--version", "99");

    assertThat(r.code()).isEqualTo(5);
    assertThat(r.err()).contains("is after the table's latest version (3): ask for the latest version or an "
        + "earlier one").doesNotContain("cleaned up");
  }

  @Test
  void anAsynchronousQueryTheServerRefusedIsARequestErrorNotAFailingServer() {
    server.async("s.sc.orders", AsyncMode.ALWAYS);
    try {
      server.faults().queryFails(1, "Cannot load table version 99 as the latest version is 3.");
      Cli.Run refused = Cli.run("head", "--profile", profile, "s.sc.orders");
      assertThat(refused.code()).isEqualTo(5);
      assertThat(refused.err()).contains("is after the table's latest version (3)").doesNotContain("..");

      server.faults().queryFails(1, "warehouse stopped.");
      Cli.Run failing = Cli.run("head", "--profile", profile, "s.sc.orders");
      assertThat(failing.code()).isEqualTo(6);
      assertThat(failing.err()).contains("failed on the server: warehouse stopped. Nothing was read");
    } finally {
      server.async("s.sc.orders", AsyncMode.NEVER);
    }
  }

  @Test
  void aUsageErrorIsOneLineAndWhereHelpIs() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders", "--colour");

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo(Cli.lines("Unknown option: '--colour'",
        "Try 'sharestream head --help' for more information."));
  }

  @Test
  void invertedChangeRangesAndContradictoryModesAreUsageErrorsCheckedBeforeAnyRequest() {
    server.requests().clear();
    Cli.Run inverted = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from", "3", "--to", "1");
    Cli.Run times = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from-timestamp",
        "2024-01-02T00:00:00Z", "--to-timestamp", "2024-01-01T00:00:00Z");
    Cli.Run modes = Cli.run("tail", "--profile", profile, "s.sc.orders", "--read-change-feed",
        "--skip-change-commits");

    assertThat(inverted.code()).isEqualTo(2);
    assertThat(inverted.err()).startsWith("--to 1 is before --from 3");
    assertThat(times.code()).isEqualTo(2);
    assertThat(times.err()).startsWith("--to-timestamp 2024-01-01T00:00:00Z is before --from-timestamp");
    assertThat(modes.code()).isEqualTo(2);
    assertThat(modes.err()).startsWith("--read-change-feed and --skip-change-commits do not go together");
    assertThat(server.requests().entries()).isEmpty();
  }

  @Test
  void anUnknownOptionIsAUsageError() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders", "--colour");

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("Unknown option: '--colour'");
  }

  @Test
  void aTableNameWithoutThreePartsIsAUsageError() {
    Cli.Run r = Cli.run("describe", "--profile", profile, "sc.orders");

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("The table must name a table as <share>.<schema>.<table>, not 'sc.orders'.");
  }

  @Test
  void noProfileIsAUsageError() {
    Cli.Run r = Cli.run("shares");

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("Missing required option: '--profile=<file>' (or set SHARESTREAM_PROFILE)");
  }

  @Test
  void aBadDurationIsAUsageError() {
    Cli.Run r = Cli.run("tail", "--profile", profile, "s.sc.orders", "--poll-interval", "soon");

    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("'soon' is not a positive duration such as 500ms, 5s or 1m");
  }

  @Test
  void aMissingProfileFileIsABadProfile() {
    Cli.Run r = Cli.run("shares", "--profile", tmp.resolve("nowhere.share").toString());

    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).isEqualTo("sharestream: Profile file " + tmp.resolve("nowhere.share")
        + " does not exist.\n");
  }

  @Test
  void aWrongTokenIsRefusedCredentialsAndNoTokenIsPrinted() throws IOException {
    Path wrong = Files.writeString(tmp.resolve("wrong.share"),
        server.profileJson().replace(server.bearerToken(), WRONG_TOKEN));

    for (String[] command : List.of(new String[] {"shares"}, new String[] {"head", "s.sc.orders"},
        new String[] {"tail", "s.sc.orders"})) {
      Cli.Run r = Cli.run(Stream.concat(Stream.of(command), Stream.of("--profile", wrong.toString()))
          .toArray(String[]::new));

      assertThat(r.code()).isEqualTo(3);
      assertThat(r.err()).startsWith("sharestream: The Delta Sharing server rejected the credentials (HTTP 401)")
          .contains("Check the profile's credentials.").hasLineCount(1);
      assertThat(r.out() + r.err()).doesNotContain(WRONG_TOKEN).doesNotContain(server.bearerToken());
    }
  }

  @Test
  void anExpiredTokenSaysItExpiredInPlainWords() throws IOException {
    Path expired = Files.writeString(tmp.resolve("expired.share"), server.profileJson()
        .replace(server.bearerToken(), WRONG_TOKEN).replace("{", "{\"expirationTime\": \"2020-01-01T00:00:00Z\", "));

    Cli.Run r = Cli.run("shares", "--profile", expired.toString());

    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).contains("The profile's bearer token expired at 2020-01-01T00:00:00Z")
        .doesNotContain("<redacted>").doesNotContain(WRONG_TOKEN);
  }

  @Test
  void aWrongClientSecretIsRefusedCredentialsAndNoSecretIsPrinted() throws IOException {
    Path oauth = Files.writeString(tmp.resolve("oauth.share"), server.oauthProfileJson("client", CLIENT_SECRET));

    Cli.Run r = Cli.run("shares", "--profile", oauth.toString());

    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).startsWith("sharestream: ").hasLineCount(1);
    assertThat(r.out() + r.err()).doesNotContain(CLIENT_SECRET);
  }

  @Test
  void anUnknownTableIsNotFound() {
    Cli.Run r = Cli.run("describe", "--profile", profile, "s.sc.missing");

    assertThat(r.code()).isEqualTo(4);
    assertThat(r.err()).startsWith("sharestream: Not found (HTTP 404) for the version of s.sc.missing: check the "
        + "share, schema and table names").hasLineCount(1);
  }

  @Test
  void aVersionOfATableWithoutHistoryCannotBeRead() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.nohistory", "--version", "1");

    assertThat(r.code()).isEqualTo(5);
    assertThat(r.err()).startsWith("sharestream: The table is not shared with history").contains("WITH HISTORY")
        .hasLineCount(1);
  }

  @Test
  void badOptionValuesAreUsageErrorsNamingTheFlagCheckedBeforeAnyRequest() {
    server.requests().clear();
    Cli.Run format = Cli.run("head", "--profile", profile, "s.sc.orders", "--response-format", "csv");
    Cli.Run start = Cli.run("tail", "--profile", profile, "s.sc.orders", "--starting-version", "abc");
    Cli.Run zone = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from", "1", "--partition-time-zone",
        "Mars/Base");
    Cli.Run rebase = Cli.run("head", "--profile", profile, "s.sc.orders", "--datetime-rebase-mode", "sometimes");

    assertThat(List.of(format.code(), start.code(), zone.code(), rebase.code())).containsOnly(2);
    assertThat(format.err()).startsWith("--response-format must be auto, parquet or delta, not 'csv'.\n")
        .contains("Try 'sharestream head --help'");
    assertThat(start.err()).startsWith("--starting-version must be 'latest', 'snapshot', 'earliest' or a version");
    assertThat(zone.err()).startsWith("--partition-time-zone is not a time zone id: 'Mars/Base'");
    assertThat(rebase.err()).startsWith("--datetime-rebase-mode must be EXCEPTION, LEGACY or CORRECTED");
    assertThat(server.requests().entries()).isEmpty();
  }

  @Test
  void aServerMessageRepeatingTheTokenWithoutTheBearerWordPrintsNoToken() {
    server.faults().failWith(Endpoint.LIST_SHARES, 1, 400, "no access for token " + server.bearerToken());

    Cli.Run r = Cli.run("shares", "--profile", profile);

    assertThat(r.code()).isEqualTo(5);
    assertThat(r.err()).contains("no access for token <redacted>").doesNotContain(server.bearerToken());
  }

  @Test
  void aWrongEndpointPathSaysToCheckTheEndpointNotTheTableNames() throws IOException {
    Path wrong = Files.writeString(tmp.resolve("path.share"),
        server.profileJson().replace(server.endpoint(), server.endpoint() + "/nothing-here"));

    Cli.Run r = Cli.run("shares", "--profile", wrong.toString());

    assertThat(r.code()).isEqualTo(4);
    assertThat(r.err()).contains("the answer is not a Delta Sharing error: check the profile's endpoint")
        .doesNotContain("check the share, schema and table names").hasLineCount(1);
  }

  @Test
  void tablesThatCannotBeReadAreListedWithTheOthersEachWithItsErrorAndTheExitCodeOfTheFirst() {
    Cli.Run r = Cli.run("tables", "--profile", profile, "--share", "broken");

    assertThat(r.code()).isEqualTo(5);
    assertThat(r.outLines()).hasSize(5);
    assertThat(r.outLines().get(2)).startsWith("broken.sc.ok ").doesNotContain("error", "unreadable");
    assertThat(r.outLines().get(3)).startsWith("broken.sc.variant").endsWith("unreadable");
    assertThat(r.outLines().get(4)).startsWith("broken.sc.gone").endsWith("error");
    assertThat(r.err()).hasLineCount(2);
    assertThat(r.err().lines()).element(0).asString().startsWith("sharestream: broken.sc.variant: ")
        .contains("catalogOwned-preview");
    assertThat(r.err().lines()).element(1).asString().startsWith("sharestream: broken.sc.gone: ");
  }

  @Test
  void aServerThatKeepsFailingIsAServerFailure() {
    server.faults().failWith(Endpoint.LIST_SHARES, 1, 503);

    Cli.Run r = Cli.run("shares", "--profile", profile, "--max-retries", "0");

    assertThat(r.code()).isEqualTo(6);
    assertThat(r.err()).startsWith("sharestream: The Delta Sharing server kept failing for listing shares after 1 "
        + "attempt").hasLineCount(1);
  }

  @Test
  void aRetriedFailureStillSucceeds() {
    server.faults().failWith(Endpoint.LIST_SHARES, 1, 503);

    Cli.Run r = Cli.run("shares", "--profile", profile, "--max-retries", "1");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(Cli.lines("s", "broken"));
    assertThat(r.err()).startsWith("sharestream: Retrying listing shares (2/2) in ").contains(" ms after: ")
        .contains("HTTP 503").hasLineCount(1);
  }

  @Test
  void aServerThatDoesNotAnswerInTimeIsRetriedWithANoteThenAServerFailure() {
    server.faults().delay(Endpoint.LIST_SHARES, 2, Duration.ofSeconds(3));

    Cli.Run r = Cli.run("shares", "--profile", profile, "--max-retries", "1", "--timeout", "200ms");

    assertThat(r.code()).isEqualTo(6);
    assertThat(r.err().lines()).hasSize(2);
    assertThat(r.err().lines()).element(0).asString().startsWith("sharestream: Retrying listing shares (2/2)");
    assertThat(r.err().lines()).element(1).asString().startsWith("sharestream: ").contains("2 attempts")
        .contains("raise --max-retries");
  }

  @Test
  void aFileThatIsNotParquetIsAnyOtherFailureOnOneLineWithoutItsUrl() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.corrupt");

    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("sharestream: ").hasLineCount(1).doesNotContain("/storage/");
  }
}
