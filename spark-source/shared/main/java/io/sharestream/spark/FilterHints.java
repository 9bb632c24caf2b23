package io.sharestream.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's pushed filters as the protocol's {@code jsonPredicateHints}: comparisons, null checks, IN, AND, OR and NOT
 * over top-level columns of types the protocol can compare. A filter that cannot be expressed is left out (of an AND:
 * the rest still prunes; of an OR or NOT: the whole branch goes), so the hints never exclude a matching file. Spark
 * applies every filter to the rows anyway.
 */
final class FilterHints {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FilterHints() {}

  /** The hints for {@code filters} (AND-ed), or null when none can be expressed. */
  static String of(Filter[] filters, StructType schema) {
    List<ObjectNode> parts = new ArrayList<>();
    for (Filter f : filters) {
      ObjectNode n = convert(f, schema);
      if (n != null) {
        parts.add(n);
      }
    }
    if (parts.isEmpty()) {
      return null;
    }
    return (parts.size() == 1 ? parts.get(0) : op("and", parts)).toString();
  }

  private static ObjectNode convert(Filter f, StructType schema) {
    if (f instanceof And) {
      ObjectNode l = convert(((And) f).left(), schema);
      ObjectNode r = convert(((And) f).right(), schema);
      return l == null ? r : r == null ? l : op("and", Arrays.asList(l, r));
    }
    if (f instanceof Or) {
      ObjectNode l = convert(((Or) f).left(), schema);
      ObjectNode r = convert(((Or) f).right(), schema);
      return l == null || r == null ? null : op("or", Arrays.asList(l, r));
    }
    if (f instanceof Not) {
      ObjectNode c = convert(((Not) f).child(), schema);
      return c == null ? null : op("not", Arrays.asList(c));
    }
    if (f instanceof IsNull) {
      ObjectNode c = column(((IsNull) f).attribute(), schema);
      return c == null ? null : op("isNull", Arrays.asList(c));
    }
    if (f instanceof IsNotNull) {
      ObjectNode c = column(((IsNotNull) f).attribute(), schema);
      return c == null ? null : op("not", Arrays.asList(op("isNull", Arrays.asList(c))));
    }
    if (f instanceof In) {
      In in = (In) f;
      List<ObjectNode> equals = new ArrayList<>();
      for (Object v : in.values()) {
        ObjectNode e = compare("equal", in.attribute(), v, schema);
        if (e == null) {
          return null;
        }
        equals.add(e);
      }
      return equals.isEmpty() ? null : equals.size() == 1 ? equals.get(0) : op("or", equals);
    }
    if (f instanceof EqualTo) {
      return compare("equal", ((EqualTo) f).attribute(), ((EqualTo) f).value(), schema);
    }
    if (f instanceof LessThan) {
      return compare("lessThan", ((LessThan) f).attribute(), ((LessThan) f).value(), schema);
    }
    if (f instanceof LessThanOrEqual) {
      return compare("lessThanOrEqual", ((LessThanOrEqual) f).attribute(), ((LessThanOrEqual) f).value(), schema);
    }
    if (f instanceof GreaterThan) {
      return compare("greaterThan", ((GreaterThan) f).attribute(), ((GreaterThan) f).value(), schema);
    }
    if (f instanceof GreaterThanOrEqual) {
      return compare("greaterThanOrEqual", ((GreaterThanOrEqual) f).attribute(), ((GreaterThanOrEqual) f).value(),
          schema);
    }
    return null;
  }

  private static ObjectNode compare(String op, String attribute, Object value, StructType schema) {
    ObjectNode c = column(attribute, schema);
    String literal = literal(value);
    if (c == null || literal == null) {
      return null;
    }
    ObjectNode lit = JSON.createObjectNode().put("op", "literal").put("value", literal)
        .put("valueType", c.get("valueType").asText());
    return op(op, Arrays.asList(c, lit));
  }

  private static ObjectNode column(String attribute, StructType schema) {
    StructField field = null;
    for (StructField f : schema.fields()) {
      if (f.name().equalsIgnoreCase(attribute)) {
        field = f;
      }
    }
    String type = field == null ? null : valueType(field.dataType());
    return type == null ? null : JSON.createObjectNode().put("op", "column").put("name", field.name())
        .put("valueType", type);
  }

  private static String valueType(DataType t) {
    if (t.equals(DataTypes.BooleanType)) {
      return "bool";
    }
    if (t.equals(DataTypes.ByteType) || t.equals(DataTypes.ShortType) || t.equals(DataTypes.IntegerType)) {
      return "int";
    }
    if (t.equals(DataTypes.LongType)) {
      return "long";
    }
    if (t.equals(DataTypes.FloatType)) {
      return "float";
    }
    if (t.equals(DataTypes.DoubleType)) {
      return "double";
    }
    if (t.equals(DataTypes.StringType)) {
      return "string";
    }
    if (t.equals(DataTypes.DateType)) {
      return "date";
    }
    return t.equals(DataTypes.TimestampType) ? "timestamp" : null;
  }

  private static String literal(Object v) {
    if (v == null || v instanceof BigDecimal) {
      return null;
    }
    if (v instanceof java.sql.Date) {
      return ((java.sql.Date) v).toLocalDate().toString();
    }
    if (v instanceof java.sql.Timestamp) {
      return ((java.sql.Timestamp) v).toInstant().toString();
    }
    if (v instanceof Boolean || v instanceof Number || v instanceof String || v instanceof java.time.LocalDate
        || v instanceof java.time.Instant) {
      return v.toString();
    }
    return null;
  }

  private static ObjectNode op(String op, List<ObjectNode> children) {
    ObjectNode n = JSON.createObjectNode().put("op", op);
    ArrayNode c = n.putArray("children");
    children.forEach(c::add);
    return n;
  }
}
