package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaLake4Fixtures;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.VariantValue;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables shared in the delta format (SPEC §4b) through a real Connect worker: deletion vector tables in every mode,
 * with keys and tombstones, from a server that answers history in the delta format, from one that refuses it and
 * from its object store (a table shared for directory access only);
 * column-mapped tables with logical field names (made Avro-safe, or exact with field.name.adjustment.mode=none),
 * whose RENAME and DROP give the records a new value schema version;
 * deletion vectors and column mapping switched on while streaming;
 * variant tables, whose values become string fields holding their JSON text; the type-widened and variant tables
 * Delta Lake 4.0 wrote, whose records are Delta's change feed.
 */
class DeltaFormatTablesTest {
  static ConnectHarness harness;
  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();

  @BeforeAll
  static void startCluster() {
    harness = new ConnectHarness("delta-format", false);
  }

  @AfterAll
  static void stopCluster() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void cleanUp() {
    harness.connect.connectors().forEach(c -> harness.connect.deleteConnector((String) c));
    servers.forEach(DeltaSharingServer::close);
  }

  private String serve(String name, boolean history, DeltaTableWriter... tables) {
    DeltaSharingServer.Builder b = DeltaSharingServer.builder().historyInDeltaFormat(history);
    for (int i = 0; i < tables.length; i++) {
      b.table("s", "sc", "t" + i, tables[i].dir(), true);
    }
    DeltaSharingServer s = b.start();
    servers.add(s);
    return s.writeProfile(tmp.resolve(name + ".share")).toString();
  }

  @Test
  void deletionVectorTablesEmitTheRowsOfTheirMatrixInEveryModeWithKeysAndTombstones() throws Exception {
    DeltaTableWriter cdf = DeletionVectorMatrix.write(tmp.resolve("cdf"), true, false);
    DeltaTableWriter plain = DeletionVectorMatrix.write(tmp.resolve("plain"), false, true);
    String answered = serve("answered", true, cdf, plain);
    String refused = serve("refused", false, cdf);
    DeltaSharingServer store = DeltaSharingServer.builder().table("s", "sc", "t0", cdf.dir(), true)
        .accessModes("s.sc.t0", AccessMode.DIR).start();
    servers.add(store);
    String directory = store.writeProfile(tmp.resolve("directory.share")).toString();
    for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
      for (String server : List.of("answered", "refused", "directory")) {
        Map<String, String> c = ConnectHarness.config(server.equals("answered") ? answered
            : server.equals("refused") ? refused : directory,
            server.equals("answered") ? "s.sc.t0,s.sc.t1" : "s.sc.t0", "startingVersion", "1",
            "topic.prefix", server + "-" + mode.name().toLowerCase() + ".", "key.columns", "s.sc.t0:id",
            "tombstones.on.delete", "true", "files.per.batch", "2", "s3Endpoint", store.objectStore().endpoint(),
            "s3Region", store.objectStore().region(), "s3PathStyleAccess", "true");
        c.putAll(mode.options);
        harness.deploy(server + "-" + mode.name().toLowerCase(), c, 1);
      }
    }
    for (ChangeMatrix.Mode mode : ChangeMatrix.Mode.values()) {
      for (String topic : List.of("answered-%s.s.sc.t0", "answered-%s.s.sc.t1", "refused-%s.s.sc.t0",
          "directory-%s.s.sc.t0")) {
        String name = String.format(topic, mode.name().toLowerCase());
        // snapshots carry no change data; the log read from the store has it, as history in the delta format does
        boolean withCdf = name.endsWith("t0") && !name.startsWith("refused");
        List<String> expected = DeletionVectorMatrix.expected(mode, withCdf);
        boolean keyed = name.endsWith("t0");
        long deletes = expected.stream().filter(e -> e.contains(":delete@")).count();
        int records = expected.size() + (keyed ? (int) deletes : 0);
        List<ConnectHarness.Rec> got = harness.read(name, records, ConnectorStreamingTest.WAIT);
        List<String> flow = got.stream().filter(r -> r.value != null).map(ConnectHarness.Rec::flow)
            .collect(Collectors.toList());
        assertThat(ChangeMatrix.canonical(flow)).as(name).isEqualTo(ChangeMatrix.canonical(expected));
        for (int i = 0; i < got.size(); i++) { // every delete of a keyed table is followed by its tombstone
          if (keyed && got.get(i).value != null && got.get(i).flow().contains(":delete@")) {
            assertThat(got.get(i + 1).value).as(name + " tombstone").isNull();
            assertThat(got.get(i + 1).key.path("id").asLong()).isEqualTo(got.get(i).id());
          }
        }
        assertThat(harness.readAll(name, false)).as(name + ": nothing more").hasSize(records);
      }
    }
    assertThat(store.requests().count(Endpoint.QUERY) + store.requests().count(Endpoint.CHANGES))
        .as("no URL was asked for").isZero();
    assertThat(store.requests().count(Endpoint.OBJECT_STORE)).isPositive();
  }

  @Test
  void columnMappedTablesCarryLogicalNamesAvroSafeOrExactAndARenameOrDropGivesANewValueSchemaVersion()
      throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("mapped"), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("name", DeltaType.STRING),
        DeltaType.field("note", DeltaType.STRING), DeltaType.field("region", DeltaType.STRING)))
        .partitionedBy("region").columnMapping("id").deletionVectors(true).commit(); // 0
    table.append(List.of(row(0, "name", "a0", "note", "n0", "region", "EU"))); // 1
    String profile = serve("mapped", true, table);
    harness.deploy("mapped", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "0",
        "topic.prefix", "mapped.", "value.converter", "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable", "true"), 1);
    List<ConnectHarness.Rec> first = harness.read("mapped.s.sc.t0", 1, ConnectorStreamingTest.WAIT);
    table.renameColumn("name", "full name"); // 2: names Avro refuses
    table.append(List.of(row(1, "full name", "a1", "note", "n1", "region", "US"))); // 3
    table.dropColumn("note"); // 4
    table.renameColumn("region", "event-type"); // 5
    table.append(List.of(row(2, "full name", "a2", "event-type", "EU"))); // 6
    table.deleteWhere(r -> r.get("id").equals(0L)); // 7: a deletion vector, nothing to emit by default
    List<ConnectHarness.Rec> all = harness.read("mapped.s.sc.t0", 3, ConnectorStreamingTest.WAIT);
    assertThat(all).hasSize(3);
    assertThat(payload(first.get(0))).isEqualTo(Map.of("id", 0, "name", "a0", "note", "n0", "region", "EU"));
    assertThat(payload(all.get(1))).isEqualTo(Map.of("id", 1, "full_name", "a1", "note", "n1", "region", "US"));
    assertThat(payload(all.get(2))).isEqualTo(Map.of("id", 2, "full_name", "a2", "event_type", "EU"));
    List<Integer> versions = all.stream().map(r -> r.value.path("schema").path("version").asInt())
        .collect(Collectors.toList());
    assertThat(versions.get(1)).isGreaterThan(versions.get(0));
    assertThat(versions.get(2)).isGreaterThan(versions.get(1));

    // the table's own names, in values and keys
    harness.deploy("mapped-exact", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "3",
        "topic.prefix", "mapped-exact.", "field.name.adjustment.mode", "none", "key.columns", "s.sc.t0:full name",
        "value.converter", "org.apache.kafka.connect.json.JsonConverter", "value.converter.schemas.enable", "true"),
        1);
    List<ConnectHarness.Rec> exact = harness.read("mapped-exact.s.sc.t0", 2, ConnectorStreamingTest.WAIT);
    // read after the DROP and RENAME: version 3's row comes in the table's schema of now
    assertThat(payload(exact.get(0))).isEqualTo(Map.of("id", 1, "full name", "a1", "event-type", "US"));
    assertThat(payload(exact.get(1))).isEqualTo(Map.of("id", 2, "full name", "a2", "event-type", "EU"));
    assertThat(exact.get(1).key.path("full name").asText()).isEqualTo("a2");
    Thread.sleep(1000);
    assertThat(harness.readAll("mapped.s.sc.t0", false)).hasSize(3);
    assertThat(harness.readAll("mapped-exact.s.sc.t0", false)).hasSize(2);
  }

  @Test
  void deletionVectorsSwitchedOnWhileStreamingAreReadFromTheirVersionOnAndAfterAStopAndResume() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("switch"), ChangeMatrix.SCHEMA).commit(); // 0
    table.append(ChangeMatrix.rows(0, 4), 2); // 1: parquet answers
    table.append(ChangeMatrix.rows(4, 6)); // 2
    String profile = serve("switch", true, table);
    harness.deploy("switch", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "1", "readChangeFeed",
        "true", "topic.prefix", "switch.", "poll.interval.ms", "200"), 1);
    harness.read("switch.s.sc.t0", 6, ConnectorStreamingTest.WAIT);

    table.setProperty("delta.enableDeletionVectors", "true"); // 3: delta answers from now on
    table.append(ChangeMatrix.rows(6, 10), 2); // 4
    harness.read("switch.s.sc.t0", 10, ConnectorStreamingTest.WAIT);
    harness.connect.stopConnector("switch");
    harness.connect.assertions().assertConnectorIsStopped("switch", "did not stop");
    table.deleteWhere(r -> ((Number) r.get("id")).longValue() % 2 == 0); // 5: deletion vectors
    table.append(ChangeMatrix.rows(10, 11)); // 6
    harness.connect.resumeConnector("switch");

    List<ConnectHarness.Rec> got = harness.read("switch.s.sc.t0", 16, ConnectorStreamingTest.WAIT);
    List<String> flow = got.stream().map(ConnectHarness.Rec::flow).collect(Collectors.toList());
    assertThat(flow.subList(10, 16)).containsExactlyInAnyOrder("0:delete@5/u0", "2:delete@5/u2", "4:delete@5/u4",
        "6:delete@5/u6", "8:delete@5/u8", "10:insert@6/u10");
    assertThat(flow.subList(0, 10)).extracting(f -> f.substring(0, f.indexOf(':'))).doesNotHaveDuplicates()
        .hasSize(10);
    Thread.sleep(1000);
    assertThat(harness.readAll("switch.s.sc.t0", false)).hasSize(16);
  }

  @Test
  void columnMappingSwitchedOnWhileStreamingIsReadFromItsVersionOnAndAfterAStopAndResume() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("mapping"), ChangeMatrix.SCHEMA).commit(); // 0
    table.append(ChangeMatrix.rows(0, 4), 2); // 1: parquet answers
    String profile = serve("mapping", true, table);
    harness.deploy("mapping", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "1", "readChangeFeed",
        "true", "topic.prefix", "mapping.", "poll.interval.ms", "200"), 1);
    harness.read("mapping.s.sc.t0", 4, ConnectorStreamingTest.WAIT);

    table.setProperty("delta.columnMapping.mode", "name"); // 2: delta answers from now on
    table.append(ChangeMatrix.rows(4, 8), 2); // 3: written under the physical names
    harness.read("mapping.s.sc.t0", 8, ConnectorStreamingTest.WAIT);
    harness.connect.stopConnector("mapping");
    harness.connect.assertions().assertConnectorIsStopped("mapping", "did not stop");
    table.append(ChangeMatrix.rows(8, 9)); // 4
    harness.connect.resumeConnector("mapping");

    List<ConnectHarness.Rec> got = harness.read("mapping.s.sc.t0", 9, ConnectorStreamingTest.WAIT);
    assertThat(got.stream().map(ConnectHarness.Rec::flow).sorted()).containsExactly("0:insert@1/u0",
        "1:insert@1/u1", "2:insert@1/u2", "3:insert@1/u3", "4:insert@3/u4", "5:insert@3/u5", "6:insert@3/u6",
        "7:insert@3/u7", "8:insert@4/u8");
    Thread.sleep(1000);
    assertThat(harness.readAll("mapping.s.sc.t0", false)).hasSize(9);
  }

  @Test
  void aColumnWidenedWhileStreamingGivesTheRecordsANewValueSchemaVersionAndOldFilesReadWide() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("widened"), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("qty", DeltaType.INTEGER))).commit(); // 0
    table.append(List.of(row(0, "qty", 5))); // 1
    String profile = serve("widened", true, table);
    harness.deploy("widened", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "0",
        "topic.prefix", "widened.", "poll.interval.ms", "200", "value.converter",
        "org.apache.kafka.connect.json.JsonConverter", "value.converter.schemas.enable", "true"), 1);
    List<ConnectHarness.Rec> first = harness.read("widened.s.sc.t0", 1, ConnectorStreamingTest.WAIT);
    table.widenColumn("qty", DeltaType.LONG); // 2
    table.append(List.of(row(1, "qty", 5_000_000_000L))); // 3

    List<ConnectHarness.Rec> all = harness.read("widened.s.sc.t0", 2, ConnectorStreamingTest.WAIT);
    assertThat(qtyType(first.get(0))).isEqualTo("int32");
    assertThat(qtyType(all.get(1))).isEqualTo("int64");
    assertThat(all.get(1).value.path("payload").path("qty").asLong()).isEqualTo(5_000_000_000L);
    assertThat(all.get(1).value.path("schema").path("version").asInt())
        .isGreaterThan(first.get(0).value.path("schema").path("version").asInt());

    // a connector started after the widening reads the old file under the wide type
    harness.deploy("widened-later", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "0",
        "topic.prefix", "widened-later.", "value.converter", "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable", "true"), 1);
    List<ConnectHarness.Rec> later = harness.read("widened-later.s.sc.t0", 2, ConnectorStreamingTest.WAIT);
    assertThat(later).extracting(DeltaFormatTablesTest::qtyType).containsOnly("int64");
    assertThat(later.get(0).value.path("payload").path("qty").asLong()).isEqualTo(5L);
  }

  @Test
  void variantColumnsBecomeStringFieldsHoldingTheirJsonText() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("variant"), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("doc", DeltaType.VARIANT))).commit(); // 0
    table.append(List.of(row(0, "doc", VariantValue.object("b", List.of(1, 2.5, "x"), "a",
            VariantValue.object("t", java.time.Instant.parse("2024-01-01T00:00:00.5Z")))),
        row(1, "doc", "plain \"text\""), row(2, "doc", null), row(3, "doc", VariantValue.NULL))); // 1
    String profile = serve("variant", true, table);
    harness.deploy("variant", ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "0",
        "topic.prefix", "variant.", "value.converter", "org.apache.kafka.connect.json.JsonConverter",
        "value.converter.schemas.enable", "true"), 1);
    List<ConnectHarness.Rec> got = harness.read("variant.s.sc.t0", 4, ConnectorStreamingTest.WAIT);
    Map<Long, JsonNode> docs = new java.util.TreeMap<>();
    got.forEach(r -> docs.put(r.value.path("payload").path("id").asLong(), r.value.path("payload").path("doc")));
    assertThat(docs.get(0L).asText()).isEqualTo("{\"a\":{\"t\":\"2024-01-01 00:00:00.5+00:00\"},"
        + "\"b\":[1,2.5,\"x\"]}");
    assertThat(docs.get(1L).asText()).isEqualTo("\"plain \\\"text\\\"\"");
    assertThat(docs.get(2L).isNull()).as("SQL NULL").isTrue();
    assertThat(docs.get(3L).asText()).as("variant null").isEqualTo("null");
    JsonNode field = null;
    for (JsonNode f : got.get(0).value.path("schema").path("fields")) {
      if (f.path("field").asText().equals("doc")) {
        field = f;
      }
    }
    assertThat(field.path("type").asText()).isEqualTo("string");
    assertThat(field.path("name").asText()).isEqualTo(ConnectSchemas.VARIANT_JSON);
    assertThat(field.path("optional").asBoolean()).isTrue();
  }

  /**
   * The tables Delta Lake 4.0 wrote (type widening, variant; {@link DeltaLake4Fixtures}), streamed from version 1 in
   * readChangeFeed mode through every widening: the records of each version where Delta answers the change feed
   * are Delta's rows, the widened columns in their wide types, the variants as their JSON text.
   */
  @Test
  void tablesDeltaLake4WroteStreamAsDeltaReadsTheirChangeFeed() throws Exception {
    for (String name : DeltaLake4Fixtures.NAMES) {
      DeltaLake4Fixtures.Truth truth = DeltaLake4Fixtures.truth(name);
      Path dir = DeltaLake4Fixtures.copy(name, tmp.resolve(name));
      DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t0", dir, true).start();
      servers.add(s);
      String profile = s.writeProfile(tmp.resolve(name + ".share")).toString();
      harness.deploy("lake4-" + name, ConnectHarness.config(profile, "s.sc.t0", "startingVersion", "1",
          "readChangeFeed", "true", "topic.prefix", "lake4-" + name + ".", "time.precision.mode", "string",
          "value.converter", "org.apache.kafka.connect.json.JsonConverter",
          "value.converter.schemas.enable", "true"), 1);
      // before the versions Delta answers the feed of, both tables only inserted: the rows of the version before
      int before = truth.changesFrom() == 1 ? 0 : truth.snapshots.get(truth.changesFrom() - 1).size();
      int expected = before + truth.changeRows().values().stream().mapToInt(List::size).sum();
      List<ConnectHarness.Rec> got = harness.read("lake4-" + name + ".s.sc.t0", expected,
          ConnectorStreamingTest.WAIT);
      assertThat(got).hasSize(expected);
      java.util.NavigableMap<Long, List<String>> changes = new java.util.TreeMap<>();
      for (ConnectHarness.Rec r : got) {
        List<Object> values = new ArrayList<>();
        for (String column : truth.columns) {
          values.add(value(r.value.path("schema"), r.value.path("payload"), column));
        }
        values.add(r.headers.get(RecordConverter.HEADER_CHANGE_TYPE));
        changes.computeIfAbsent(Long.parseLong(r.headers.get(RecordConverter.HEADER_VERSION)),
            v -> new ArrayList<>()).add(DeltaLake4Fixtures.row(values));
      }
      changes.values().forEach(java.util.Collections::sort);
      assertThat(changes.tailMap(truth.changesFrom(), true)).as(name).isEqualTo(truth.changeRows());
    }
  }

  /** The value of {@code column} ({@code a} or {@code a.b}) of a JSON-converted record, as a Java value. */
  private static Object value(JsonNode schema, JsonNode payload, String column) {
    for (String part : column.split("\\.")) {
      JsonNode field = null;
      for (JsonNode f : schema.path("fields")) {
        if (f.path("field").asText().equals(part)) {
          field = f;
        }
      }
      schema = field;
      payload = payload.path(part);
      if (payload.isNull() || payload.isMissingNode()) {
        return null;
      }
    }
    String logical = schema.path("name").asText();
    if (logical.equals(org.apache.kafka.connect.data.Decimal.LOGICAL_NAME)) {
      return new java.math.BigDecimal(new java.math.BigInteger(java.util.Base64.getDecoder()
          .decode(payload.asText())), schema.path("parameters").path("scale").asInt());
    }
    if (logical.equals(ConnectSchemas.ISO_LOCAL_TIMESTAMP)) {
      return java.time.LocalDateTime.parse(payload.asText());
    }
    switch (schema.path("type").asText()) {
      case "float":
        return payload.floatValue();
      case "double":
        return payload.doubleValue();
      case "string":
        return payload.asText();
      case "boolean":
        return payload.asBoolean();
      default:
        return payload.asLong();
    }
  }

  private static String qtyType(ConnectHarness.Rec r) {
    for (JsonNode f : r.value.path("schema").path("fields")) {
      if (f.path("field").asText().equals("qty")) {
        return f.path("type").asText();
      }
    }
    return null;
  }

  private static Map<String, Object> row(long id, Object... values) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", id);
    for (int i = 0; i < values.length; i += 2) {
      r.put((String) values[i], values[i + 1]);
    }
    return r;
  }

  private static Map<String, Object> payload(ConnectHarness.Rec r) {
    Map<String, Object> out = new LinkedHashMap<>();
    JsonNode p = r.value.path("payload");
    p.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isIntegralNumber() ? e.getValue().asInt()
        : e.getValue().asText()));
    return out;
  }
}
