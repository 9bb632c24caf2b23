package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.ChangeDataNotRecordedException;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.HistoryNotSharedException;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.ProtocolViolationException;
import io.sharestream.common.errors.TableNotFoundException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.ListedItem;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSharingClientTest {
  static final DeltaType.StructType SCHEMA = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("name", DeltaType.STRING));
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();
  DeltaSharingClient client;

  static List<Map<String, Object>> rows(long from, long to) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", i);
      r.put("name", "n" + i);
      out.add(r);
    }
    return out;
  }

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), SCHEMA).changeDataFeed(true).commit(); // 0
    table.append(rows(0, 10), 2); // 1: 5 files
    table.append(rows(10, 12)); // 2
    table.updateWhere(r -> r.get("id").equals(11L), r -> {
      r.put("name", "x");
      return r;
    }); // 3
    DeltaTableWriter plain = DeltaTableWriter.create(tmp.resolve("plain"), SCHEMA).commit();
    plain.append(rows(0, 1));
    server = DeltaSharingServer.builder()
        .table("s", "sc", "t", table.dir(), true)
        .table("s", "sc", "plain", plain.dir(), true)
        .table("s", "sc", "nohistory", table.dir(), false)
        .table("s", "other", "t2", table.dir(), true)
        .start();
    client = Kit.client(server, sleeper);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  static <T> List<T> all(Iterator<T> it) {
    List<T> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  @Test
  void listsFollowEveryPage() {
    for (int i = 0; i < 600; i++) { // more than the server's 500 per page
      server.tables().add("big", "sc", "t" + i, table.dir(), true);
    }
    assertThat(all(client.listShares())).extracting(ListedItem::name).containsExactly("s", "big");
    assertThat(all(client.listSchemas("s"))).extracting(ListedItem::name).containsExactly("sc", "other");
    assertThat(all(client.listTables("s", "sc"))).extracting(ListedItem::toString)
        .containsExactly("s.sc.t", "s.sc.plain", "s.sc.nohistory");
    assertThat(all(client.listAllTables("big"))).hasSize(600);
    assertThat(server.requests().count(Endpoint.LIST_ALL_TABLES)).isEqualTo(2);
  }

  @Test
  void tableVersionLatestAndAtATimestamp() {
    assertThat(client.tableVersion(T)).isEqualTo(3);
    assertThat(client.tableVersionAt(T, Instant.ofEpochMilli(table.log().timestamp(2)))).isEqualTo(2);
    assertThat(client.tableVersionAt(T, Instant.parse("2001-01-01T00:00:00Z"))).isZero();
  }

  @Test
  void metadataLatestAndAtAVersion() {
    TableSnapshotInfo m = client.metadata(T, null, null);
    assertThat(m.version()).isEqualTo(3);
    assertThat(m.metadata().id()).isEqualTo(table.tableId());
    assertThat(m.metadata().schema().field("id").type()).isEqualTo(PrimitiveType.LONG);
    assertThat(m.metadata().schema().field("id").nullable()).isFalse();
    assertThat(m.metadata().changeDataFeedEnabled()).isTrue();
    assertThat(client.metadata(T, 1L, null).version()).isEqualTo(1);
    assertThat(m.metadata().size()).as("the reference server sends no size").isNull();
    assertThat(m.metadata().numFiles()).isNull();
  }

  @Test
  void metadataSizesAreReadWhenAServerSendsThem() {
    try (DeltaSharingServer sizes = DeltaSharingServer.builder().metadataSizes(true)
        .table("s", "sc", "t", table.dir(), true).start()) {
      TableMetadata m = Kit.client(sizes, sleeper).metadata(T, null, null).metadata();
      assertThat(m.numFiles()).isEqualTo(table.snapshot().files().size());
      assertThat(m.size()).isEqualTo(table.snapshot().sizeInBytes());
    }
  }

  @Test
  void snapshotQueryStreamsFileActions() {
    try (FileListing l = client.query(T, QueryRequest.atVersion(2))) {
      assertThat(l.tableVersion()).isEqualTo(2);
      assertThat(l.protocol().minReaderVersion()).isEqualTo(1);
      assertThat(l.metadata().id()).isEqualTo(table.tableId());
      List<SharingAction> actions = all(l);
      assertThat(actions).hasSize(6).allSatisfy(a -> {
        FileAction f = (FileAction) a;
        assertThat(f.kind()).isEqualTo(FileAction.Kind.FILE);
        assertThat(f.version()).isEqualTo(2);
        assertThat(f.url()).startsWith("http://127.0.0.1:");
        assertThat(f.toString()).doesNotContain("X-Signature");
      });
      assertThat(l.minUrlExpirationTimestamp()).isGreaterThan(System.currentTimeMillis());
    }
    assertThat(server.requests().entries(Endpoint.QUERY).get(0).capabilities).isEqualTo("responseformat=delta,"
        + "parquet;readerfeatures=columnmapping,deletionvectors,geospatial,timestampntz,typewidening,"
        + "typewidening-preview,variantshredding,variantshredding-preview,varianttype,varianttype-preview;"
        + "includeendstreamaction=true;asyncquery=true");
  }

  @Test
  void pagedQueriesFollowEveryPageTransparently() {
    try (FileListing l = client.query(T, QueryRequest.changes(1, null).maxFiles(2))) {
      List<String> kinds = all(l).stream().map(a -> ((FileAction) a).kind() + "@" + ((FileAction) a).version())
          .collect(Collectors.toList());
      assertThat(kinds).containsExactly("ADD@1", "ADD@1", "ADD@1", "ADD@1", "ADD@1", "ADD@2", "REMOVE@3", "ADD@3");
      assertThat(l.pages()).isEqualTo(4);
    }
  }

  @Test
  void changesYieldCdfFilesAndHistoricalMetadata() {
    table.addColumn(DeltaType.field("extra", DeltaType.INTEGER)); // 4
    try (FileListing l = client.changes(T, ChangesRequest.fromVersion(1))) {
      List<SharingAction> actions = all(l);
      assertThat(actions.stream().filter(a -> a instanceof FileAction).map(a -> ((FileAction) a).kind()))
          .containsExactly(FileAction.Kind.ADD, FileAction.Kind.ADD, FileAction.Kind.ADD, FileAction.Kind.ADD,
              FileAction.Kind.ADD, FileAction.Kind.ADD, FileAction.Kind.CDF);
      List<TableMetadata> metas = actions.stream().filter(a -> a instanceof TableMetadata).map(a -> (TableMetadata) a)
          .collect(Collectors.toList());
      assertThat(metas).hasSize(1);
      assertThat(metas.get(0).version()).isEqualTo(4);
      assertThat(metas.get(0).schema().fieldNames()).contains("extra");
    }
  }

  @Test
  void errorsAreTypedAndSayWhatToDo() {
    assertThatThrownBy(() -> client.tableVersion(new TableRef("s", "sc", "nope")))
        .isInstanceOf(TableNotFoundException.class).hasMessageContaining("check the share, schema and table names");
    assertThatThrownBy(() -> client.query(new TableRef("s", "sc", "nohistory"), QueryRequest.changes(0, null)))
        .isInstanceOf(HistoryNotSharedException.class).hasMessageContaining("WITH HISTORY");
    assertThatThrownBy(() -> client.changes(new TableRef("s", "sc", "plain"), ChangesRequest.fromVersion(0)))
        .isInstanceOf(ChangeDataNotRecordedException.class).hasMessageContaining("version 0")
        .satisfies(e -> assertThat(((ChangeDataNotRecordedException) e).version()).isZero());
    assertThatThrownBy(() -> client.query(T, QueryRequest.changes(7, null)))
        .isInstanceOf(InvalidRequestException.class).hasMessageContaining("cannot be greater than the latest");
    assertThat(server.requests().count(Endpoint.QUERY)).as("4xx are not retried").isEqualTo(2);
    assertThat(sleeper.waits).isEmpty();
  }

  @Test
  void versionNoLongerAvailableIsTyped() throws Exception {
    Files.delete(table.log().commitFile(0));
    Files.delete(table.log().commitFile(1));
    assertThatThrownBy(() -> client.query(T, QueryRequest.changes(1, null)))
        .isInstanceOf(VersionNotAvailableException.class).hasMessageContaining("later version");
  }

  @Test
  void tablesNeedingDeltaFormatAreRefusedWhenOnlyParquetIsAskedFor() {
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), SCHEMA)
        .protocol(3, 7, List.of("deletionVectors"), List.of("deletionVectors")).commit();
    server.tables().add("s", "sc", "dv", dv.dir(), true);
    DeltaSharingClient parquetOnly = new DeltaSharingClient(client.profile(),
        Kit.settings(sleeper).withResponseFormat(ResponseFormat.PARQUET));
    assertThatThrownBy(() -> parquetOnly.query(new TableRef("s", "sc", "dv"), QueryRequest.latest()))
        .isInstanceOf(DeltaFormatRequiredException.class).hasMessageContaining("'delta' response format")
        .hasMessageContaining("set responseFormat=auto");
    assertThat(server.requests().entries(Endpoint.QUERY).get(0).capabilities)
        .isEqualTo("responseformat=parquet;includeendstreamaction=true;asyncquery=true");
    server.faults().respondInDeltaFormat(Endpoint.QUERY, 1);
    assertThatThrownBy(() -> parquetOnly.query(T, QueryRequest.latest()))
        .isInstanceOf(ProtocolViolationException.class)
        .hasMessageContaining("answered in the 'delta' response format, but only 'parquet' was asked for");
  }

  @Test
  void aReaderFeatureThisProductDoesNotReadFailsNamingItAndTheTable() {
    DeltaTableWriter variant = DeltaTableWriter.create(tmp.resolve("variant"), SCHEMA)
        .protocol(3, 7, List.of("deletionVectors", "variantType", "catalogOwned-preview"),
            List.of("deletionVectors", "variantType", "catalogOwned-preview")).commit();
    server.tables().add("s", "sc", "variant", variant.dir(), true);
    TableRef t = new TableRef("s", "sc", "variant");
    assertThatThrownBy(() -> client.metadata(t, null, null)).isInstanceOf(UnsupportedTableFeatureException.class)
        .hasMessageContaining("reader feature catalogOwned-preview").hasMessageContaining("s.sc.variant")
        .hasMessageNotContaining("deletionVectors").hasMessageNotContaining("variantType");
    assertThatThrownBy(() -> client.query(t, QueryRequest.latest()))
        .isInstanceOf(UnsupportedTableFeatureException.class).hasMessageContaining("catalogOwned-preview");
    // features about how the log is kept are the server's business: such a table is read as any other
    DeltaTableWriter v2 = DeltaTableWriter.create(tmp.resolve("v2"), SCHEMA).protocol(3, 7,
        List.of("deletionVectors", "v2Checkpoint", "vacuumProtocolCheck"), List.of("deletionVectors")).commit();
    server.tables().add("s", "sc", "v2", v2.dir(), true);
    assertThat(client.metadata(new TableRef("s", "sc", "v2"), null, null).protocol().readerFeatures())
        .contains("v2Checkpoint");
  }

  @Test
  void unauthorizedNamesTheTokenExpiry() {
    DeltaSharingProfile expired = DeltaSharingProfile.fromJson("{\"shareCredentialsVersion\":1,\"endpoint\":\""
        + server.endpoint() + "\",\"bearerToken\":\"wrong-token\",\"expirationTime\":\"2020-01-01T00:00:00Z\"}");
    DeltaSharingClient bad = new DeltaSharingClient(expired, Kit.settings(sleeper));
    assertThatThrownBy(() -> bad.tableVersion(T)).isInstanceOf(UnauthorizedException.class)
        .hasMessageContaining("expired at 2020-01-01T00:00:00Z").hasMessageNotContaining("wrong-token");
    assertThat(server.requests().count(Endpoint.VERSION)).isEqualTo(1);
  }
}
