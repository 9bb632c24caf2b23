package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.AmbiguousCalendarException;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.parquet.RebaseMode;
import io.sharestream.common.types.SchemaJson;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import io.sharestream.testkit.delta.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.SparkUpgradeException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The core's Parquet reader returns what Spark 3.1.1 returns for the same file, date by date and timestamp by
 * timestamp, over Spark's whole range: files Delta Lake 1.0.1 wrote on Spark 3.1.1 in both calendar write modes and
 * both timestamp encodings, and files the kit wrote (which name no calendar: Spark's default then fails, and so does
 * the core, until a mode is chosen). Run in a zone with a pre-1900 local mean time offset, where legacy timestamp
 * rebasing depends on the zone.
 */
class CoreCalendarParityTest {
  private static final String ZONE = "America/Los_Angeles";
  private static TimeZone jvmZone;
  private static SparkSession spark;

  @TempDir Path tmp;

  @BeforeAll
  static void zone() {
    jvmZone = TimeZone.getDefault();
    TimeZone.setDefault(TimeZone.getTimeZone(ZONE));
    spark = TestSpark.session();
    spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
  }

  @AfterAll
  static void restore() {
    TimeZone.setDefault(jvmZone);
    spark.conf().unset("spark.sql.datetime.java8API.enabled");
  }

  @AfterEach
  void resetConf() {
    for (String key : List.of("spark.sql.legacy.parquet.datetimeRebaseModeInWrite",
        "spark.sql.legacy.parquet.int96RebaseModeInWrite", "spark.sql.legacy.parquet.datetimeRebaseModeInRead",
        "spark.sql.legacy.parquet.int96RebaseModeInRead", "spark.sql.parquet.outputTimestampType")) {
      spark.conf().unset(key);
    }
  }

  private static Dataset<Row> edges() {
    List<Row> rows = new ArrayList<>();
    for (Map<String, Object> r : Samples.calendarEdgeRows()) {
      rows.add(RowFactory.create(r.get("id"), r.get("d"), r.get("ts")));
    }
    return spark.createDataFrame(rows, DataTypes.createStructType(List.of(
        DataTypes.createStructField("id", DataTypes.LongType, true),
        DataTypes.createStructField("d", DataTypes.DateType, true),
        DataTypes.createStructField("ts", DataTypes.TimestampType, true)))).coalesce(1);
  }

  /** What Spark reads from {@code file}: "id d ts" per row. */
  private static List<String> sparkRead(Path file) {
    return spark.read().parquet(file.toString()).orderBy("id").collectAsList().stream()
        .map(r -> r.getLong(0) + " " + r.<LocalDate>getAs(1) + " " + r.<Instant>getAs(2))
        .collect(Collectors.toList());
  }

  /** What the core reads from {@code file}, the same way. */
  private static List<String> coreRead(Path file, ReadSettings settings) throws IOException {
    StructType schema = SchemaJson.parse(Samples.CALENDAR_EDGES.toSchemaString());
    List<String> out = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()), file.getFileName().toString(), schema,
        List.of(), Map.of(), settings, 0)) {
      r.forEachRemaining(row -> out.add(row.get("id") + " " + row.get("d") + " " + row.get("ts")));
    }
    out.sort(null);
    return out;
  }

  private static Path onlyDataFile(Path table) throws IOException {
    try (Stream<Path> files = Files.list(table)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
  }

  @ParameterizedTest(name = "{0} calendar, {1} timestamps")
  @CsvSource({"LEGACY, INT96", "LEGACY, TIMESTAMP_MICROS", "CORRECTED, INT96", "CORRECTED, TIMESTAMP_MICROS"})
  void filesDeltaLakeWroteOnSpark311ReadAsSparkReadsThem(String calendar, String encoding) throws IOException {
    spark.conf().set("spark.sql.legacy.parquet.datetimeRebaseModeInWrite", calendar);
    spark.conf().set("spark.sql.legacy.parquet.int96RebaseModeInWrite", calendar);
    spark.conf().set("spark.sql.parquet.outputTimestampType", encoding);
    Path table = tmp.resolve("delta");
    edges().write().format("delta").save(table.toString());
    Path file = onlyDataFile(table);

    List<String> expected = sparkRead(file);
    assertThat(expected).hasSize(Samples.CALENDAR_EDGE_DATES.size());
    assertThat(coreRead(file, ReadSettings.DEFAULT)).containsExactlyElementsOf(expected);
    // the file names its calendar: the configured mode does not matter, as in Spark
    assertThat(coreRead(file, ReadSettings.DEFAULT.withRebaseModes(RebaseMode.LEGACY, RebaseMode.LEGACY)))
        .containsExactlyElementsOf(expected);
    // and what Spark reads is what was written
    assertThat(expected.get(0)).isEqualTo("0 0001-01-01 0001-01-01T00:00:00Z");
    assertThat(expected.get(1)).isEqualTo("1 1000-01-01 1000-01-01T00:00:00.123456Z");
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void filesNamingNoCalendarFailInBothByDefaultAndReadAlikeInEachMode(TimestampEncoding encoding) throws IOException {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve("kit"), Samples.CALENDAR_EDGES).timestamps(encoding)
        .commit();
    w.append(Samples.calendarEdgeRows());
    Path file = w.log().resolve(w.snapshot().files().iterator().next().path);

    assertThatThrownBy(() -> sparkRead(file)).hasRootCauseInstanceOf(SparkUpgradeException.class);
    assertThatThrownBy(() -> coreRead(file, ReadSettings.DEFAULT)).isInstanceOf(AmbiguousCalendarException.class);
    for (RebaseMode mode : List.of(RebaseMode.LEGACY, RebaseMode.CORRECTED)) {
      spark.conf().set("spark.sql.legacy.parquet.datetimeRebaseModeInRead", mode.name());
      spark.conf().set("spark.sql.legacy.parquet.int96RebaseModeInRead", mode.name());
      assertThat(coreRead(file, ReadSettings.DEFAULT.withRebaseModes(mode, mode))).as(mode.name())
          .containsExactlyElementsOf(sparkRead(file));
    }
  }
}
