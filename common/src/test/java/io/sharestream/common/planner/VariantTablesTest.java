package io.sharestream.common.planner;

import static io.sharestream.testkit.delta.VariantValue.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.VariantValue;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Variant tables (Delta 4.0's {@code variantType}) written by the kit and served by a kit server: a client reading
 * variants streams every row with the value's JSON text exactly as Spark renders it, in a top-level column and in a
 * struct; a client not declaring {@code variantType} refuses them naming the feature and the table, at the start or
 * at the version a variant column is added; {@code variantShredding} is refused by both.
 */
class VariantTablesTest {
  static final TableRef T = new TableRef("s", "sc", "t");
  static final DeltaType.StructType SCHEMA = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("v", DeltaType.VARIANT),
      DeltaType.field("s", DeltaType.struct(DeltaType.field("note", DeltaType.STRING),
          DeltaType.field("payload", DeltaType.VARIANT))));

  @TempDir Path tmp;
  final List<DeltaSharingServer> servers = new ArrayList<>();
  final List<DeltaSharingClient> clients = new ArrayList<>();

  @AfterEach
  void stop() {
    clients.forEach(DeltaSharingClient::close);
    servers.forEach(DeltaSharingServer::close);
  }

  private DeltaSharingClient serve(DeltaTableWriter table, ClientSettings settings) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    servers.add(s);
    DeltaSharingClient c = new DeltaSharingClient(DeltaSharingProfile.fromJson(s.profileJson()), settings
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1))));
    clients.add(c);
    return c;
  }

  /** Plans from {@code from} until caught up, handing every row read (under its unit's schema) to {@code out}. */
  static Position drain(SharingStreamPlanner p, DeltaSharingClient client, Position from,
      java.util.function.Consumer<Row> out) {
    Position pos = from;
    for (int guard = 0; guard < 100; guard++) {
      StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.UNLIMITED);
      for (WorkUnit u : plan.units()) {
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> out.accept(c.row()));
        }
      }
      if (plan.end().equals(pos)) {
        break;
      }
      pos = plan.end();
    }
    return pos;
  }

  /** Settings of a client that does not read variants (it does not declare variantType). */
  private static ClientSettings withoutVariants() {
    Set<String> features = new TreeSet<>(ProtocolInfo.SUPPORTED_READER_FEATURES);
    features.removeAll(Set.of("varianttype", "varianttype-preview", "variantshredding", "variantshredding-preview"));
    return ClientSettings.DEFAULT.withReaderFeatures(features);
  }

  static Map<String, Object> row(long id, Object v, Object payload) {
    Map<String, Object> r = new HashMap<>();
    r.put("id", id);
    r.put("v", v);
    r.put("s", payload == null ? null : object("note", "n" + id, "payload", payload));
    return r;
  }

  /** Rows of every kind of value, and the JSON text each must read as (null: SQL NULL). */
  static final List<Object[]> CASES = List.of(
      new Object[] {object("name", "widget", "size", object("w", 2, "h", new BigDecimal("1.50")), "tags",
          List.of("a", "b"), "ok", true, "none", null), "{\"name\":\"widget\",\"none\":null,\"ok\":true,"
          + "\"size\":{\"h\":1.5,\"w\":2},\"tags\":[\"a\",\"b\"]}"},
      new Object[] {List.of(1, 300, 70000, 5_000_000_000L, 2.5, -0.25f), "[1,300,70000,5000000000,2.5,-0.25]"},
      new Object[] {"say \"hi\"\n\té😀", "\"say \\\"hi\\\"\\n\\té😀\""},
      new Object[] {VariantValue.NULL, "null"},
      new Object[] {null, null},
      new Object[] {new BigDecimal("12.3400"), "12.34"},
      new Object[] {Instant.parse("2024-03-01T10:15:30.000250Z"), "\"2024-03-01 10:15:30.00025+00:00\""},
      new Object[] {LocalDate.of(2024, 2, 29), "\"2024-02-29\""},
      new Object[] {new byte[] {0, 1, 2, (byte) 0xFF}, "\"AAEC/w==\""},
      new Object[] {VariantValue.encoder().sortedDictionary(true).offsetSize(4).idSize(2).largeSizes(true)
          .encode(object("z", List.of(object("y", 1)), "a", "x".repeat(100))),
          "{\"a\":\"" + "x".repeat(100) + "\",\"z\":[{\"y\":1}]}"});

  @Test
  void variantColumnsStreamAsTheirJsonTextExactlyInEveryRow() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), SCHEMA).commit(); // 0
    assertThat(table.snapshot().protocol.readerFeatures).containsExactly("variantType");
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < CASES.size(); i++) {
      rows.add(row(i, CASES.get(i)[0], i % 2 == 0 ? CASES.get(i)[0] : null));
    }
    table.append(rows.subList(0, 5)); // 1
    table.append(rows.subList(5, rows.size()), 2); // 2: three files
    DeltaSharingClient client = serve(table, ClientSettings.DEFAULT);
    Map<Long, Row> read = new HashMap<>();
    try (SharingStreamPlanner p = new SharingStreamPlanner(client, T, StreamOptions.parse(Map.of("startingVersion",
        "1")), Duration.ZERO, Clock.systemUTC())) {
      assertThat(p.schema().field("v").type()).isEqualTo(PrimitiveType.VARIANT);
      drain(p, client, p.initialPosition(), r -> read.put((Long) r.get("id"), r));
    }
    assertThat(read).hasSize(CASES.size());
    for (int i = 0; i < CASES.size(); i++) {
      Row r = read.get((long) i);
      assertThat(r.get("v")).as("row %d", i).isEqualTo(CASES.get(i)[1]);
      Row s = (Row) r.get("s");
      if (i % 2 == 0 && CASES.get(i)[0] != null) {
        assertThat(s.get("payload")).as("row %d nested", i).isEqualTo(CASES.get(i)[1]);
        assertThat(s.get("note")).isEqualTo("n" + i);
      } else {
        assertThat(s).as("row %d nested", i).isNull();
      }
    }
    assertThat(servers.get(0).requests().entries(Endpoint.QUERY)).isNotEmpty().allSatisfy(e ->
        assertThat(e.capabilities).contains("readerfeatures=columnmapping,deletionvectors,geospatial,timestampntz,"
            + "typewidening,typewidening-preview,variantshredding,variantshredding-preview,varianttype,"
            + "varianttype-preview;"));
  }

  @Test
  void aClientNotReadingVariantsRefusesAVariantTableNamingTheFeatureAndTheTable() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), SCHEMA).commit();
    table.append(List.of(row(0, object("a", 1), null)));
    DeltaSharingClient client = serve(table, withoutVariants());
    assertThat(ClientSettings.DEFAULT.readerFeatures()).contains("varianttype", "varianttype-preview");
    assertThat(ClientSettings.DEFAULT.withReaderFeatures(Set.of("variantType", "deletionVectors"))
        .withUserAgent("x").withRetry(RetrySettings.DEFAULT).readerFeatures())
        .as("lower-cased, sorted, kept by the other with-methods").containsExactly("deletionvectors", "varianttype");
    assertThatThrownBy(() -> new SharingStreamPlanner(client, T, StreamOptions.parse(Map.of()), Duration.ZERO,
        Clock.systemUTC())).isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("s.sc.t").hasMessageContaining("reader feature variantType");
    assertThat(servers.get(0).requests().entries(Endpoint.METADATA)).isNotEmpty().allSatisfy(e ->
        assertThat(e.capabilities).doesNotContain("variant"));
  }

  @Test
  void aVariantColumnAddedWhileStreamingStopsAStreamNotReadingVariantsAtItsVersionAndIsReadByOneThatDoes() {
    DeltaType.StructType plain = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false));
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), plain).commit(); // 0
    table.append(List.of(Map.of("id", 0L))); // 1
    DeltaSharingClient spark = serve(table, withoutVariants());
    DeltaSharingClient kafka = serve(table, ClientSettings.DEFAULT);
    Map<String, String> options = Map.of("startingVersion", "1");
    try (SharingStreamPlanner sp = new SharingStreamPlanner(spark, T, StreamOptions.parse(options), Duration.ZERO,
        Clock.systemUTC());
        SharingStreamPlanner kp = new SharingStreamPlanner(kafka, T, StreamOptions.parse(options), Duration.ZERO,
            Clock.systemUTC())) {
      List<Object> sparkIds = new ArrayList<>();
      Position sparkEnd = drain(sp, spark, sp.initialPosition(), r -> sparkIds.add(r.get("id")));
      assertThat(sparkIds).containsExactly(0L);
      table.addColumn(DeltaType.field("v", DeltaType.VARIANT)); // 2: protocol gets variantType
      assertThat(table.snapshot().protocol.readerFeatures).containsExactly("variantType");
      table.append(List.of(Map.of("id", 1L, "v", List.of(true)))); // 3
      sp.latestVersionNow();
      assertThatThrownBy(() -> sp.plan(sparkEnd, AdmissionLimits.UNLIMITED))
          .isInstanceOf(UnsupportedTableFeatureException.class)
          .hasMessageContaining("s.sc.t").hasMessageContaining("version 2")
          .hasMessageContaining("reader feature variantType");
      List<String> values = new ArrayList<>();
      drain(kp, kafka, kp.initialPosition(), r -> values.add(r.get("id") + "="
          + (r.schema().indexOf("v") < 0 ? "-" : r.get("v"))));
      assertThat(values).containsExactly("0=-", "1=[true]");
    }
  }

  @Test
  void aFeatureNotReadIsRefusedNamingItEvenByAClientReadingVariants() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), SCHEMA)
        .protocol(3, 7, List.of("variantType", "variantShredding", "catalogOwned-preview"), List.of("variantType",
            "variantShredding", "catalogOwned-preview")).commit();
    table.append(List.of(row(0, object("a", 1), null)));
    DeltaSharingClient client = serve(table, ClientSettings.DEFAULT);
    assertThatThrownBy(() -> new SharingStreamPlanner(client, T, StreamOptions.parse(Map.of()), Duration.ZERO,
        Clock.systemUTC())).isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("s.sc.t").hasMessageContaining("reader feature catalogOwned-preview")
        .hasMessageNotContaining("variantType").hasMessageNotContaining("variantShredding");
  }
}
