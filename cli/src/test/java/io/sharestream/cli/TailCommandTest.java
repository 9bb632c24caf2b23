package io.sharestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tail follows new commits as they are made. */
class TailCommandTest {
  @TempDir
  Path tmp;
  DeltaSharingServer server;

  @AfterEach
  void stop() {
    server.close();
  }

  private String serve(DeltaTableWriter table) {
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    return server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @Test
  void tailFollowsTwoNewCommitsThenStopsAtMaxRecords() throws Exception {
    DeltaTableWriter table = Fixtures.orders(tmp.resolve("t"));
    String profile = serve(table);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> Cli.run(out, err, "tail", "--profile",
        profile, "s.sc.t", "--poll-interval", "100ms", "--max-records", "3"));
    await(() -> server.requests().entries().size() >= 4, "tail to start"); // version, metadata, version, version
    table.append(List.of(Fixtures.order(4, "d", "4.00"), Fixtures.order(5, "e", "5.00")));
    await(() -> out.toString().lines().count() == 2, "the first new commit's rows");
    table.append(List.of(Fixtures.order(6, "f", "6.00")));

    assertThat(tail.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString()).isEqualTo(Cli.lines(
        "{\"version\":4,\"index\":0,\"row\":{\"id\":4,\"name\":\"d\",\"price\":4.00,\"day\":\"2024-01-04\","
            + "\"at\":\"2024-01-04T10:00:00.123456Z\"}}",
        "{\"version\":4,\"index\":0,\"row\":{\"id\":5,\"name\":\"e\",\"price\":5.00,\"day\":\"2024-01-05\","
            + "\"at\":\"2024-01-05T10:00:00.123456Z\"}}",
        "{\"version\":5,\"index\":0,\"row\":{\"id\":6,\"name\":\"f\",\"price\":6.00,\"day\":\"2024-01-06\","
            + "\"at\":\"2024-01-06T10:00:00.123456Z\"}}"));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void tailTakesUpARotatedTokenFromTheReplacedProfileFileWithoutStopping() throws Exception {
    DeltaTableWriter table = Fixtures.orders(tmp.resolve("t"));
    String profile = serve(table);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> Cli.run(out, err, "tail", "--profile",
        profile, "s.sc.t", "--poll-interval", "100ms", "--max-records", "2"));
    await(() -> server.requests().entries().size() >= 4, "tail to start");
    table.append(List.of(Fixtures.order(4, "d", "4.00")));
    await(() -> out.toString().lines().count() == 1, "the first new commit's row");

    server.rotateBearerToken(); // the provider rotates the token; the recipient's tooling replaces the file
    server.writeProfile(Path.of(profile));
    table.append(List.of(Fixtures.order(5, "e", "5.00")));

    assertThat(tail.get(30, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString().lines()).hasSize(2).last().asString().contains("\"id\":5");
    assertThat(err.toString()).doesNotContain(server.bearerToken());
  }

  @Test
  void tailIntoAPipeWhoseReaderEndedStopsAtOnceWithExitCode141() throws Exception {
    DeltaTableWriter table = Fixtures.orders(tmp.resolve("t"));
    String profile = serve(table);
    Cli.ClosingPipe pipe = new Cli.ClosingPipe(2); // | head -2
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> Cli.run(pipe, err, "tail", "--profile",
        profile, "s.sc.t", "--starting-version", "1", "--poll-interval", "100ms"));
    assertThat(tail.get(30, TimeUnit.SECONDS)).isEqualTo(Failures.OUTPUT_CLOSED);
    assertThat(pipe.read.toString().lines()).hasSize(2);
    assertThat(err.toString().lines()).allMatch(l -> l.startsWith("sharestream: Change commit ")); // hints, no error
  }

  @Test
  void tailFromAVersionWithTheChangeFeedGivesEveryChangeWithItsType() {
    String profile = serve(Fixtures.orders(tmp.resolve("t")));

    Cli.Run r = Cli.run("tail", "--profile", profile, "s.sc.t", "--starting-version", "2", "--read-change-feed",
        "--max-records", "3");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).extracting(l -> l.replaceAll(",\"_commit_timestamp\":\"[^\"]+\"", ""))
        .containsExactly(
            "{\"version\":2,\"index\":0,\"row\":{\"id\":2,\"name\":\"b\",\"price\":2.25,\"day\":\"2024-01-02\","
                + "\"at\":\"2024-01-02T10:00:00.123456Z\",\"_change_type\":\"update_preimage\","
                + "\"_commit_version\":2}}",
            "{\"version\":2,\"index\":0,\"row\":{\"id\":2,\"name\":\"b2\",\"price\":2.25,\"day\":\"2024-01-02\","
                + "\"at\":\"2024-01-02T10:00:00.123456Z\",\"_change_type\":\"update_postimage\","
                + "\"_commit_version\":2}}",
            "{\"version\":3,\"index\":0,\"row\":{\"id\":3,\"name\":\"c\",\"price\":3.00,\"day\":\"2024-01-03\","
                + "\"at\":\"2024-01-03T10:00:00.123456Z\",\"_change_type\":\"delete\",\"_commit_version\":3}}");
  }

  @Test
  void tailFromTheSnapshotWithSkippedChangeCommitsGivesTheRowsThenOnlyAppends() throws Exception {
    DeltaTableWriter table = Fixtures.orders(tmp.resolve("t"));
    String profile = serve(table);
    StringWriter out = new StringWriter();

    CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> Cli.run(out, new StringWriter(), "tail",
        "--profile", profile, "s.sc.t", "--starting-version", "snapshot", "--skip-change-commits",
        "--poll-interval", "100ms", "--max-records", "3"));
    await(() -> out.toString().lines().count() == 2, "the snapshot's rows");
    table.deleteWhere(r -> r.get("id").equals(1L)); // skipped
    table.append(List.of(Fixtures.order(7, "g", "7.00")));

    assertThat(tail.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString().lines()).extracting(l -> l.replaceAll(",\"row\".*\"name\":(\"\\w+\").*", " $1"))
        .containsExactlyInAnyOrder("{\"version\":3,\"index\":0 \"a\"", "{\"version\":3,\"index\":0 \"b2\"",
            "{\"version\":5,\"index\":0 \"g\"");
  }

  @Test
  void tailGoesOnUnderTheNewNamesWhenAColumnIsRenamedWhileItFollows() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.ORDERS).columnMapping("name")
        .commit();
    table.append(List.of(Fixtures.order(1, "a", "1.00")));
    String profile = serve(table);
    StringWriter out = new StringWriter();

    CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> Cli.run(out, new StringWriter(), "tail",
        "--profile", profile, "s.sc.t", "--starting-version", "1", "--poll-interval", "100ms", "--max-records", "2"));
    await(() -> out.toString().lines().count() == 1, "the first row");
    table.renameColumn("name", "label");
    Map<String, Object> renamed = Fixtures.order(2, "b", "2.00");
    renamed.put("label", renamed.remove("name"));
    table.append(List.of(renamed));

    assertThat(tail.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(out.toString().lines()).extracting(l -> l.replaceAll(",\"price\".*", ""))
        .containsExactly("{\"version\":1,\"index\":0,\"row\":{\"id\":1,\"name\":\"a\"",
            "{\"version\":3,\"index\":0,\"row\":{\"id\":2,\"label\":\"b\"");
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(20);
    }
  }
}
