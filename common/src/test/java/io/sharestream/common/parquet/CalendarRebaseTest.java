package io.sharestream.common.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.AmbiguousCalendarException;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.SchemaJson;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import io.sharestream.testkit.delta.Samples;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Dates and timestamps over the whole range Spark supports, decoded as Spark 3.1 decodes them: files that do not
 * name their calendar follow the rebase mode (default: fail on ambiguous values); Spark's footer keys decide for
 * files Spark wrote. Parity with Spark 3.1.1 itself on Spark-written files is proven in the Spark module.
 */
class CalendarRebaseTest {
  @TempDir Path tmp;

  private List<Row> read(TimestampEncoding encoding, DeltaType.StructType schema, ReadSettings settings) {
    DeltaTableWriter w = DeltaTableWriter.create(tmp.resolve(encoding + "-" + settings.datetimeRebaseMode() + "-"
        + schema.fields.size()), schema).timestamps(encoding).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> r : Samples.calendarEdgeRows()) {
      Map<String, Object> kept = new java.util.LinkedHashMap<>();
      schema.fields.forEach(f -> kept.put(f.name, r.get(f.name)));
      rows.add(kept);
    }
    w.append(rows);
    Path file = w.log().resolve(w.snapshot().files().iterator().next().path);
    StructType readSchema = SchemaJson.parse(schema.toSchemaString());
    List<Row> out = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)), "f", readSchema, List.of(), Map.of(),
        settings, 0)) {
      r.forEachRemaining(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void everyEdgeValueRoundTripsExactlyWhenTheFileIsReadAsWritten(TimestampEncoding encoding) {
    ReadSettings corrected = ReadSettings.DEFAULT.withRebaseModes(RebaseMode.CORRECTED, RebaseMode.CORRECTED);
    List<Row> rows = read(encoding, Samples.CALENDAR_EDGES, corrected);
    assertThat(rows).extracting(r -> r.get("d")).containsExactlyElementsOf(Samples.CALENDAR_EDGE_DATES);
    assertThat(rows).extracting(r -> r.get("ts")).containsExactlyElementsOf(Samples.CALENDAR_EDGE_TIMESTAMPS);
  }

  @Test
  void ambiguousDatesFailByDefaultNamingTheColumnAndTheSetting() {
    DeltaType.StructType dates = DeltaType.struct(DeltaType.field("d", DeltaType.DATE));
    assertThatThrownBy(() -> read(TimestampEncoding.INT64_MICROS, dates, ReadSettings.DEFAULT))
        .isInstanceOf(AmbiguousCalendarException.class)
        .hasMessageContaining("Column 'd'").hasMessageContaining("dates before 1582-10-15")
        .hasMessageContaining("datetimeRebaseMode=LEGACY").hasMessageContaining("datetimeRebaseMode=CORRECTED");
  }

  @ParameterizedTest
  @EnumSource(TimestampEncoding.class)
  void ambiguousTimestampsFailByDefaultNamingTheSettingOfTheirEncoding(TimestampEncoding encoding) {
    DeltaType.StructType ts = DeltaType.struct(DeltaType.field("ts", DeltaType.TIMESTAMP));
    String option = encoding == TimestampEncoding.INT96 ? "int96RebaseMode" : "datetimeRebaseMode";
    assertThatThrownBy(() -> read(encoding, ts, ReadSettings.DEFAULT))
        .isInstanceOf(AmbiguousCalendarException.class)
        .hasMessageContaining("Column 'ts'").hasMessageContaining("timestamps before 1900-01-01T00:00:00Z")
        .hasMessageContaining(option + "=LEGACY");
  }

  @Test
  void sparkFooterKeysDecideTheCalendarOverTheSetting() {
    ReadSettings corrected = ReadSettings.DEFAULT.withRebaseModes(RebaseMode.CORRECTED, RebaseMode.CORRECTED);
    int old = CalendarRebase.LAST_SWITCH_DAY - 1;
    // Spark 2.x: both legacy; Spark 3.0: dates corrected, INT96 still legacy; Spark 3.1: corrected unless flagged
    assertThat(mode(Map.of("org.apache.spark.version", "2.4.8"), corrected, old)).isNotEqualTo(old);
    assertThat(int96Mode(Map.of("org.apache.spark.version", "3.0.3"), corrected)).isEqualTo(RebaseMode.LEGACY);
    assertThat(mode(Map.of("org.apache.spark.version", "3.0.3"), ReadSettings.DEFAULT, old)).isEqualTo(old);
    assertThat(int96Mode(Map.of("org.apache.spark.version", "3.1.1"), ReadSettings.DEFAULT))
        .isEqualTo(RebaseMode.CORRECTED);
    assertThat(mode(Map.of("org.apache.spark.version", "3.1.1", "org.apache.spark.legacyDateTime", ""), corrected,
        old)).isNotEqualTo(old);
    assertThat(int96Mode(Map.of("org.apache.spark.version", "3.1.1", "org.apache.spark.legacyINT96", ""), corrected))
        .isEqualTo(RebaseMode.LEGACY);
    assertThat(mode(Map.of(), corrected, old)).isEqualTo(old);
  }

  private static int mode(Map<String, String> footer, ReadSettings settings, int days) {
    return CalendarRebase.forFile(footer, settings, "f").days(days, "d");
  }

  /** The INT96 mode, observed on a pre-1582 value: unchanged under CORRECTED, moved under LEGACY. */
  private static RebaseMode int96Mode(Map<String, String> footer, ReadSettings settings) {
    long micros = Instant.parse("1000-06-01T00:00:00Z").getEpochSecond() * 1_000_000L;
    return CalendarRebase.forFile(footer, settings, "f").int96Micros(micros, "ts") == micros ? RebaseMode.CORRECTED
        : RebaseMode.LEGACY;
  }

  @Test
  void legacyValuesAreRebasedFromTheHybridCalendar() {
    // a Spark 2.x writer stored the hybrid calendar's 1582-10-04 (the day before the switch) as the epoch day of
    // proleptic 1582-10-14; read back it is 1582-10-04 again
    int stored = (int) LocalDate.of(1582, 10, 14).toEpochDay();
    assertThat(LocalDate.ofEpochDay(CalendarRebase.julianToGregorianDays(stored))).isEqualTo(LocalDate.of(1582, 10, 4));
    long storedMicros = Instant.parse("1582-10-14T12:00:00Z").getEpochSecond() * 1_000_000L;
    long rebased = CalendarRebase.julianToGregorianMicros(storedMicros, ZoneId.of("UTC"));
    assertThat(Instant.ofEpochSecond(rebased / 1_000_000L)).isEqualTo(Instant.parse("1582-10-04T12:00:00Z"));
    // from the switch on, nothing moves
    assertThat(CalendarRebase.forFile(Map.of("org.apache.spark.version", "2.4.8"), ReadSettings.DEFAULT, "f")
        .days(CalendarRebase.LAST_SWITCH_DAY, "d")).isEqualTo(CalendarRebase.LAST_SWITCH_DAY);
  }
}
