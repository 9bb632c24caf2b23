package io.sharestream.cli;

import static io.sharestream.cli.Cli.lines;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.delta.VariantValue;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** head and changes: the rows the core reads, rendered exactly. */
class ReadCommandsTest {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  @TempDir
  static Path tmp;
  static DeltaSharingServer server;
  static String profile;

  @BeforeAll
  static void serve() {
    Fixtures.orders(tmp.resolve("orders"));
    DeletionVectorMatrix.write(tmp.resolve("dv"), false, false);
    ColumnMappingMatrix.write(tmp.resolve("cm"), "id", true);
    DeltaTableWriter types = DeltaTableWriter.create(tmp.resolve("types"), Samples.ALL_TYPES).commit();
    types.append(Samples.allTypeRows());
    DeltaTableWriter big = DeltaTableWriter.create(tmp.resolve("big"), Fixtures.ORDERS).commit();
    for (int f = 0; f < 3; f++) {
      long first = f * 1000L;
      big.appendGenerated(1000, i -> Fixtures.order(1 + (first + i) % 9, "r" + (first + i), "1.00"));
    }
    DeltaTableWriter widened = DeltaTableWriter.create(tmp.resolve("widened"), DeltaType.struct(
        DeltaType.field("id", DeltaType.INTEGER), DeltaType.field("price", DeltaType.decimal(5, 2)))).commit();
    widened.append(List.of(Map.of("id", 1, "price", new BigDecimal("9.99"))));
    widened.widenColumn("id", DeltaType.LONG);
    widened.widenColumn("price", DeltaType.decimal(12, 4));
    widened.append(List.of(Map.of("id", 5_000_000_000L, "price", new BigDecimal("12345678.1234"))));
    DeltaTableWriter variant = DeltaTableWriter.create(tmp.resolve("variant"), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("doc", DeltaType.VARIANT))).commit();
    variant.append(List.of(Map.of("id", 1L, "doc", VariantValue.object("k", "v\"1", "a", List.of(1, 2.5))),
        Map.of("id", 2L, "doc", "text"), Map.of("id", 3L), Map.of("id", 4L, "doc", VariantValue.NULL)));
    DeltaTableWriter renamed = DeltaTableWriter.create(tmp.resolve("renamed"), Fixtures.ORDERS)
        .columnMapping("name").changeDataFeed(true).commit();
    renamed.append(List.of(Fixtures.order(1, "a", "1.00"), Samples.row("id", 2L)));
    renamed.renameColumn("name", "label");
    renamed.dropColumn("day");
    server = DeltaSharingServer.builder().table("s", "sc", "orders", tmp.resolve("orders"), true)
        .table("s", "sc", "renamed", tmp.resolve("renamed"), true)
        .table("s", "sc", "variant", tmp.resolve("variant"), true)
        .table("s", "sc", "widened", tmp.resolve("widened"), true)
        .table("s", "sc", "dv", tmp.resolve("dv"), true).table("s", "sc", "cm", tmp.resolve("cm"), true)
        .table("s", "sc", "types", tmp.resolve("types"), true).table("s", "sc", "big", tmp.resolve("big"), true)
        .view("s", "sc", "orders_view", tmp.resolve("orders"))
        .table("s", "sc", "dv_dir", tmp.resolve("dv"), true).accessModes("s.sc.dv_dir", AccessMode.DIR).start();
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void headPrintsTheSnapshotAtAVersionAsJsonLinesInColumnOrder() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders", "--version", "1");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "{\"id\":1,\"name\":\"a\",\"price\":1.50,\"day\":\"2024-01-01\",\"at\":\"2024-01-01T10:00:00.123456Z\"}",
        "{\"id\":2,\"name\":\"b\",\"price\":2.25,\"day\":\"2024-01-02\",\"at\":\"2024-01-02T10:00:00.123456Z\"}",
        "{\"id\":3,\"name\":\"c\",\"price\":3.00,\"day\":\"2024-01-03\",\"at\":\"2024-01-03T10:00:00.123456Z\"}"));
    assertThat(r.err()).isEmpty();
  }

  @Test
  void headPrintsAVariantAsAJsonStringHoldingItsJsonText() throws Exception {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.variant");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "{\"id\":1,\"doc\":\"{\\\"a\\\":[1,2.5],\\\"k\\\":\\\"v\\\\\\\"1\\\"}\"}",
        "{\"id\":2,\"doc\":\"\\\"text\\\"\"}",
        "{\"id\":3,\"doc\":null}",
        "{\"id\":4,\"doc\":\"null\"}"));
    assertThat(JSON.readTree(r.out().split("\n")[0]).path("doc").asText())
        .isEqualTo("{\"a\":[1,2.5],\"k\":\"v\\\"1\"}");
    Cli.Run table = Cli.run("head", "--profile", profile, "s.sc.variant", "-n", "2", "--format", "table");
    assertThat(table.out()).isEqualTo(lines(
        "id  doc",
        "--  ------------------------",
        " 1  {\"a\":[1,2.5],\"k\":\"v\\\"1\"}",
        " 2  \"text\""));
  }

  @Test
  void headPrintsAnAlignedTextTable() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders", "--version", "1", "-n", "2", "--format",
        "table");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "id  name  price  day         at",
        "--  ----  -----  ----------  ---------------------------",
        " 1  a      1.50  2024-01-01  2024-01-01T10:00:00.123456Z",
        " 2  b      2.25  2024-01-02  2024-01-02T10:00:00.123456Z"));
  }

  @Test
  void headOfTheLatestSnapshotShowsUpdatesAndLeavesDeletedRowsOut() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders");

    assertThat(r.code()).isZero();
    assertThat(ids(r)).containsExactlyInAnyOrder("1/a", "2/b2");
  }

  @Test
  void headOfASharedViewReadsItThroughItsAsynchronousQuery() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.orders_view");

    assertThat(r.code()).isZero();
    assertThat(ids(r)).containsExactlyInAnyOrder("1/a", "2/b2");
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isNotEmpty();
  }

  @Test
  void headOfATypeWidenedTableGivesOldFilesUnderTheWideTypes() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.widened");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).containsExactlyInAnyOrder("{\"id\":1,\"price\":9.9900}",
        "{\"id\":5000000000,\"price\":12345678.1234}");
  }

  @Test
  void headStopsReadingAtTheLastRowWanted() {
    server.requests().clear();

    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.big", "-n", "10");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).hasSize(10);
    // the snapshot lists three files (they have no stats for the limit hint to count); one was read
    List<String> filesRead = server.requests().entries(Endpoint.STORAGE).stream().map(e -> e.path).distinct()
        .collect(Collectors.toList());
    assertThat(filesRead).hasSize(1);
  }

  @Test
  void headIntoAPipeWhoseReaderEndedStopsReadingWithExitCode141() {
    server.requests().clear();
    Cli.ClosingPipe pipe = new Cli.ClosingPipe(1); // | head -1
    java.io.StringWriter err = new java.io.StringWriter();

    int code = Cli.run(pipe, err, "head", "--profile", profile, "s.sc.big", "-n", "2000000");

    assertThat(code).isEqualTo(Failures.OUTPUT_CLOSED);
    assertThat(pipe.read.toString().lines()).hasSize(1);
    assertThat(err.toString()).isEmpty();
    assertThat(server.requests().entries(Endpoint.STORAGE).stream().map(e -> e.path).distinct())
        .as("no file after the first").hasSize(1);
  }

  @Test
  void headOfATableWithDeletionVectorsGivesOnlyTheLiveRows() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.dv", "--version", "6", "-n", "100");

    assertThat(r.code()).isZero();
    assertThat(ids(r)).containsExactlyInAnyOrderElementsOf(DeletionVectorMatrix.rowsAt(6));
  }

  @Test
  void headOfAColumnMappedTableGivesLogicalNames() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.cm", "-n", "100");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).hasSize(7).contains(
        "{\"id\":1,\"full_name\":\"n1\",\"info\":{\"town\":\"c1\",\"zip\":1},\"items\":[{\"sku\":\"s1\",\"qty\":1}],"
            + "\"attrs\":{\"k\":1},\"area\":\"US\",\"note\":null}",
        "{\"id\":7,\"full_name\":\"n7\",\"info\":{\"town\":\"c7\",\"zip\":7},\"items\":[{\"sku\":\"s7\",\"qty\":7}],"
            + "\"attrs\":{\"k\":7},\"area\":\"US\",\"note\":\"note7\"}");
  }

  @Test
  void headRendersEveryDeltaTypeAsJsonWithoutLoss() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.types");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "{\"id\":1,\"b\":true,\"i8\":-128,\"i16\":32767,\"i32\":-2147483648,\"f32\":\"NaN\",\"f64\":\"-Infinity\","
            + "\"s\":\"quote\\\" newline\\n ünïcødé ✓\",\"bin\":\"AAH/\",\"d\":\"9999-12-31\","
            + "\"ts\":\"1969-07-20T20:17:40.123456Z\",\"ntz\":\"2024-02-29T23:59:59.999999\",\"dec5\":-999.99,"
            + "\"dec18\":12345678901234.5678,\"dec38\":-12345678901234567890.123456789012345678,"
            + "\"st\":{\"x\":7,\"y\":[\"a\",null,\"\"]},\"arr\":[1,null,3],\"nested\":[[1,2],null,[]],"
            + "\"m\":{\"k1\":{\"v\":1.5},\"k2\":null}}",
        "{\"id\":2,\"b\":false,\"i8\":0,\"i16\":-1,\"i32\":0,\"f32\":\"Infinity\",\"f64\":-0.0,\"s\":\"\",\"bin\":\"\","
            + "\"d\":\"1900-01-01\",\"ts\":\"2024-01-01T00:00:00Z\",\"ntz\":\"1970-01-01T00:00:00\",\"dec5\":0.01,"
            + "\"dec18\":0.0000,\"dec38\":0.000000000000000000,\"st\":{\"x\":null,\"y\":[]},\"arr\":[],"
            + "\"nested\":[],\"m\":{}}",
        "{\"id\":3,\"b\":null,\"i8\":null,\"i16\":null,\"i32\":null,\"f32\":null,\"f64\":null,\"s\":null,"
            + "\"bin\":null,\"d\":null,\"ts\":null,\"ntz\":null,\"dec5\":null,\"dec18\":null,\"dec38\":null,"
            + "\"st\":null,\"arr\":null,\"nested\":null,\"m\":null}"));
  }

  @Test
  void decimalsAreJsonNumbersThatParseBackExactly() throws Exception {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.types", "-n", "1");

    JsonNode row = JSON.readTree(r.out());
    assertThat(row.get("dec38").isNumber()).isTrue();
    assertThat(row.get("dec38").decimalValue()).isEqualByComparingTo("-12345678901234567890.123456789012345678");
  }

  @Test
  void aTableSharedForDirectoryAccessOnlyPrintsTheRowsOfTheSameTableSharedByUrl() {
    String[] store = {"--s3-endpoint", server.objectStore().endpoint(), "--s3-region", server.objectStore().region(),
        "--s3-path-style"};
    for (String[] command : new String[][] {{"head"}, {"head", "--version", "4"}, {"changes", "--from", "1"}}) {
      List<String> byUrl = new java.util.ArrayList<>(List.of(command));
      byUrl.addAll(List.of("--profile", profile, "s.sc.dv"));
      List<String> byDir = new java.util.ArrayList<>(List.of(command));
      byDir.addAll(List.of("--profile", profile, "s.sc.dv_dir"));
      byDir.addAll(List.of(store));
      Cli.Run url = Cli.run(byUrl.toArray(new String[0]));
      Cli.Run dir = Cli.run(byDir.toArray(new String[0]));
      assertThat(dir.code()).as(String.join(" ", command) + ": " + dir.err()).isZero();
      assertThat(dir.out()).as(String.join(" ", command)).isEqualTo(url.out()).isNotEmpty();
    }
    Cli.Run refused = Cli.run("head", "--profile", profile, "s.sc.dv_dir", "--access-mode", "url");
    assertThat(refused.code()).isNotZero();
    assertThat(refused.err()).contains("accessMode", "dir");
  }

  @Test
  void changesGiveUpdatePreAndPostImagesAndDeletesWithTheirCommits() {
    Cli.Run r = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from", "2");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "{\"id\":2,\"name\":\"b\",\"price\":2.25,\"day\":\"2024-01-02\",\"at\":\"2024-01-02T10:00:00.123456Z\","
            + "\"_change_type\":\"update_preimage\",\"_commit_version\":2,"
            + "\"_commit_timestamp\":\"2024-01-01T00:00:00.002Z\"}",
        "{\"id\":2,\"name\":\"b2\",\"price\":2.25,\"day\":\"2024-01-02\",\"at\":\"2024-01-02T10:00:00.123456Z\","
            + "\"_change_type\":\"update_postimage\",\"_commit_version\":2,"
            + "\"_commit_timestamp\":\"2024-01-01T00:00:00.002Z\"}",
        "{\"id\":3,\"name\":\"c\",\"price\":3.00,\"day\":\"2024-01-03\",\"at\":\"2024-01-03T10:00:00.123456Z\","
            + "\"_change_type\":\"delete\",\"_commit_version\":3,"
            + "\"_commit_timestamp\":\"2024-01-01T00:00:00.003Z\"}"));
  }

  @Test
  void changesOfAVersionRangeAsATextTable() {
    Cli.Run r = Cli.run("changes", "--profile", profile, "s.sc.orders", "--from", "1", "--to", "1", "--format",
        "table");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "id  name  price  day         at                           _change_type  _commit_version  _commit_timestamp",
        "--  ----  -----  ----------  ---------------------------  ------------  ---------------  ------------------------",
        " 1  a      1.50  2024-01-01  2024-01-01T10:00:00.123456Z  insert                      1  2024-01-01T00:00:00.001Z",
        " 2  b      2.25  2024-01-02  2024-01-02T10:00:00.123456Z  insert                      1  2024-01-01T00:00:00.001Z",
        " 3  c      3.00  2024-01-03  2024-01-03T10:00:00.123456Z  insert                      1  2024-01-01T00:00:00.001Z"));
  }

  @Test
  void changesOfARangeGiveItsRowsUnderTheSchemaOfItsLastVersionAsHeadAtThatVersionDoes() {
    Cli.Run before = Cli.run("changes", "--profile", profile, "s.sc.renamed", "--from", "1", "--to", "1");
    Cli.Run head = Cli.run("head", "--profile", profile, "s.sc.renamed", "--version", "1");
    Cli.Run after = Cli.run("changes", "--profile", profile, "s.sc.renamed", "--from", "1", "--to", "3");

    assertThat(before.code()).isZero();
    assertThat(before.outLines()).hasSize(2);
    assertThat(before.outLines().get(0)).startsWith("{\"id\":1,\"name\":\"a\",\"price\":1.00,\"day\":\"2024-01-01\","
        + "\"at\":").contains("\"_change_type\":\"insert\",\"_commit_version\":1,");
    assertThat(before.outLines()).extracting(l -> l.replaceAll(",\"_change_type.*", "}")).isEqualTo(head.outLines());
    assertThat(after.outLines().get(0)).startsWith("{\"id\":1,\"label\":\"a\",\"price\":1.00,\"at\":");
  }

  @Test
  void aTextTableRightAlignsNumbersAndShowsNullsUnlikeTheStringNull() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.renamed", "--version", "1", "--format", "table");

    assertThat(r.code()).isZero();
    assertThat(r.out()).isEqualTo(lines(
        "id  name  price  day         at",
        "--  ----  -----  ----------  ---------------------------",
        " 1  a      1.00  2024-01-01  2024-01-01T10:00:00.123456Z",
        " 2  NULL   NULL  NULL        NULL"));
  }

  @Test
  void changesOfATableWithDeletionVectorsDeriveDeletesFromTheVectors() {
    Cli.Run r = Cli.run("changes", "--profile", profile, "s.sc.dv", "--from", "3", "--to", "4");

    assertThat(r.code()).isZero();
    assertThat(r.outLines()).hasSize(2);
    assertThat(r.outLines().get(0)).startsWith("{\"id\":1,\"name\":\"u1\",\"_change_type\":\"delete\","
        + "\"_commit_version\":3,");
    assertThat(r.outLines().get(1)).startsWith("{\"id\":2,\"name\":\"u2\",\"_change_type\":\"delete\","
        + "\"_commit_version\":4,");
  }

  /** The {@code id/name} of each JSON line printed. */
  private static List<String> ids(Cli.Run r) {
    List<String> out = new ArrayList<>();
    for (String line : r.outLines()) {
      try {
        JsonNode n = JSON.readTree(line);
        out.add(n.get("id").asText() + "/" + n.get("name").asText());
      } catch (Exception e) {
        throw new AssertionError(line, e);
      }
    }
    return out;
  }
}
