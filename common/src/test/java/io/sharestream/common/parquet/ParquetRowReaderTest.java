package io.sharestream.common.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.deletionvectors.RowSelection;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.client.SignedUrl;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import io.sharestream.testkit.delta.Samples;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.RequestLog;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParquetRowReaderTest {
  static final DeltaType.StructType ALL = Samples.ALL_TYPES;

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaSharingClient client;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  static Map<String, Object> row(Object... kv) {
    return Samples.row(kv);
  }

  static List<Map<String, Object>> allTypeRows() {
    return Samples.allTypeRows();
  }

  private TableRef serve(DeltaTableWriter table, boolean history) {
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), history).start();
    client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(4, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1))));
    return new TableRef("s", "sc", "t");
  }

  /** Every file of the latest snapshot and the metadata. */
  private List<FileAction> files(TableRef t, TableMetadata[] meta) {
    try (FileListing l = client.query(t, QueryRequest.latest())) {
      meta[0] = l.metadata();
      List<FileAction> out = new ArrayList<>();
      l.forEachRemaining(a -> out.add((FileAction) a));
      return out;
    }
  }

  private List<Row> read(FileAction f, StructType schema, List<String> partitions, long startRow) {
    HttpInputFile in = new HttpInputFile(client, SignedUrl.fixed(f.url()), f.size(), f.id());
    List<Row> out = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(in, f.id(), schema, partitions, f.partitionValues(),
        ReadSettings.DEFAULT, startRow)) {
      r.forEachRemaining(out::add);
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void everyDeltaTypeIsDecodedFromParquetOverHttp(TimestampEncoding encoding) {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("all"), ALL).timestamps(encoding).commit();
    table.append(allTypeRows());
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    List<FileAction> files = files(t, meta);
    StructType schema = meta[0].schema();
    List<Row> rows = read(files.get(0), schema, List.of(), 0);
    assertThat(rows).hasSize(3);
    List<Map<String, Object>> expected = allTypeRows();
    for (int r = 0; r < rows.size(); r++) {
      for (int c = 0; c < schema.size(); c++) {
        String name = schema.field(c).name();
        assertThat(plain(rows.get(r).get(c))).as("row %d column %s", r, name).isEqualTo(plain(expected.get(r).get(name)));
      }
    }
    Row first = rows.get(0);
    assertThat(first.get("i8")).isInstanceOf(Byte.class);
    assertThat(first.get("i16")).isInstanceOf(Short.class);
    assertThat(((BigDecimal) rows.get(1).get("dec5")).scale()).isEqualTo(2);
    assertThat(first.get("st")).isInstanceOf(Row.class);
  }

  /** Rows, byte arrays and NaN compared by value. */
  static Object plain(Object v) {
    if (v instanceof Row) {
      Row r = (Row) v;
      Map<String, Object> m = new HashMap<>();
      for (int i = 0; i < r.size(); i++) {
        m.put(r.schema().field(i).name(), plain(r.get(i)));
      }
      return m;
    }
    if (v instanceof Map) {
      Map<Object, Object> m = new HashMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> m.put(plain(k), plain(x)));
      return m;
    }
    if (v instanceof List) {
      return ((List<?>) v).stream().map(ParquetRowReaderTest::plain).collect(Collectors.toList());
    }
    if (v instanceof byte[]) {
      return "bytes" + Arrays.toString((byte[]) v);
    }
    if (v instanceof Float && ((Float) v).isNaN()) {
      return "NaN";
    }
    return v;
  }

  @Test
  void partitionColumnsComeFromPartitionValuesAndProjectionReadsOnlyWhatIsAsked() {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("name", DeltaType.STRING), DeltaType.field("day", DeltaType.DATE),
        DeltaType.field("at", DeltaType.TIMESTAMP), DeltaType.field("amount", DeltaType.decimal(10, 2)));
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("p"), schema).partitionedBy("day", "at", "amount")
        .commit();
    table.append(List.of(
        row("id", 1L, "name", "a", "day", LocalDate.of(2024, 5, 1), "at", Instant.parse("2024-05-01T10:15:30.5Z"),
            "amount", new BigDecimal("12.50")),
        row("id", 2L, "name", "b")));
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    List<Row> rows = new ArrayList<>();
    for (FileAction f : files(t, meta)) {
      rows.addAll(read(f, meta[0].schema(), meta[0].partitionColumns(), 0));
    }
    assertThat(rows.stream().map(ParquetRowReaderTest::plain)).containsExactlyInAnyOrder(
        Map.of("id", 1L, "name", "a", "day", LocalDate.of(2024, 5, 1), "at", Instant.parse("2024-05-01T10:15:30.5Z"),
            "amount", new BigDecimal("12.50")),
        new HashMap<>(row("id", 2L, "name", "b", "day", null, "at", null, "amount", null)));

    StructType projected = meta[0].schema().select(List.of("day", "id"));
    FileAction any = files(t, meta).get(0);
    Row r = read(any, projected, meta[0].partitionColumns(), 0).get(0);
    assertThat(r.schema().fieldNames()).containsExactly("day", "id");
  }

  @Test
  void columnsAddedLaterReadAsNullFromOlderFiles() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("a"),
        DeltaType.struct(DeltaType.field("id", DeltaType.LONG))).commit();
    table.append(List.of(row("id", 1L)));
    table.addColumn(DeltaType.field("score", DeltaType.DOUBLE));
    table.append(List.of(row("id", 2L, "score", 0.5)));
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    List<Object> scores = new ArrayList<>();
    for (FileAction f : files(t, meta)) {
      read(f, meta[0].schema(), List.of(), 0).forEach(r -> scores.add(r.get("score")));
    }
    assertThat(scores).containsExactlyInAnyOrder(null, 0.5);
  }

  @Test
  void startingAtRowNSkipsWholeRowGroupsWithoutDownloadingThem() throws Exception {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("pad", DeltaType.STRING));
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("g"), schema).rowGroupBytes(8 * 1024).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    java.util.Random random = new java.util.Random(7);
    for (long i = 0; i < 3000; i++) { // incompressible: the file is larger than the tail read at once
      rows.add(row("id", i, "pad", Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()) + i));
    }
    table.append(rows);
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    FileAction f = files(t, meta).get(0);

    Path local = table.log().resolve(table.snapshot().files().iterator().next().path);
    long firstGroupEnd;
    long firstGroupRows;
    try (org.apache.parquet.hadoop.ParquetFileReader r = org.apache.parquet.hadoop.ParquetFileReader.open(
        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(local.toUri()),
            new org.apache.hadoop.conf.Configuration(false)))) {
      assertThat(r.getRowGroups().size()).isGreaterThan(3);
      var g0 = r.getRowGroups().get(0);
      firstGroupEnd = g0.getStartingPos() + g0.getCompressedSize();
      firstGroupRows = g0.getRowCount();
      assertThat(r.getRowGroups().get(1).getStartingPos()).isGreaterThanOrEqualTo(firstGroupEnd);
    }
    long start = firstGroupRows + 5;
    server.requests().clear();
    List<Row> tail = read(f, meta[0].schema(), List.of(), start);
    assertThat(tail).hasSize((int) (3000 - start));
    assertThat(tail.get(0).get("id")).isEqualTo(start);
    assertThat(tail.get(tail.size() - 1).get("id")).isEqualTo(2999L);
    List<RequestLog.Entry> gets = server.requests().entries(Endpoint.STORAGE);
    assertThat(f.size()).isGreaterThan(HttpInputFile.TAIL_BYTES + firstGroupEnd);
    assertThat(gets).isNotEmpty().allSatisfy(e -> {
      long from = Long.parseLong(e.range.replaceAll("bytes=(\\d+)-\\d+", "$1"));
      assertThat(from).as("range %s reads the skipped first row group", e.range).isGreaterThanOrEqualTo(firstGroupEnd);
    });
    assertThat(read(f, meta[0].schema(), List.of(), 2999)).hasSize(1);
    assertThat(read(f, meta[0].schema(), List.of(), 3000)).isEmpty();
  }

  @Test
  void anExpiredUrlIsRefreshedOnceAndTheReadCompletes() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("e"), ALL).commit();
    List<Map<String, Object>> many = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      many.addAll(allTypeRows().subList(0, 1));
    }
    table.append(many);
    TableRef t = serve(table, true);
    server.faults().urlTtl(Duration.ofMillis(300));
    TableMetadata[] meta = new TableMetadata[1];
    FileAction f = files(t, meta).get(0);
    server.faults().urlTtl(null);
    Thread.sleep(400); // the URL we hold has expired
    int[] refreshes = {0};
    SignedUrl url = new SignedUrl() {
      String current = f.url();

      @Override
      public String current() {
        return current;
      }

      @Override
      public String refresh() {
        refreshes[0]++;
        current = files(t, new TableMetadata[1]).stream().filter(x -> x.id().equals(f.id())).findFirst()
            .orElseThrow().url();
        return current;
      }
    };
    List<Row> rows = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(new HttpInputFile(client, url, f.size(), f.id()), f.id(),
        meta[0].schema(), List.of(), Map.of(), ReadSettings.DEFAULT, 0)) {
      r.forEachRemaining(rows::add);
    }
    assertThat(rows).hasSize(200);
    assertThat(refreshes[0]).isEqualTo(1);
    assertThat(server.requests().entries(Endpoint.STORAGE).stream().filter(e -> e.status == 403)).hasSize(1);
  }

  @Test
  void storageFailuresAreRetriedAndFinalOnesAreTypedWithoutTheSignature() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("f"), ALL).commit();
    table.append(allTypeRows());
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    FileAction f = files(t, meta).get(0);
    server.faults().failWith(Endpoint.STORAGE, 2, 503);
    assertThat(read(f, meta[0].schema(), List.of(), 0)).hasSize(3);

    server.faults().urlTtl(Duration.ofMillis(1));
    FileAction expiring = files(t, meta).get(0);
    Thread.sleep(20);
    assertThatThrownBy(() -> read(expiring, meta[0].schema(), List.of(), 0))
        .isInstanceOf(UnauthorizedException.class).hasMessageContaining("HTTP 403")
        .hasMessageNotContaining("X-Signature").hasMessageNotContaining(expiring.url());
    server.faults().urlTtl(null);

    FileAction live = files(t, meta).get(0);
    for (var a : table.snapshot().files()) {
      Files.delete(table.log().resolve(a.path));
    }
    assertThatThrownBy(() -> read(live, meta[0].schema(), List.of(), 0))
        .isInstanceOf(VersionNotAvailableException.class).hasMessageContaining("VACUUM");
  }

  private List<Row> readStreamed(FileAction f, StructType schema, long startRow) {
    HttpInputFile in = new HttpInputFile(client, SignedUrl.fixed(f.url()), f.size(), f.id());
    List<Row> out = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(in, f.id(), schema, List.of(), f.partitionValues(),
        ReadSettings.DEFAULT, startRow, RowSelection.ALL, 0)) {
      r.forEachRemaining(out::add);
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void rowGroupsStreamedPageByPageGiveTheSameRowsAsWholeRowGroups(TimestampEncoding encoding) {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("all"), ALL).timestamps(encoding).commit();
    table.append(allTypeRows());
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    FileAction f = files(t, meta).get(0);
    List<Row> whole = read(f, meta[0].schema(), List.of(), 0);
    List<Row> streamed = readStreamed(f, meta[0].schema(), 0);
    assertThat(streamed.stream().map(ParquetRowReaderTest::plain).collect(Collectors.toList()))
        .isEqualTo(whole.stream().map(ParquetRowReaderTest::plain).collect(Collectors.toList())).hasSize(3);
  }

  @Test
  void aStreamedRowGroupReadsEachColumnChunkOnceByARequestOfItsOwn() throws Exception {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("pad", DeltaType.STRING), DeltaType.field("kind", DeltaType.STRING));
    // 64 KB pages in 256 KB row groups: several pages per chunk, dictionary pages for "kind"
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("p"), schema).rowGroupBytes(256 * 1024).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    java.util.Random random = new java.util.Random(3);
    for (long i = 0; i < 20_000; i++) {
      rows.add(row("id", i, "pad", i % 7 == 0 ? null : Long.toHexString(random.nextLong()) + i,
          "kind", List.of("a", "b", "c").get((int) (i % 3))));
    }
    table.append(rows);
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    FileAction f = files(t, meta).get(0);
    Path local = table.log().resolve(table.snapshot().files().iterator().next().path);
    List<long[]> chunks = new ArrayList<>();
    try (org.apache.parquet.hadoop.ParquetFileReader r = org.apache.parquet.hadoop.ParquetFileReader.open(
        org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(local.toUri()),
            new org.apache.hadoop.conf.Configuration(false)))) {
      assertThat(r.getRowGroups().size()).isGreaterThan(2);
      for (var g : r.getRowGroups()) {
        for (var c : g.getColumns()) {
          chunks.add(new long[] {c.getStartingPos(), c.getStartingPos() + c.getTotalSize()});
        }
      }
    }

    server.requests().clear();
    List<Row> streamed = readStreamed(f, meta[0].schema(), 0);
    assertThat(streamed).hasSize(20_000);
    for (int i = 0; i < streamed.size(); i += 997) {
      Map<String, Object> expected = rows.get(i);
      assertThat(streamed.get(i).get("id")).isEqualTo(expected.get("id"));
      assertThat(streamed.get(i).get("pad")).isEqualTo(expected.get("pad"));
      assertThat(streamed.get(i).get("kind")).isEqualTo(expected.get("kind"));
    }
    List<RequestLog.Entry> gets = server.requests().entries(Endpoint.STORAGE);
    long tailStart = f.size() - HttpInputFile.TAIL_BYTES;
    List<long[]> ranges = gets.stream().map(e -> Arrays.stream(e.range.replace("bytes=", "").split("-"))
        .mapToLong(Long::parseLong).toArray()).filter(r -> r[0] < tailStart).collect(Collectors.toList());
    // the footer's tail read, then one request per column chunk before the tail, each exactly that chunk
    assertThat(ranges).allSatisfy(r -> assertThat(chunks).anySatisfy(c -> {
      assertThat(r[0]).isEqualTo(c[0]);
      assertThat(r[1] + 1).isEqualTo(Math.min(c[1], tailStart));
    }));
    assertThat(ranges).hasSize((int) chunks.stream().filter(c -> c[0] < tailStart).count());

    List<Row> fromMiddle = readStreamed(f, meta[0].schema(), 12_345);
    assertThat(fromMiddle).hasSize(20_000 - 12_345);
    assertThat(fromMiddle.get(0).get("id")).isEqualTo(12_345L);
  }

  @Test
  void dataPagesOfFormatV2AreStreamedToo() throws Exception {
    org.apache.parquet.schema.MessageType parquet = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        "message m { required int64 id; optional binary name (UTF8); optional double score; }");
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(tmp.resolve("v2.parquet").toUri());
    org.apache.parquet.example.data.simple.SimpleGroupFactory groups =
        new org.apache.parquet.example.data.simple.SimpleGroupFactory(parquet);
    try (org.apache.parquet.hadoop.ParquetWriter<org.apache.parquet.example.data.Group> w =
        org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(file).withType(parquet)
            .withConf(new org.apache.hadoop.conf.Configuration(false))
            .withWriterVersion(org.apache.parquet.column.ParquetProperties.WriterVersion.PARQUET_2_0)
            .withCompressionCodec(org.apache.parquet.hadoop.metadata.CompressionCodecName.SNAPPY)
            .withPageSize(4096).withRowGroupSize(64 * 1024).build()) {
      for (int i = 0; i < 5000; i++) {
        org.apache.parquet.example.data.Group g = groups.newGroup().append("id", (long) i);
        if (i % 5 != 0) {
          g.append("name", "n" + (i % 40));
        }
        g.append("score", i * 0.5);
        w.write(g);
      }
    }
    StructType schema = io.sharestream.common.types.SchemaJson.parse("{\"type\":\"struct\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"long\",\"nullable\":false,\"metadata\":{}},"
        + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"score\",\"type\":\"double\",\"nullable\":true,\"metadata\":{}}]}");
    org.apache.parquet.io.InputFile in = org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(file,
        new org.apache.hadoop.conf.Configuration(false));
    List<Row> rows = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(in, "v2.parquet", schema, List.of(), Map.of(),
        ReadSettings.DEFAULT, 0, RowSelection.ALL, 0)) {
      r.forEachRemaining(rows::add);
    }
    assertThat(rows).hasSize(5000);
    for (int i = 0; i < 5000; i += 7) {
      assertThat(rows.get(i).get("id")).isEqualTo((long) i);
      assertThat(rows.get(i).get("name")).isEqualTo(i % 5 == 0 ? null : "n" + (i % 40));
      assertThat(rows.get(i).get("score")).isEqualTo(i * 0.5);
    }
  }

  /** Writes {@code rows} (made by {@code fill}) under the hand-written Parquet {@code schema} to a local file. */
  private org.apache.parquet.io.InputFile localFile(String name, String schema,
      List<java.util.function.Consumer<org.apache.parquet.example.data.Group>> rows) throws Exception {
    org.apache.parquet.schema.MessageType parquet = org.apache.parquet.schema.MessageTypeParser.parseMessageType(
        schema);
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(tmp.resolve(name).toUri());
    org.apache.parquet.example.data.simple.SimpleGroupFactory groups =
        new org.apache.parquet.example.data.simple.SimpleGroupFactory(parquet);
    try (org.apache.parquet.hadoop.ParquetWriter<org.apache.parquet.example.data.Group> w =
        org.apache.parquet.hadoop.example.ExampleParquetWriter.builder(file).withType(parquet)
            .withConf(new org.apache.hadoop.conf.Configuration(false)).build()) {
      for (java.util.function.Consumer<org.apache.parquet.example.data.Group> fill : rows) {
        org.apache.parquet.example.data.Group g = groups.newGroup();
        fill.accept(g);
        w.write(g);
      }
    }
    return org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(file,
        new org.apache.hadoop.conf.Configuration(false));
  }

  private static final StructType VARIANT_COLUMN = io.sharestream.common.types.SchemaJson.parse(
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"v\",\"type\":\"variant\",\"nullable\":true,"
      + "\"metadata\":{}}]}");

  private static List<Row> readLocal(org.apache.parquet.io.InputFile in, String name, StructType schema) {
    List<Row> rows = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(in, name, schema, List.of(), Map.of(), ReadSettings.DEFAULT,
        0)) {
      r.forEachRemaining(rows::add);
    }
    return rows;
  }

  private static java.util.function.Consumer<org.apache.parquet.example.data.Group> variant(
      io.sharestream.testkit.delta.VariantValue v) {
    return g -> {
      org.apache.parquet.example.data.Group group = g.addGroup("v");
      group.add("value", org.apache.parquet.io.api.Binary.fromConstantByteArray(v.value()));
      group.add("metadata", org.apache.parquet.io.api.Binary.fromConstantByteArray(v.metadata()));
    };
  }

  @Test
  void aVariantGroupIsReadByFieldNameWhateverTheOrderAndNullsStayNull() throws Exception {
    io.sharestream.testkit.delta.VariantValue doc = io.sharestream.testkit.delta.VariantValue.of(
        io.sharestream.testkit.delta.VariantValue.object("b", List.of(1, "x"), "a", null));
    org.apache.parquet.io.InputFile in = localFile("reordered.parquet", "message m { optional group v {"
        + " required binary metadata; required binary value; optional int32 extra; } }",
        List.of(variant(doc), g -> { }, variant(io.sharestream.testkit.delta.VariantValue.of(7))));
    List<Row> rows = readLocal(in, "reordered.parquet", VARIANT_COLUMN);
    assertThat(rows).extracting(r -> r.get("v")).containsExactly("{\"a\":null,\"b\":[1,\"x\"]}", null, "7");
  }

  @Test
  void aShreddedVariantIsReadAsTheValueItsTypedAndUnshreddedPartsStandFor() throws Exception {
    io.sharestream.testkit.delta.VariantValue text = io.sharestream.testkit.delta.VariantValue.of("left as is");
    org.apache.parquet.io.InputFile in = localFile("shredded.parquet", "message m { optional group v {"
        + " required binary metadata; optional binary value; optional int64 typed_value; } }", List.of(g -> {
          org.apache.parquet.example.data.Group group = g.addGroup("v");
          group.add("metadata", org.apache.parquet.io.api.Binary.fromConstantByteArray(new byte[] {1, 0, 0}));
          group.add("typed_value", 42L);
        }, g -> {
          org.apache.parquet.example.data.Group group = g.addGroup("v");
          group.add("metadata", org.apache.parquet.io.api.Binary.fromConstantByteArray(text.metadata()));
          group.add("value", org.apache.parquet.io.api.Binary.fromConstantByteArray(text.value()));
        }, g -> g.addGroup("v").add("metadata", org.apache.parquet.io.api.Binary.fromConstantByteArray(
            new byte[] {1, 0, 0})), g -> { }));
    assertThat(readLocal(in, "shredded.parquet", VARIANT_COLUMN)).extracting(r -> r.get("v"))
        .containsExactly("42", "\"left as is\"", "null", null);
  }

  @Test
  void aVariantWithoutItsBinariesIsRefusedNamingTheColumn() throws Exception {
    org.apache.parquet.io.InputFile in = localFile("half.parquet", "message m { optional group v {"
        + " required binary value; } }", List.of());
    assertThatThrownBy(() -> readLocal(in, "half.parquet", VARIANT_COLUMN))
        .isInstanceOf(io.sharestream.common.errors.InvalidDataFileException.class)
        .hasMessageContaining("Column 'v' of data file half.parquet holds a malformed variant")
        .hasMessageContaining("no binary 'metadata' field");
  }

  @Test
  void aMalformedVariantInAServedTableFailsNamingTheColumnAndTheFile() {
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("v", DeltaType.VARIANT));
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("bad"), schema).commit();
    table.append(List.of(row("id", 0L, "v", List.of(1, 2)),
        row("id", 1L, "v", io.sharestream.testkit.delta.VariantValue.raw(new byte[] {0x0C, 1},
            new byte[] {0x02, 0, 0}))));
    TableRef t = serve(table, true);
    TableMetadata[] meta = new TableMetadata[1];
    FileAction f = files(t, meta).get(0);
    List<Row> rows = new ArrayList<>();
    HttpInputFile in = new HttpInputFile(client, SignedUrl.fixed(f.url()), f.size(), f.id());
    assertThatThrownBy(() -> {
      try (ParquetRowReader r = ParquetRowReader.open(in, f.id(), meta[0].schema(), List.of(), Map.of(),
          ReadSettings.DEFAULT, 0)) {
        r.forEachRemaining(rows::add);
      }
    }).isInstanceOf(io.sharestream.common.errors.InvalidDataFileException.class)
        .hasMessageContaining("Column 'v' of data file " + f.id() + " holds a malformed variant: metadata version "
            + "is 2, only version 1 is defined");
    assertThat(rows).extracting(r -> r.get("v")).containsExactly("[1,2]");
  }
}
