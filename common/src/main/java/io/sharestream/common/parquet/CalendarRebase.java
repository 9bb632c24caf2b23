package io.sharestream.common.parquet;

import io.sharestream.common.errors.Errors;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Map;
import java.util.TimeZone;

/**
 * Old dates and timestamps of one file, decoded as Spark 3.1 decodes them. Spark 2.x (and Spark 3 writers in
 * {@code LEGACY} mode) wrote dates before 1582-10-15 and timestamps before 1900-01-01T00:00:00Z in the hybrid
 * Julian/Gregorian calendar. A file written by Spark says so in its footer and that decides; any other file follows
 * the configured {@link RebaseMode} (Spark's default: fail on such values rather than guess).
 */
final class CalendarRebase {
  /** 1582-10-15, the first day both calendars agree on for good (days since the epoch). */
  static final int LAST_SWITCH_DAY = -141_427;
  /** 1900-01-01T00:00:00Z: from here on, rebasing changes no timestamp in any time zone (micros since the epoch). */
  static final long LAST_SWITCH_MICROS = -2_208_988_800_000_000L;
  /** The option names in messages. */
  static final String DATETIME_OPTION = "datetimeRebaseMode";
  static final String INT96_OPTION = "int96RebaseMode";

  private static final String SPARK_VERSION = "org.apache.spark.version";
  private static final String SPARK_LEGACY_DATETIME = "org.apache.spark.legacyDateTime";
  private static final String SPARK_LEGACY_INT96 = "org.apache.spark.legacyINT96";
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  private final RebaseMode datetime;
  private final RebaseMode int96;
  private final ZoneId zone;
  private final String file;

  private CalendarRebase(RebaseMode datetime, RebaseMode int96, ZoneId zone, String file) {
    this.datetime = datetime;
    this.int96 = int96;
    this.zone = zone;
    this.file = file;
  }

  /** The file's name in messages. */
  String file() {
    return file;
  }

  /** The modes for a file with footer key-value metadata {@code footer} (Spark's rules, version strings compared). */
  static CalendarRebase forFile(Map<String, String> footer, ReadSettings settings, String file) {
    String writer = footer.get(SPARK_VERSION);
    RebaseMode datetime = writer == null ? settings.datetimeRebaseMode()
        : writer.compareTo("3.0.0") < 0 || footer.containsKey(SPARK_LEGACY_DATETIME) ? RebaseMode.LEGACY
        : RebaseMode.CORRECTED;
    RebaseMode int96 = writer == null ? settings.int96RebaseMode()
        : writer.compareTo("3.1.0") < 0 || footer.containsKey(SPARK_LEGACY_INT96) ? RebaseMode.LEGACY
        : RebaseMode.CORRECTED;
    return new CalendarRebase(datetime, int96, settings.rebaseZone(), file);
  }

  /** A DATE value (days since the epoch as stored) in the proleptic Gregorian calendar. */
  int days(int days, String column) {
    if (days >= LAST_SWITCH_DAY || datetime == RebaseMode.CORRECTED) {
      return days;
    }
    if (datetime == RebaseMode.EXCEPTION) {
      throw Errors.ambiguousCalendar(file, column, "dates before 1582-10-15", DATETIME_OPTION);
    }
    return julianToGregorianDays(days);
  }

  /** An INT64 timestamp (micros since the epoch as stored) in the proleptic Gregorian calendar. */
  long micros(long micros, String column) {
    return rebase(micros, datetime, column, DATETIME_OPTION);
  }

  /** An INT96 timestamp (micros since the epoch, from its Julian day and nanos) in the proleptic Gregorian calendar. */
  long int96Micros(long micros, String column) {
    return rebase(micros, int96, column, INT96_OPTION);
  }

  private long rebase(long micros, RebaseMode mode, String column, String option) {
    if (micros >= LAST_SWITCH_MICROS || mode == RebaseMode.CORRECTED) {
      return micros;
    }
    if (mode == RebaseMode.EXCEPTION) {
      throw Errors.ambiguousCalendar(file, column, "timestamps before 1900-01-01T00:00:00Z", option);
    }
    return julianToGregorianMicros(micros, zone);
  }

  /** The same local date (year, month, day) read in the hybrid calendar, placed in the proleptic Gregorian one. */
  static int julianToGregorianDays(int days) {
    GregorianCalendar hybrid = new GregorianCalendar(UTC);
    hybrid.setTimeInMillis(Math.multiplyExact((long) days, 86_400_000L));
    LocalDate local = LocalDate.of(hybrid.get(Calendar.YEAR), hybrid.get(Calendar.MONTH) + 1, 1)
        .with(ChronoField.ERA, hybrid.get(Calendar.ERA))
        .plusDays(hybrid.get(Calendar.DAY_OF_MONTH) - 1L); // days added: Julian-only dates such as 1000-02-29
    return Math.toIntExact(local.toEpochDay());
  }

  /** The same local date-time in {@code zone} read in the hybrid calendar, placed in the proleptic Gregorian one. */
  static long julianToGregorianMicros(long micros, ZoneId zone) {
    GregorianCalendar hybrid = new GregorianCalendar(TimeZone.getTimeZone(zone));
    hybrid.setTimeInMillis(Math.floorDiv(micros, 1000L));
    LocalDateTime local = LocalDateTime.of(hybrid.get(Calendar.YEAR), hybrid.get(Calendar.MONTH) + 1, 1,
        hybrid.get(Calendar.HOUR_OF_DAY), hybrid.get(Calendar.MINUTE), hybrid.get(Calendar.SECOND),
        (int) (Math.floorMod(micros, 1_000_000L) * 1000))
        .with(ChronoField.ERA, hybrid.get(Calendar.ERA))
        .plusDays(hybrid.get(Calendar.DAY_OF_MONTH) - 1L);
    ZonedDateTime zoned = local.atZone(zone);
    if (hybrid.get(Calendar.DST_OFFSET) == 0) {
      zoned = zoned.withLaterOffsetAtOverlap(); // clocks already went back: the later of two offsets
    }
    return Math.addExact(Math.multiplyExact(zoned.toEpochSecond(), 1_000_000L), zoned.getNano() / 1000);
  }

  /** Micros since the epoch of an INT96 value: Julian day number and nanos of the day, without overflow. */
  static long int96ToMicros(int julianDay, long nanosOfDay) {
    return (julianDay - 2_440_588L) * MICROS_PER_DAY + nanosOfDay / 1000;
  }
}
