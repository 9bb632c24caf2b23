package io.sharestream.testkit.delta;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A schema with every Delta type and rows with the edge values ordinary tables hold (NaN and infinities, extreme
 * decimals and dates, pre-1970 timestamps, empty strings, binaries, arrays and maps, null elements, quotes, newlines
 * and non-ASCII text): for round-trip tests in every module. And a plain ten-column table for the benchmarks.
 */
public final class Samples {
  private Samples() {}

  /** Ten columns of the types most tables hold: what the benchmarks stream. */
  public static final DeltaType.StructType ORDERS = DeltaType.struct(
      DeltaType.field("id", DeltaType.LONG, false), DeltaType.field("name", DeltaType.STRING),
      DeltaType.field("category", DeltaType.STRING), DeltaType.field("score", DeltaType.DOUBLE),
      DeltaType.field("qty", DeltaType.INTEGER), DeltaType.field("flag", DeltaType.BOOLEAN),
      DeltaType.field("amount", DeltaType.decimal(18, 2)), DeltaType.field("day", DeltaType.DATE),
      DeltaType.field("at", DeltaType.TIMESTAMP), DeltaType.field("note", DeltaType.STRING));

  /** {@link #ORDERS} rows with ids {@code from} (inclusive) to {@code to}, the same for the same range. */
  public static List<Map<String, Object>> orders(long from, long to) {
    List<Map<String, Object>> out = new ArrayList<>();
    Random random = new Random(from);
    for (long i = from; i < to; i++) {
      out.add(order(i, random));
    }
    return out;
  }

  /** The {@link #ORDERS} row with id {@code i}, random values drawn from {@code random}. */
  public static Map<String, Object> order(long i, Random random) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("id", i);
    r.put("name", "customer-" + (i % 10_000));
    r.put("category", List.of("books", "games", "garden", "music", "tools").get((int) (i % 5)));
    r.put("score", random.nextDouble() * 100);
    r.put("qty", random.nextInt(50));
    r.put("flag", random.nextBoolean());
    r.put("amount", BigDecimal.valueOf(random.nextInt(1_000_000), 2));
    r.put("day", LocalDate.of(2024, 1, 1).plusDays(i % 365));
    r.put("at", Instant.ofEpochSecond(1_700_000_000L + i, (i % 1000) * 1000));
    r.put("note", "order " + i);
    return r;
  }

  /** Every Delta type, nested ones included; {@code id} is the only non-nullable column. */
  public static final DeltaType.StructType ALL_TYPES = DeltaType.struct(
      DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("b", DeltaType.BOOLEAN),
      DeltaType.field("i8", DeltaType.BYTE),
      DeltaType.field("i16", DeltaType.SHORT),
      DeltaType.field("i32", DeltaType.INTEGER),
      DeltaType.field("f32", DeltaType.FLOAT),
      DeltaType.field("f64", DeltaType.DOUBLE),
      DeltaType.field("s", DeltaType.STRING),
      DeltaType.field("bin", DeltaType.BINARY),
      DeltaType.field("d", DeltaType.DATE),
      DeltaType.field("ts", DeltaType.TIMESTAMP),
      DeltaType.field("ntz", DeltaType.TIMESTAMP_NTZ),
      DeltaType.field("dec5", DeltaType.decimal(5, 2)),
      DeltaType.field("dec18", DeltaType.decimal(18, 4)),
      DeltaType.field("dec38", DeltaType.decimal(38, 18)),
      DeltaType.field("st", DeltaType.struct(DeltaType.field("x", DeltaType.INTEGER),
          DeltaType.field("y", DeltaType.array(DeltaType.STRING, true)))),
      DeltaType.field("arr", DeltaType.array(DeltaType.LONG, true)),
      DeltaType.field("nested", DeltaType.array(DeltaType.array(DeltaType.INTEGER, true), true)),
      DeltaType.field("m", DeltaType.map(DeltaType.STRING,
          DeltaType.struct(DeltaType.field("v", DeltaType.DOUBLE)), true)));

  /** Three rows of {@link #ALL_TYPES}: edge values, empty values, and all nulls but {@code id}. */
  public static List<Map<String, Object>> allTypeRows() {
    Map<String, Object> mapValue = new LinkedHashMap<>();
    mapValue.put("k1", row("v", 1.5));
    mapValue.put("k2", null);
    return List.of(
        row("id", 1L, "b", true, "i8", (byte) -128, "i16", (short) 32767, "i32", Integer.MIN_VALUE,
            "f32", Float.NaN, "f64", Double.NEGATIVE_INFINITY, "s", "quote\" newline\n ünïcødé ✓",
            "bin", new byte[] {0, 1, (byte) 0xFF}, "d", LocalDate.of(9999, 12, 31),
            "ts", Instant.parse("1969-07-20T20:17:40.123456Z"),
            "ntz", LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000),
            "dec5", new BigDecimal("-999.99"), "dec18", new BigDecimal("12345678901234.5678"),
            "dec38", new BigDecimal("-12345678901234567890.123456789012345678"),
            "st", row("x", 7, "y", Arrays.asList("a", null, "")), "arr", Arrays.asList(1L, null, 3L),
            "nested", Arrays.asList(Arrays.asList(1, 2), null, List.of()), "m", mapValue),
        row("id", 2L, "b", false, "i8", (byte) 0, "i16", (short) -1, "i32", 0, "f32", Float.POSITIVE_INFINITY,
            "f64", -0.0, "s", "", "bin", new byte[0], "d", LocalDate.of(1900, 1, 1),
            "ts", Instant.parse("2024-01-01T00:00:00Z"), "ntz", LocalDateTime.of(1970, 1, 1, 0, 0),
            "dec5", new BigDecimal("0.01"), "dec18", new BigDecimal("0.0000"), "dec38", new BigDecimal("0E-18"),
            "st", row("x", null, "y", List.of()), "arr", List.of(), "nested", List.of(), "m", Map.of()),
        row("id", 3L));
  }

  /** Dates at the ends of Spark's range and around the calendar switch (1582-10-15) and the legacy-rebase bound. */
  public static final List<LocalDate> CALENDAR_EDGE_DATES = List.of(LocalDate.of(1, 1, 1), LocalDate.of(1000, 1, 1),
      LocalDate.of(1582, 10, 4), LocalDate.of(1582, 10, 15), LocalDate.of(1899, 12, 31), LocalDate.of(9999, 12, 31));

  /** Timestamps at the ends of Spark's range, outside INT96's nanosecond-long range, and around 1900-01-01. */
  public static final List<Instant> CALENDAR_EDGE_TIMESTAMPS = List.of(Instant.parse("0001-01-01T00:00:00Z"),
      Instant.parse("1000-01-01T00:00:00.123456Z"), Instant.parse("1899-12-31T23:59:59.999999Z"),
      Instant.parse("2262-04-12T00:00:00Z"), Instant.parse("2500-06-30T12:00:00.000001Z"),
      Instant.parse("9999-12-31T23:59:59.999999Z"));

  /** A schema {@code (id long, d date, ts timestamp)} and one row per edge date and timestamp, paired in order. */
  public static final DeltaType.StructType CALENDAR_EDGES = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
      DeltaType.field("d", DeltaType.DATE), DeltaType.field("ts", DeltaType.TIMESTAMP));

  public static List<Map<String, Object>> calendarEdgeRows() {
    List<Map<String, Object>> rows = new java.util.ArrayList<>();
    for (int i = 0; i < CALENDAR_EDGE_DATES.size(); i++) {
      rows.add(row("id", (long) i, "d", CALENDAR_EDGE_DATES.get(i), "ts", CALENDAR_EDGE_TIMESTAMPS.get(i)));
    }
    return rows;
  }

  /** A row map from alternating column names and values. */
  public static Map<String, Object> row(Object... namesAndValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return m;
  }
}
