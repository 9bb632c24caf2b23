package io.sharestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the CLI says on stderr beside the rows: the core's hints in its terms, empty ranges, status lines. */
class StderrNotesTest {
  @TempDir
  static Path tmp;
  static DeltaSharingServer server;
  static String profile;
  static DeltaTableWriter live;

  @BeforeAll
  static void serve() {
    Fixtures.orders(tmp.resolve("orders"));
    live = DeltaTableWriter.create(tmp.resolve("live"), Fixtures.ORDERS).commit();
    live.append(List.of(Fixtures.order(1, "a", "1.00")));
    server = DeltaSharingServer.builder().table("s", "sc", "orders", tmp.resolve("orders"), true)
        .table("s", "sc", "live", tmp.resolve("live"), true).start();
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @AfterEach
  void noTerminal() {
    System.clearProperty(Terminal.PROPERTY);
  }

  @Test
  void aBearerTokenExpiringWithinAWeekIsWarnedAboutNamingTheProfileFileToReplace() throws Exception {
    String expiring = java.time.Instant.now().plus(java.time.Duration.ofDays(3)).toString();
    java.nio.file.Path file = java.nio.file.Files.write(tmp.resolve("expiring.share"), ("{\"shareCredentialsVersion\":"
        + "1,\"endpoint\":\"" + server.endpoint() + "\",\"bearerToken\":\"" + server.bearerToken()
        + "\",\"expirationTime\":\"" + expiring + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8));

    Cli.Run r = Cli.run("shares", "--profile", file.toString());

    assertThat(r.code()).isZero();
    assertThat(r.err()).contains("sharestream: The profile's bearer token expires at " + expiring + ", in 2 days: "
        + "replace the profile file " + file + " with the provider's new one").doesNotContain(server.bearerToken());
  }

  @Test
  void theCoreHintThatAChangeCommitsDeletesAreNotEmittedShowsOnStderrNamingTheFlag() {
    Cli.Run r = Cli.run("tail", "--profile", profile, "s.sc.orders", "--starting-version", "1", "--max-records",
        "4");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).hasSize(4);
    assertThat(r.err()).contains("sharestream: Change commit 2 of s.sc.orders removed 1 file and added ")
        .contains("(pass --read-change-feed to receive them)").doesNotContain("readChangeFeed");
  }

  @Test
  void changesFromAfterTheLatestVersionSaySoAndPrintNothing() {
    Cli.Run version = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from", "99");
    Cli.Run time = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from-timestamp",
        "2030-01-01T00:00:00Z");

    assertThat(version.code()).isZero();
    assertThat(version.out()).isEmpty();
    assertThat(version.err()).isEqualTo(Cli.lines("sharestream: No changes: the range starts at version 99, "
        + "after the table's latest version (3)."));
    assertThat(time.code()).isZero();
    assertThat(time.out()).isEmpty();
    assertThat(time.err()).contains("sharestream: No changes: the range starts at version 4, after the table's "
        + "latest version (3).");
  }

  @Test
  void aStatusLineShowsWhileTablesAreProbedOnlyWhenStderrIsATerminal() {
    Cli.Run pipe = Cli.run("tables", "--profile", profile);
    System.setProperty(Terminal.PROPERTY, "true");
    Cli.Run terminal = Cli.run("tables", "--profile", profile);

    assertThat(pipe.err()).isEmpty();
    assertThat(terminal.out()).isEqualTo(pipe.out());
    assertThat(terminal.err()).isEqualTo("sharestream: probing s.sc.orders (1)...\r\033[2K"
        + "sharestream: probing s.sc.live (2)...\r\033[2K");
  }

  @Test
  void tailSaysWhatItWaitsForOnATerminalAndClearsItBeforeTheRows() throws Exception {
    System.setProperty(Terminal.PROPERTY, "true");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> Cli.run(out, err, "tail", "--profile",
        profile, "s.sc.live", "--poll-interval", "100ms", "--max-records", "1"));
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!err.toString().contains("waiting for version 2") && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    live.append(List.of(Fixtures.order(4, "d", "4.00")));

    assertThat(tail.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString()).startsWith("{\"version\":2,\"index\":0,\"row\":{\"id\":4,");
    assertThat(err.toString()).startsWith("sharestream: following s.sc.live: waiting for version 2 (Ctrl-C ends)")
        .endsWith("\r\033[2K");
  }
}
