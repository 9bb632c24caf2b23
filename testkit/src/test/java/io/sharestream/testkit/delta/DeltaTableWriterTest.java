package io.sharestream.testkit.delta;

import static io.sharestream.testkit.delta.DeltaType.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CdcFile;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import io.sharestream.testkit.delta.DeltaType.StructType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DeltaTableWriterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static final StructType ALL_TYPES = Samples.ALL_TYPES;

  @TempDir Path tmp;

  static Map<String, Object> row(Object... kv) {
    return Samples.row(kv);
  }

  static List<Map<String, Object>> allTypeRows() {
    return Samples.allTypeRows();
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void everyTypeRoundTripsThroughPlainParquetReading(TimestampEncoding encoding) throws IOException {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("t"), ALL_TYPES).timestamps(encoding).commit();
    w.append(allTypeRows());
    Snapshot s = w.snapshot();
    assertThat(s.files()).hasSize(1);
    Path file = w.log().resolve(s.files().iterator().next().path);

    List<Map<String, Object>> back = ParquetRows.read(file, ALL_TYPES);
    assertThat(normalize(back)).isEqualTo(normalize(withAllColumns(allTypeRows())));

    MessageType schema = ParquetRows.fileSchema(file);
    assertThat(schema.getType("ts").asPrimitiveType().getPrimitiveTypeName())
        .isEqualTo(encoding == TimestampEncoding.INT96 ? PrimitiveTypeName.INT96 : PrimitiveTypeName.INT64);
    assertThat(schema.getType("dec5").asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT32);
    assertThat(schema.getType("dec18").asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.INT64);
    assertThat(schema.getType("dec38").asPrimitiveType().getPrimitiveTypeName())
        .isEqualTo(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
    assertThat(schema.getType("dec38").asPrimitiveType().getTypeLength()).isEqualTo(16);
    assertThat(schema.getType("arr").getOriginalType()).isEqualTo(OriginalType.LIST);
    assertThat(schema.getType("m").getOriginalType()).isEqualTo(OriginalType.MAP);
    assertThat(schema.getType("d").getOriginalType()).isEqualTo(OriginalType.DATE);
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
      assertThat(r.getRowGroups().get(0).getColumns())
          .allSatisfy(c -> assertThat(c.getCodec()).isEqualTo(CompressionCodecName.SNAPPY));
    }
  }

  @Test
  void variantColumnsAreWrittenAsSpark4DoesAndGiveTheProtocolTheVariantTypeFeature() throws IOException {
    StructType schema = DeltaType.struct(field("id", DeltaType.LONG), field("v", DeltaType.VARIANT));
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("v"), schema).commit();
    DeltaAction.Protocol p = w.snapshot().protocol;
    assertThat(p.minReaderVersion).isEqualTo(3);
    assertThat(p.minWriterVersion).isEqualTo(7);
    assertThat(p.readerFeatures).containsExactly("variantType");
    assertThat(p.writerFeatures).contains("variantType");
    assertThat(DeltaType.parseSchema(w.snapshot().metadata.schemaString).field("v").type)
        .isSameAs(DeltaType.VARIANT);
    Map<String, Object> doc = VariantValue.object("b", 1, "a", List.of(true, "x"));
    w.append(List.of(row("id", 1L, "v", doc), row("id", 2L), row("id", 3L, "v", VariantValue.NULL)));
    w.deleteWhere(r -> r.get("id").equals(2L)); // rewrites the file: variants read back and written again
    Path file = w.log().resolve(w.snapshot().files().iterator().next().path);
    MessageType parquet = ParquetRows.fileSchema(file);
    org.apache.parquet.schema.GroupType group = parquet.getType("v").asGroupType();
    assertThat(group.getOriginalType()).as("unannotated").isNull();
    assertThat(group.getFields()).extracting(org.apache.parquet.schema.Type::getName)
        .containsExactly("value", "metadata");
    assertThat(group.getFields()).allSatisfy(f -> {
      assertThat(f.getRepetition()).isEqualTo(org.apache.parquet.schema.Type.Repetition.REQUIRED);
      assertThat(f.asPrimitiveType().getPrimitiveTypeName()).isEqualTo(PrimitiveTypeName.BINARY);
    });
    List<Map<String, Object>> back = ParquetRows.read(file, schema);
    assertThat(back).extracting(r -> r.get("v")).containsExactly(VariantValue.of(doc), VariantValue.NULL);
    // dictionary [b, a] in order of appearance, unsorted; field ids sorted by key: a (1), b (0); values as given
    assertThat(VariantValue.hex(VariantValue.of(doc).metadata())).isEqualTo("0102000102" + "6261");
    // object: 2 fields, ids [a=1, b=0], offsets [a=2, b=0, end=10], then b's int8 1, then a's array [true, "x"]
    assertThat(VariantValue.hex(VariantValue.of(doc).value())).isEqualTo("0202" + "0100" + "02000a" + "0c01"
        + "0302" + "000103" + "04" + "0578");
    assertThat(VariantValue.hex(VariantValue.encoder().sortedDictionary(true).encode(doc).metadata()))
        .isEqualTo("1102000102" + "6162");

    DeltaTableWriter later = DeltaTableWriter.create(tmp.resolve("later"), DeltaType.struct(field("id",
        DeltaType.LONG))).deletionVectors(true).commit();
    later.addColumn(field("doc", DeltaType.array(DeltaType.VARIANT, true)));
    assertThat(later.snapshot().protocol.readerFeatures).containsExactly("deletionVectors", "variantType");
  }

  @Test
  void partitionedTablesUseEscapedHiveDirectoriesAndKeepPartitionColumnsOutOfFiles() throws IOException {
    StructType schema = DeltaType.struct(field("id", DeltaType.LONG), field("region", DeltaType.STRING),
        field("day", DeltaType.DATE));
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("p"), schema).partitionedBy("region", "day").commit();
    w.append(List.of(
        row("id", 1L, "region", "x:y/z", "day", LocalDate.of(2024, 5, 1)),
        row("id", 2L, "region", null, "day", LocalDate.of(2024, 5, 1)),
        row("id", 3L, "region", "x:y/z", "day", LocalDate.of(2024, 5, 1))));
    List<AddFile> files = new ArrayList<>(w.snapshot().files());
    assertThat(files).hasSize(2);
    AddFile escaped = files.stream().filter(f -> "x:y/z".equals(f.partitionValues.get("region"))).findFirst().get();
    assertThat(escaped.path).startsWith("region=x%253Ay%252Fz/day=2024-05-01/");
    assertThat(escaped.partitionValues).containsEntry("day", "2024-05-01");
    assertThat(Files.isDirectory(w.dir().resolve("region=x%3Ay%2Fz").resolve("day=2024-05-01"))).isTrue();
    AddFile nulls = files.stream().filter(f -> f.partitionValues.get("region") == null).findFirst().get();
    assertThat(nulls.path).startsWith("region=__HIVE_DEFAULT_PARTITION__/");
    assertThat(nulls.partitionValues).containsKey("region");

    MessageType fileSchema = ParquetRows.fileSchema(w.log().resolve(escaped.path));
    assertThat(fileSchema.getFields()).extracting(org.apache.parquet.schema.Type::getName).containsExactly("id");
    assertThat(w.readAll()).extracting(r -> r.get("region")).containsExactlyInAnyOrder("x:y/z", "x:y/z", null);
  }

  @Test
  void commitsCarryProtocolMetadataCommitInfoAndModificationTimeTimestamps() throws IOException {
    Clock frozen = Clock.fixed(Instant.parse("2024-03-01T10:00:00Z"), ZoneOffset.UTC);
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("c"), ALL_TYPES).changeDataFeed(true)
        .name("events").description("all types").clock(frozen).commit();
    w.append(allTypeRows());
    w.append(allTypeRows());

    List<JsonNode> v0 = lines(w.log().commitFile(0));
    assertThat(v0.get(0).has("commitInfo")).isTrue();
    assertThat(v0.get(0).get("commitInfo").path("operation").asText()).isEqualTo("CREATE TABLE");
    JsonNode protocol = v0.get(1).get("protocol");
    assertThat(protocol.path("minReaderVersion").asInt()).isEqualTo(1);
    assertThat(protocol.path("minWriterVersion").asInt()).isEqualTo(4);
    JsonNode meta = v0.get(2).get("metaData");
    assertThat(meta.path("configuration").path("delta.enableChangeDataFeed").asText()).isEqualTo("true");
    assertThat(DeltaType.parseSchema(meta.path("schemaString").asText())).isEqualTo(ALL_TYPES);
    assertThat(meta.path("format").path("provider").asText()).isEqualTo("parquet");

    JsonNode add = lines(w.log().commitFile(1)).get(1).get("add");
    assertThat(add.path("dataChange").asBoolean()).isTrue();
    assertThat(JSON.readTree(add.path("stats").asText()).path("numRecords").asLong()).isEqualTo(3);

    // a frozen clock still gives strictly increasing commit times, and they are the files' modification times
    long t0 = Files.getLastModifiedTime(w.log().commitFile(0)).toMillis();
    assertThat(t0).isEqualTo(Instant.parse("2024-03-01T10:00:00Z").toEpochMilli());
    assertThat(w.log().timestamps().values()).containsExactly(t0, t0 + 1, t0 + 2);
    assertThat(lines(w.log().commitFile(2)).get(0).get("commitInfo").path("timestamp").asLong()).isEqualTo(t0 + 2);
  }

  @Test
  void deleteRemovesMatchedFilesRewritesPartialOnesAndRecordsDeleteChangeRows() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("d"), ALL_TYPES.without(List.of())).changeDataFeed(true)
        .commit();
    w.append(ids(0, 4), 2); // files {0,1} {2,3}
    w.append(ids(4, 6)); // file {4,5}
    long v = w.deleteWhere(r -> (Long) r.get("id") <= 2);
    List<DeltaAction> actions = w.log().actions(v);
    assertThat(actions.stream().filter(a -> a instanceof RemoveFile)).hasSize(2);
    assertThat(actions.stream().filter(a -> a instanceof AddFile)).hasSize(1); // {3}
    List<CdcFile> cdc = actions.stream().filter(a -> a instanceof CdcFile).map(a -> (CdcFile) a)
        .collect(Collectors.toList());
    assertThat(cdc).hasSize(1);
    assertThat(cdc.get(0).path).startsWith("_change_data/");
    List<Map<String, Object>> changes = readChange(w, cdc.get(0));
    assertThat(changes).extracting(r -> r.get("id")).containsExactly(0L, 1L, 2L);
    assertThat(changes).extracting(r -> r.get(DeltaTableWriter.CHANGE_TYPE)).containsOnly("delete");
    assertThat(w.readAll()).extracting(r -> r.get("id")).containsExactlyInAnyOrder(3L, 4L, 5L);
  }

  @Test
  void updateRewritesTouchedFilesAndRecordsPreAndPostImages() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("u"), ALL_TYPES).changeDataFeed(true).commit();
    w.append(ids(0, 3));
    w.append(ids(3, 6));
    long v = w.updateWhere(r -> r.get("id").equals(4L), r -> {
      r.put("s", "updated");
      return r;
    });
    List<DeltaAction> actions = w.log().actions(v);
    assertThat(actions.stream().filter(a -> a instanceof RemoveFile)).hasSize(1);
    CdcFile cdc = (CdcFile) actions.stream().filter(a -> a instanceof CdcFile).findFirst().get();
    List<Map<String, Object>> changes = readChange(w, cdc);
    assertThat(changes).extracting(r -> r.get(DeltaTableWriter.CHANGE_TYPE))
        .containsExactly("update_preimage", "update_postimage");
    assertThat(changes.get(0).get("s")).isEqualTo("s4");
    assertThat(changes.get(1).get("s")).isEqualTo("updated");
    assertThat(w.readAll()).filteredOn(r -> r.get("id").equals(4L)).extracting(r -> r.get("s"))
        .containsExactly("updated");
    assertThat(w.readAll()).hasSize(6);
  }

  @Test
  void overwriteRemovesEveryFileAndWritesNoChangeDataFiles() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("o"), ALL_TYPES).changeDataFeed(true).commit();
    w.append(ids(0, 3));
    long v = w.overwrite(ids(10, 12));
    List<DeltaAction> actions = w.log().actions(v);
    assertThat(actions.stream().filter(a -> a instanceof RemoveFile)).hasSize(1);
    assertThat(actions.stream().filter(a -> a instanceof CdcFile)).isEmpty();
    assertThat(w.readAll()).extracting(r -> r.get("id")).containsExactly(10L, 11L);
  }

  @Test
  void compactionRewritesFilesWithDataChangeFalseAndKeepsRows() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("k"), ALL_TYPES).commit();
    w.append(ids(0, 6), 2);
    long v = w.compact();
    List<DeltaAction> actions = w.log().actions(v);
    assertThat(actions.stream().filter(a -> a instanceof RemoveFile).map(a -> ((RemoveFile) a).dataChange))
        .containsExactly(false, false, false);
    assertThat(actions.stream().filter(a -> a instanceof AddFile).map(a -> ((AddFile) a).dataChange))
        .containsExactly(false);
    assertThat(w.snapshot().files()).hasSize(1);
    assertThat(w.readAll()).extracting(r -> r.get("id")).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void addedColumnReadsNullFromOlderFilesAndValuesFromNewOnes() {
    StructType base = DeltaType.struct(field("id", DeltaType.LONG));
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("a"), base).commit();
    w.append(List.of(row("id", 1L)));
    long v = w.addColumn(field("score", DeltaType.DOUBLE));
    assertThat(w.log().actions(v)).hasSize(2); // commitInfo + metaData, no data
    w.append(List.of(row("id", 2L, "score", 0.5)));
    assertThat(w.snapshot().metadata.schema().fields).extracting(f -> f.name).containsExactly("id", "score");
    assertThat(w.readAll()).containsExactlyInAnyOrder(row("id", 1L, "score", null), row("id", 2L, "score", 0.5));
    assertThatThrownBy(() -> w.addColumn(field("nn", DeltaType.LONG, false)))
        .hasMessageContaining("nullable");
  }

  @Test
  void enablingChangeDataFeedLaterUpgradesTheProtocol() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("e"), ALL_TYPES).commit();
    assertThat(w.snapshot().protocol.minWriterVersion).isEqualTo(2);
    w.setProperty("delta.enableChangeDataFeed", "true");
    assertThat(w.snapshot().protocol.minWriterVersion).isEqualTo(4);
    assertThat(w.snapshot().metadata.changeDataFeedEnabled()).isTrue();
  }

  @Test
  void smallRowGroupSizeGivesFilesWithManyRowGroups() throws IOException {
    StructType schema = DeltaType.struct(field("id", DeltaType.LONG), field("pad", DeltaType.STRING));
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("g"), schema).rowGroupBytes(4096).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 2000; i++) {
      rows.add(row("id", i, "pad", "x".repeat(40) + i));
    }
    w.append(rows);
    Path file = w.log().resolve(w.snapshot().files().iterator().next().path);
    assertThat(ParquetRows.rowGroups(file)).isGreaterThan(3);
    assertThat(w.readAll()).hasSize(2000);
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void datesAndTimestampsFromYear1To9999RoundTripInEitherEncoding(TimestampEncoding encoding) {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("edges"), Samples.CALENDAR_EDGES).timestamps(encoding)
        .commit();
    w.append(Samples.calendarEdgeRows());
    assertThat(w.readAll()).containsExactlyElementsOf(Samples.calendarEdgeRows());
  }

  @Test
  void checkpointHoldsTheLiveFilesSoTheLogCanBeCleanedUpBeforeIt() {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("cp"), ALL_TYPES).commit();
    w.append(ids(0, 3));
    w.append(ids(3, 5));
    w.deleteWhere(r -> r.get("id").equals(0L));
    long checkpointed = w.checkpoint();
    assertThat(w.dir().resolve("_delta_log/_last_checkpoint")).exists();
    w.append(ids(5, 6));
    w.cleanUpLogBefore(checkpointed);
    assertThat(w.log().earliestVersion()).isEqualTo(checkpointed);
    assertThat(w.log().snapshot(checkpointed).files()).hasSize(2);
    assertThat(w.readAll()).extracting(r -> r.get("id")).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L);
    assertThatThrownBy(() -> w.cleanUpLogBefore(w.version())).hasMessageContaining("no checkpoint");
  }

  @Test
  void generatedRowsAreWrittenAsTheyAreMadeIntoOneFile() {
    StructType schema = DeltaType.struct(field("id", DeltaType.LONG), field("s", DeltaType.STRING));
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("gen"), schema).commit();
    w.appendGenerated(5000, i -> row("id", i, "s", "s" + i));
    assertThat(w.snapshot().files()).hasSize(1);
    List<Map<String, Object>> rows = w.readAll();
    assertThat(rows).hasSize(5000);
    assertThat(rows.get(4999)).isEqualTo(row("id", 4999L, "s", "s4999"));
  }

  @Test
  void openingAnotherTablesDirectoryTwiceIsRefused() {
    DeltaTableWriter.create(tmp.resolve("x"), ALL_TYPES).commit();
    assertThatThrownBy(() -> DeltaTableWriter.create(tmp.resolve("x"), ALL_TYPES).commit())
        .hasMessageContaining("already exists");
    assertThat(DeltaTableWriter.open(tmp.resolve("x")).version()).isZero();
  }

  private static List<Map<String, Object>> ids(long from, long to) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(row("id", i, "s", "s" + i));
    }
    return out;
  }

  private static List<Map<String, Object>> readChange(DeltaTableWriter w, CdcFile f) {
    StructType schema = w.snapshot().metadata.schema().add(field(DeltaTableWriter.CHANGE_TYPE, DeltaType.STRING));
    try {
      return ParquetRows.read(w.log().resolve(f.path), schema);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<JsonNode> lines(Path commit) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String l : Files.readAllLines(commit)) {
      out.add(JSON.readTree(l));
    }
    return out;
  }

  private static List<Map<String, Object>> withAllColumns(List<Map<String, Object>> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : rows) {
      Map<String, Object> full = new LinkedHashMap<>();
      ALL_TYPES.fields.forEach(f -> full.put(f.name, r.get(f.name)));
      out.add(full);
    }
    return out;
  }

  /** byte[] has identity equality; compare such values by content. */
  private static Object normalize(Object v) {
    if (v instanceof byte[]) {
      return "bytes:" + Arrays.toString((byte[]) v);
    }
    if (v instanceof List) {
      return ((List<?>) v).stream().map(DeltaTableWriterTest::normalize).collect(Collectors.toList());
    }
    if (v instanceof Map) {
      Map<Object, Object> out = new HashMap<>();
      ((Map<?, ?>) v).forEach((k, x) -> out.put(k, normalize(x)));
      return out;
    }
    if (v instanceof Float && ((Float) v).isNaN()) {
      return "NaN";
    }
    return v;
  }

}
