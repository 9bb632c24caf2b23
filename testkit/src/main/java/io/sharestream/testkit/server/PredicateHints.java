package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.DeltaType.Decimal;
import io.sharestream.testkit.delta.DeltaType.Primitive;
import io.sharestream.testkit.delta.DeltaType.StructType;
import io.sharestream.testkit.delta.PartitionValues;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The protocol's {@code jsonPredicateHints} applied to a snapshot's files, best effort: a file is left out only
 * when no row of it can match, judged from its partition values (exact) and its {@code stats} (min/max/nullCount).
 * A hint that cannot be used at all (invalid JSON, an unknown op or column, a literal of the wrong type) keeps
 * every file, never fails the query.
 *
 * <p>Each expression evaluates to the set of SQL truth values its rows may take (true, false, null); a file is
 * kept when true is possible. Children are combined pairwise, which over-approximates and so stays safe.
 */
final class PredicateHints {
  private enum Truth { TRUE, FALSE, NULL }

  private static final Set<Truth> ANY = EnumSet.allOf(Truth.class);
  private static final PredicateHints NONE = new PredicateHints(null, null, null);

  private final Node root;
  private final StructType schema;
  private final List<String> partitionColumns;

  private PredicateHints(Node root, StructType schema, List<String> partitionColumns) {
    this.root = root;
    this.schema = schema;
    this.partitionColumns = partitionColumns;
  }

  /** Parses {@code json} (null: no hints) against the table's schema; unusable hints keep every file. */
  static PredicateHints parse(String json, Metadata metadata) {
    if (json == null || json.isBlank()) {
      return NONE;
    }
    try {
      StructType schema = metadata.schema();
      return new PredicateHints(Node.parse(Lines.JSON.readTree(json), schema), schema, metadata.partitionColumns);
    } catch (IOException | RuntimeException unusable) {
      return NONE;
    }
  }

  /** Whether some row of {@code file} may satisfy the hints. */
  boolean mayMatch(AddFile file) {
    if (root == null) {
      return true;
    }
    try {
      return root.eval(new FileValues(file, schema, partitionColumns)).contains(Truth.TRUE);
    } catch (RuntimeException unusable) {
      return true;
    }
  }

  /** What is known of one file's values: its partition values, else its stats. */
  private static final class FileValues {
    final AddFile file;
    final StructType schema;
    final List<String> partitionColumns;
    final JsonNode stats;

    FileValues(AddFile file, StructType schema, List<String> partitionColumns) {
      this.file = file;
      this.schema = schema;
      this.partitionColumns = partitionColumns;
      JsonNode s = null;
      try {
        s = file.stats == null ? null : Lines.JSON.readTree(file.stats);
      } catch (IOException ignored) {
        // no usable stats: every data column is unknown
      }
      this.stats = s;
    }

    boolean isPartition(String column) {
      return partitionColumns.stream().anyMatch(column::equalsIgnoreCase);
    }

    /** The decoded partition value of {@code column} (null for SQL NULL); keyed by physical name. */
    Comparable<?> partitionValue(Column c) {
      return c.coerce(PartitionValues.decode(c.type, file.partitionValues.get(c.physicalName)));
    }

    Long numRecords() {
      return stats != null && stats.has("numRecords") ? stats.get("numRecords").asLong() : null;
    }

    Long nullCount(Column c) {
      JsonNode n = stats == null ? null : stats.path("nullCount").get(c.physicalName);
      return n == null || !n.canConvertToLong() ? null : n.asLong();
    }

    Comparable<?> bound(Column c, String which) {
      JsonNode n = stats == null ? null : stats.path(which).get(c.physicalName);
      if (n == null || n.isNull() || n.isContainerNode()) {
        return null;
      }
      if ("maxValues".equals(which) && n.isTextual() && n.asText().length() >= 32) {
        return null; // Delta truncates long strings in stats: a max prefix is no upper bound
      }
      return c.coerce(n.isNumber() ? n.decimalValue() : n.asText());
    }
  }

  // ---------------------------------------------------------------- expression tree

  private abstract static class Node {
    abstract Set<Truth> eval(FileValues f);

    static Node parse(JsonNode n, StructType schema) {
      String op = n.path("op").asText("").toLowerCase(Locale.ROOT);
      List<JsonNode> children = new ArrayList<>();
      n.path("children").forEach(children::add);
      switch (op) {
        case "and": case "or": {
          if (children.size() < 2) {
            throw new IllegalArgumentException(op + " needs two children");
          }
          List<Node> parsed = new ArrayList<>();
          for (JsonNode c : children) {
            parsed.add(parse(c, schema));
          }
          return new Logical(op.equals("and"), parsed);
        }
        case "not":
          return new Not(parse(only(children, op), schema));
        case "isnull":
          return new IsNull(Column.of(only(children, op), schema));
        case "equal": case "lessthan": case "lessthanorequal": case "greaterthan": case "greaterthanorequal": {
          if (children.size() != 2) {
            throw new IllegalArgumentException(op + " needs two children");
          }
          JsonNode a = children.get(0);
          JsonNode b = children.get(1);
          boolean columnFirst = "column".equalsIgnoreCase(a.path("op").asText());
          Column column = Column.of(columnFirst ? a : b, schema);
          Comparable<?> literal = column.literal(columnFirst ? b : a);
          return new Comparison(columnFirst ? op : mirror(op), column, literal);
        }
        default:
          throw new IllegalArgumentException("unsupported op " + op);
      }
    }

    private static JsonNode only(List<JsonNode> children, String op) {
      if (children.size() != 1) {
        throw new IllegalArgumentException(op + " needs one child");
      }
      return children.get(0);
    }

    private static String mirror(String op) {
      switch (op) {
        case "lessthan": return "greaterthan";
        case "lessthanorequal": return "greaterthanorequal";
        case "greaterthan": return "lessthan";
        case "greaterthanorequal": return "lessthanorequal";
        default: return op;
      }
    }
  }

  private static final class Logical extends Node {
    final boolean and;
    final List<Node> children;

    Logical(boolean and, List<Node> children) {
      this.and = and;
      this.children = children;
    }

    @Override
    Set<Truth> eval(FileValues f) {
      Set<Truth> acc = children.get(0).eval(f);
      for (int i = 1; i < children.size(); i++) {
        Set<Truth> next = children.get(i).eval(f);
        Set<Truth> out = EnumSet.noneOf(Truth.class);
        for (Truth x : acc) {
          for (Truth y : next) {
            out.add(and ? and(x, y) : or(x, y));
          }
        }
        acc = out;
      }
      return acc;
    }

    private static Truth and(Truth x, Truth y) {
      if (x == Truth.FALSE || y == Truth.FALSE) {
        return Truth.FALSE;
      }
      return x == Truth.NULL || y == Truth.NULL ? Truth.NULL : Truth.TRUE;
    }

    private static Truth or(Truth x, Truth y) {
      if (x == Truth.TRUE || y == Truth.TRUE) {
        return Truth.TRUE;
      }
      return x == Truth.NULL || y == Truth.NULL ? Truth.NULL : Truth.FALSE;
    }
  }

  private static final class Not extends Node {
    final Node child;

    Not(Node child) {
      this.child = child;
    }

    @Override
    Set<Truth> eval(FileValues f) {
      Set<Truth> out = EnumSet.noneOf(Truth.class);
      for (Truth t : child.eval(f)) {
        out.add(t == Truth.TRUE ? Truth.FALSE : t == Truth.FALSE ? Truth.TRUE : Truth.NULL);
      }
      return out;
    }
  }

  private static final class IsNull extends Node {
    final Column column;

    IsNull(Column column) {
      this.column = column;
    }

    @Override
    Set<Truth> eval(FileValues f) {
      if (f.isPartition(column.name)) {
        return EnumSet.of(f.partitionValue(column) == null ? Truth.TRUE : Truth.FALSE);
      }
      Long nulls = f.nullCount(column);
      Long rows = f.numRecords();
      if (nulls == null || rows == null) {
        return EnumSet.of(Truth.TRUE, Truth.FALSE);
      }
      Set<Truth> out = EnumSet.noneOf(Truth.class);
      if (nulls > 0) {
        out.add(Truth.TRUE);
      }
      if (nulls < rows) {
        out.add(Truth.FALSE);
      }
      return out;
    }
  }

  private static final class Comparison extends Node {
    final String op;
    final Column column;
    final Comparable<?> literal;

    Comparison(String op, Column column, Comparable<?> literal) {
      this.op = op;
      this.column = column;
      this.literal = literal;
    }

    @Override
    Set<Truth> eval(FileValues f) {
      if (literal == null) {
        return EnumSet.of(Truth.NULL);
      }
      if (f.isPartition(column.name)) {
        Comparable<?> v = f.partitionValue(column);
        return EnumSet.of(v == null ? Truth.NULL : holds(compare(v, literal)) ? Truth.TRUE : Truth.FALSE);
      }
      Comparable<?> min = f.bound(column, "minValues");
      Comparable<?> max = f.bound(column, "maxValues");
      Long nulls = f.nullCount(column);
      Long rows = f.numRecords();
      Set<Truth> out = EnumSet.noneOf(Truth.class);
      boolean allNull = nulls != null && rows != null && nulls.equals(rows);
      if (nulls == null || nulls > 0) {
        out.add(Truth.NULL);
      }
      if (allNull) {
        return out;
      }
      if (min == null || max == null) {
        out.add(Truth.TRUE);
        out.add(Truth.FALSE);
        return out;
      }
      int lo = compare(min, literal);
      int hi = compare(max, literal);
      if (possiblyTrue(lo, hi)) {
        out.add(Truth.TRUE);
      }
      if (possiblyFalse(lo, hi)) {
        out.add(Truth.FALSE);
      }
      return out;
    }

    private boolean holds(int c) {
      switch (op) {
        case "equal": return c == 0;
        case "lessthan": return c < 0;
        case "lessthanorequal": return c <= 0;
        case "greaterthan": return c > 0;
        default: return c >= 0;
      }
    }

    /** Some value in [min, max] satisfies {@code value op literal}; lo/hi compare min/max with the literal. */
    private boolean possiblyTrue(int lo, int hi) {
      switch (op) {
        case "equal": return lo <= 0 && hi >= 0;
        case "lessthan": return lo < 0;
        case "lessthanorequal": return lo <= 0;
        case "greaterthan": return hi > 0;
        default: return hi >= 0;
      }
    }

    /** Some value in [min, max] fails {@code value op literal}. */
    private boolean possiblyFalse(int lo, int hi) {
      switch (op) {
        case "equal": return lo != 0 || hi != 0;
        case "lessthan": return hi >= 0;
        case "lessthanorequal": return hi > 0;
        case "greaterthan": return lo <= 0;
        default: return lo < 0;
      }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Comparable a, Comparable b) {
      return Integer.signum(a.compareTo(b));
    }
  }

  /**
   * A column of the table with the value type a hint compares it as, and the name stats and partition values know
   * it by (its column mapping physical name, else its name).
   */
  private static final class Column {
    final String name;
    final String physicalName;
    final DeltaType type;
    final String valueType;

    private Column(String name, String physicalName, DeltaType type, String valueType) {
      this.name = name;
      this.physicalName = physicalName;
      this.type = type;
      this.valueType = valueType;
    }

    static Column of(JsonNode n, StructType schema) {
      if (!"column".equalsIgnoreCase(n.path("op").asText())) {
        throw new IllegalArgumentException("expected a column");
      }
      String name = n.path("name").asText();
      DeltaType type = null;
      String physicalName = null;
      for (DeltaType.Field f : schema.fields) {
        if (f.name.equalsIgnoreCase(name)) {
          type = f.type;
          name = f.name;
          Object physical = f.metadata.get("delta.columnMapping.physicalName");
          physicalName = physical == null ? f.name : physical.toString();
        }
      }
      if (type == null) {
        throw new IllegalArgumentException("unknown column " + name);
      }
      String valueType = n.path("valueType").asText("").toLowerCase(Locale.ROOT);
      if (!compatible(valueType, type)) {
        throw new IllegalArgumentException("column " + name + " of type " + type + " compared as " + valueType);
      }
      return new Column(name, physicalName, type, valueType);
    }

    private static boolean compatible(String valueType, DeltaType type) {
      String t = type instanceof Decimal ? "decimal" : type instanceof Primitive ? ((Primitive) type).name : "";
      switch (valueType) {
        case "bool": return t.equals("boolean");
        case "int": case "long": case "float": case "double":
          return List.of("byte", "short", "integer", "long", "float", "double", "decimal").contains(t);
        case "string": return t.equals("string");
        case "date": return t.equals("date");
        case "timestamp": return t.equals("timestamp") || t.equals("timestamp_ntz");
        default: return false;
      }
    }

    /** The literal of a hint, parsed as this column's value type; a value that does not parse is unusable. */
    Comparable<?> literal(JsonNode n) {
      if (!"literal".equalsIgnoreCase(n.path("op").asText())) {
        throw new IllegalArgumentException("expected a literal");
      }
      if (!n.has("value") || n.get("value").isNull()) {
        return null;
      }
      String lt = n.path("valueType").asText(valueType).toLowerCase(Locale.ROOT);
      if (!lt.equals(valueType) && !(isNumeric(lt) && isNumeric(valueType))) {
        throw new IllegalArgumentException("literal of type " + lt + " compared with " + valueType);
      }
      return coerce(n.get("value").asText());
    }

    private static boolean isNumeric(String t) {
      return List.of("int", "long", "float", "double").contains(t);
    }

    /** A value of this column (Java object, stats JSON scalar or literal text) in its comparable form. */
    Comparable<?> coerce(Object v) {
      if (v == null) {
        return null;
      }
      switch (valueType) {
        case "bool":
          if (v instanceof Boolean) {
            return (Boolean) v;
          }
          String b = v.toString().trim();
          if (!b.equalsIgnoreCase("true") && !b.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("not a boolean: " + b);
          }
          return Boolean.parseBoolean(b);
        case "int": case "long": case "float": case "double":
          return v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString().trim());
        case "date":
          return v instanceof LocalDate ? (LocalDate) v : LocalDate.parse(v.toString().trim());
        case "timestamp":
          if (v instanceof Instant) {
            return (Instant) v;
          }
          if (v instanceof LocalDateTime) {
            return ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
          }
          return instant(v.toString().trim());
        default:
          return v.toString();
      }
    }

    private static Instant instant(String s) {
      try {
        return OffsetDateTime.parse(s).toInstant();
      } catch (DateTimeParseException e) {
        return ((Instant) PartitionValues.decode(DeltaType.TIMESTAMP, s));
      }
    }
  }
}
