package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Tables Delta Lake 4.0 wrote (delta-spark 4.0.0 on Spark 4.0.0, in the module {@code interop/delta-4.0}, which
 * writes them again with {@code -Dfixtures.write=true} and checks on every build that Delta still reads them as
 * recorded), kept with Delta's own reads of them ({@link Truth}): a type-widened table and a variant table, for the
 * engines' tests to read through the kit and compare. A row is its {@link Truth#columns} as Spark casts them to
 * strings, a variant as its {@code to_json} text (session time zone UTC), joined by {@code " | "}, {@code NULL} for
 * null.
 */
public final class DeltaLake4Fixtures {
  /** Every column type widened in place (one ALTER per version), rows before and after, an UPDATE and a DELETE. */
  public static final String TYPE_WIDENING = "type-widening";
  /** A top-level and a nested variant column with values of every kind, an UPDATE and a DELETE. */
  public static final String VARIANT = "variant";
  public static final List<String> NAMES = List.of(TYPE_WIDENING, VARIANT);
  /** Where {@code interop/delta-4.0} writes them, under this module's resources. */
  public static final String RESOURCES = "io/sharestream/testkit/delta/lake4";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private DeltaLake4Fixtures() {}

  /** Copies table {@code name} into {@code dir} (created) and returns it. */
  public static Path copy(String name, Path dir) {
    try {
      for (String file : resource(name + "/files.txt").lines().filter(l -> !l.isBlank())
          .collect(Collectors.toList())) {
        Path target = dir.resolve(file);
        Files.createDirectories(target.getParent());
        try (InputStream in = open(name + "/table/" + file)) {
          Files.copy(in, target);
        }
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Delta's reads of table {@code name}, as recorded when it was written. */
  public static Truth truth(String name) {
    return Truth.fromJson(resource(name + "/truth.json"));
  }

  private static InputStream open(String path) throws IOException {
    InputStream in = DeltaLake4Fixtures.class.getClassLoader().getResourceAsStream(RESOURCES + "/" + path);
    if (in == null) {
      throw new IOException("no fixture file " + RESOURCES + "/" + path);
    }
    return in;
  }

  private static String resource(String path) {
    try (InputStream in = open(path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A row of values as the truth records it. */
  public static String row(List<?> values) {
    StringJoiner out = new StringJoiner(" | ");
    values.forEach(v -> out.add(text(v)));
    return out.toString();
  }

  /**
   * A Java value (as the core, a Connect record or Spark gives it) as Spark's {@code CAST(... AS STRING)} renders it,
   * time zone UTC: integers and booleans as they are, floating point as Java prints it, decimals plainly at their
   * scale, dates ISO, timestamps {@code yyyy-MM-dd HH:mm:ss} with the fraction's trailing zeros dropped.
   */
  public static String text(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).toPlainString();
    }
    if (v instanceof LocalDate) {
      return v.toString();
    }
    if (v instanceof Instant) {
      return text(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC));
    }
    if (v instanceof LocalDateTime) {
      LocalDateTime t = (LocalDateTime) v;
      String s = SECONDS.format(t);
      if (t.getNano() == 0) {
        return s;
      }
      String fraction = String.format("%09d", t.getNano()).replaceAll("0+$", "");
      return s + "." + fraction;
    }
    return v.toString();
  }

  /** Delta's reads of one table: the columns read, each version's rows and the change data feed from version 1. */
  public static final class Truth {
    /** The expressions each row holds, cast to string in this order (nested fields as {@code a.b}). */
    public final List<String> columns;
    /** Per version, {@code versionAsOf} rows, sorted. */
    public final NavigableMap<Long, List<String>> snapshots;
    /**
     * Per version from 1 that Delta answers it for, the change data feed's rows (each ending with its change type),
     * sorted. Delta 4.0 reads no change feed of a version before a type change (its rows have the old type), so the
     * feed of a type-widened table starts after its last widening.
     */
    public final NavigableMap<Long, List<String>> changes;

    public Truth(List<String> columns, Map<Long, List<String>> snapshots, Map<Long, List<String>> changes) {
      this.columns = List.copyOf(columns);
      this.snapshots = sorted(snapshots);
      this.changes = sorted(changes);
    }

    private static NavigableMap<Long, List<String>> sorted(Map<Long, List<String>> in) {
      NavigableMap<Long, List<String>> out = new TreeMap<>();
      in.forEach((v, rows) -> out.put(v, rows.stream().sorted().collect(Collectors.toList())));
      return out;
    }

    /** The latest version. */
    public long latestVersion() {
      return snapshots.lastKey();
    }

    /** The first version of {@link #changes}. */
    public long changesFrom() {
      return changes.firstKey();
    }

    /** The versions of {@link #changes} with rows. */
    public NavigableMap<Long, List<String>> changeRows() {
      NavigableMap<Long, List<String>> out = new TreeMap<>(changes);
      out.values().removeIf(List::isEmpty);
      return out;
    }

    /** The rows a stream gives per version of {@link #changes} by default: inserts and post-images, no type. */
    public NavigableMap<Long, List<String>> newImages() {
      NavigableMap<Long, List<String>> out = new TreeMap<>();
      changes.forEach((v, rows) -> {
        List<String> kept = rows.stream().filter(r -> r.endsWith(" | insert") || r.endsWith(" | update_postimage"))
            .map(r -> r.substring(0, r.lastIndexOf(" | "))).sorted().collect(Collectors.toList());
        if (!kept.isEmpty()) {
          out.put(v, kept);
        }
      });
      return out;
    }

    public String toJson() {
      ObjectNode root = JSON.createObjectNode();
      root.putPOJO("columns", columns);
      root.putPOJO("snapshots", snapshots);
      root.putPOJO("changes", changes);
      try {
        return JSON.writeValueAsString(root) + "\n";
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    public static Truth fromJson(String json) {
      try {
        JsonNode root = JSON.readTree(json);
        List<String> columns = new ArrayList<>();
        root.get("columns").forEach(c -> columns.add(c.asText()));
        return new Truth(columns, versions(root.get("snapshots")), versions(root.get("changes")));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static Map<Long, List<String>> versions(JsonNode node) {
      Map<Long, List<String>> out = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        List<String> rows = new ArrayList<>();
        e.getValue().forEach(r -> rows.add(r.asText()));
        out.put(Long.parseLong(e.getKey()), rows);
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Truth && ((Truth) o).columns.equals(columns) && ((Truth) o).snapshots.equals(snapshots)
          && ((Truth) o).changes.equals(changes);
    }

    @Override
    public int hashCode() {
      return Objects.hash(columns, snapshots, changes);
    }
  }
}
