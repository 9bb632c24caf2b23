package io.sharestream.cli;

import static io.sharestream.cli.Cli.lines;
import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** shares, tables and describe against the kit's server, and the help a user reads. */
class InspectCommandsTest {
  @TempDir
  static Path tmp;
  static DeltaSharingServer server;
  static String profile;

  @BeforeAll
  static void serve() {
    Fixtures.orders(tmp.resolve("orders"));
    ColumnMappingMatrix.write(tmp.resolve("cm"), "name", true);
    DeltaTableWriter plain = DeltaTableWriter.create(tmp.resolve("plain"), Samples.ORDERS).commit();
    plain.append(Samples.orders(0, 2));
    DeltaTableWriter legacy = DeltaTableWriter.create(tmp.resolve("legacy"), Samples.ORDERS).columnMapping("name")
        .protocol(2, 5, null, null).commit(); // column mapping before table features: reader version 2
    legacy.append(Samples.orders(0, 1));
    server = DeltaSharingServer.builder().table("s", "sc", "orders", tmp.resolve("orders"), true)
        .table("s", "sc", "cm", tmp.resolve("cm"), true).table("s", "sc", "legacy", tmp.resolve("legacy"), true)
        .table("t2", "x", "plain", tmp.resolve("plain"), false).view("t2", "x", "plain_view", tmp.resolve("plain"))
        .start();
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void sharesListsEveryShareOfTheProfileOneALine() {
    Cli.Run r = Cli.run("shares", "--profile", profile);

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines("s", "t2"));
    assertThat(r.err()).isEmpty();
  }

  @Test
  void tablesShowsVersionHistorySharingChangeDataFeedAndReaderFeaturesOfEveryTable() {
    Cli.Run r = Cli.run("tables", "--profile", profile);

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "TABLE            VERSION  HISTORY  CDF      READER FEATURES",
        "---------------  -------  -------  -------  -----------------------------",
        "s.sc.orders      3        yes      yes      -",
        "s.sc.cm          12       yes      no       columnMapping,deletionVectors",
        "s.sc.legacy      1        yes      no       columnMapping",
        "t2.x.plain       1        no       unknown  -",
        "t2.x.plain_view  -        view     -        -"));
  }

  @Test
  void tablesOfOneShareListsOnlyItsTables() {
    Cli.Run r = Cli.run("tables", "--profile", profile, "--share", "t2");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).hasSize(4);
    assertThat(r.outLines().get(2)).startsWith("t2.x.plain ");
    assertThat(r.outLines().get(3)).startsWith("t2.x.plain_view ");
  }

  @Test
  void describeShowsTheColumnMappedSchemaUnderLogicalNamesWithNestedTypesAndTheProtocol() {
    Cli.Run r = Cli.run("describe", "--profile", profile, "s.sc.cm");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "table:              s.sc.cm",
        "version:            12",
        "history shared:     yes",
        "partition columns:  area",
        "min reader version: 3",
        "reader features:    columnMapping,deletionVectors",
        "column mapping:     name",
        "change data feed:   off",
        "schema:",
        "root",
        " |-- id: long (nullable = false)",
        " |-- full_name: string (nullable = true)",
        " |-- info: struct (nullable = true)",
        " |    |-- town: string (nullable = true)",
        " |    |-- zip: integer (nullable = true)",
        " |-- items: array (nullable = true)",
        " |    |-- element: struct (containsNull = true)",
        " |    |    |-- sku: string (nullable = true)",
        " |    |    |-- qty: integer (nullable = true)",
        " |-- attrs: map (nullable = true)",
        " |    |-- key: string",
        " |    |-- value: long (valueContainsNull = true)",
        " |-- area: string (nullable = true)",
        " |-- note: string (nullable = true)"));
  }

  @Test
  void describeOfATableWithoutHistoryShowsItsLatestMetadata() {
    Cli.Run r = Cli.run("describe", "--profile", profile, "t2.x.plain");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).contains("version:            1", "history shared:     no",
        "partition columns:  -", "min reader version: 1", "reader features:    -", "column mapping:     none",
        "change data feed:   unknown (history not shared: the server does not say)",
        " |-- amount: decimal(18,2) (nullable = true)");
  }

  @Test
  void describeOfASharedViewSaysItHasNoVersions() {
    Cli.Run r = Cli.run("describe", "--profile", profile, "t2.x.plain_view");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).contains("version:            - (a shared view: no versions, batch reads only)",
        "history shared:     no", " |-- amount: decimal(18,2) (nullable = true)");
  }

  @Test
  void aViewWhoseServerRefusesItsVersionIsDescribedAndListedAsAView() {
    try (DeltaSharingServer refusing = DeltaSharingServer.builder().viewVersionRefused(true)
        .view("t2", "x", "plain_view", tmp.resolve("plain")).start()) {
      String viewProfile = refusing.writeProfile(tmp.resolve("refusing.share")).toString();

      Cli.Run describe = Cli.run("describe", "--profile", viewProfile, "t2.x.plain_view");
      assertThat(describe.code()).isZero();
      assertThat(describe.outLines()).contains("version:            - (a shared view: no versions, batch reads only)");

      Cli.Run tables = Cli.run("tables", "--profile", viewProfile);
      assertThat(tables.code()).isZero();
      assertThat(tables.outLines().get(2).split("\\s+")).containsExactly("t2.x.plain_view", "-", "view", "-", "-");
    }
  }

  @Test
  void helpOfEveryCommandDocumentsTheExitCodes() {
    for (String command : new String[] {"shares", "tables", "describe", "head", "changes", "tail"}) {
      Cli.Run r = Cli.run(command, "--help");

      assertThat(r.code()).isZero();
      assertThat(r.out()).startsWith("Usage: sharestream " + command)
          .contains("Exit codes:", "  3  the profile cannot be read, or its credentials are refused",
              "  6  the server or network kept failing (or silent) through every retry");
    }
  }

  @Test
  void helpAndTheDocsListTheSameExitCodesWithUsageErrorsAsTwo() throws IOException {
    String help = Cli.run("head", "--help").out();
    String docs = Files.readString(Path.of("..", "docs", "cli.md"));

    assertThat(codes(help, "(?m)^  (\\d+)  ")).isEqualTo(codes(docs, "(?m)^\\| (\\d+) \\| "))
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 141);
    assertThat(help).contains("  2  usage error (unknown command or option, bad option value)");
    assertThat(docs).containsPattern("\\| 2 \\| usage error, checked before any request.*any bad option value");
  }

  private static List<Integer> codes(String text, String regex) {
    return Pattern.compile(regex).matcher(text).results().map(m -> Integer.parseInt(m.group(1)))
        .collect(Collectors.toList());
  }

  @Test
  void versionPrintsTheBuildVersion() {
    Cli.Run r = Cli.run("--version");

    assertThat(r.code()).isZero();
    assertThat(r.out()).matches("sharestream \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
  }
}
