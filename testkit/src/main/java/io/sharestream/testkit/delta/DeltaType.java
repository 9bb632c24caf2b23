package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Delta column type, as written in a table's {@code schemaString} (the Spark SQL JSON schema form).
 * The kit's own model: it describes what the writer puts on disk and is deliberately independent of the
 * product's type model, so the kit can check the product rather than mirror it.
 */
public abstract class DeltaType {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  public static final Primitive BOOLEAN = new Primitive("boolean");
  public static final Primitive BYTE = new Primitive("byte");
  public static final Primitive SHORT = new Primitive("short");
  public static final Primitive INTEGER = new Primitive("integer");
  public static final Primitive LONG = new Primitive("long");
  public static final Primitive FLOAT = new Primitive("float");
  public static final Primitive DOUBLE = new Primitive("double");
  public static final Primitive STRING = new Primitive("string");
  public static final Primitive BINARY = new Primitive("binary");
  public static final Primitive DATE = new Primitive("date");
  public static final Primitive TIMESTAMP = new Primitive("timestamp");
  public static final Primitive TIMESTAMP_NTZ = new Primitive("timestamp_ntz");
  /**
   * Semi-structured values in the Variant encoding (Delta 4.0, reader and writer feature {@code variantType}); rows
   * hold a {@link VariantValue} or a Java value to encode (see {@link ParquetRows}).
   */
  public static final Primitive VARIANT = new Primitive("variant");

  private static final Map<String, Primitive> PRIMITIVES = new LinkedHashMap<>();

  static {
    for (Primitive p : List.of(BOOLEAN, BYTE, SHORT, INTEGER, LONG, FLOAT, DOUBLE, STRING, BINARY, DATE,
        TIMESTAMP, TIMESTAMP_NTZ, VARIANT)) {
      PRIMITIVES.put(p.name, p);
    }
  }

  DeltaType() {}

  /** The JSON form used inside {@code schemaString}: a string for primitives, an object otherwise. */
  public abstract JsonNode toJson();

  public static Decimal decimal(int precision, int scale) {
    return new Decimal(precision, scale);
  }

  public static ArrayType array(DeltaType element, boolean containsNull) {
    return new ArrayType(element, containsNull);
  }

  public static MapType map(DeltaType key, DeltaType value, boolean valueContainsNull) {
    return new MapType(key, value, valueContainsNull);
  }

  public static StructType struct(Field... fields) {
    return new StructType(List.of(fields));
  }

  public static Field field(String name, DeltaType type) {
    return new Field(name, type, true, Map.of());
  }

  public static Field field(String name, DeltaType type, boolean nullable) {
    return new Field(name, type, nullable, Map.of());
  }

  /** Whether this type is {@code variant} or nests one (in a struct, array or map). */
  public boolean containsVariant() {
    if (this == VARIANT) {
      return true;
    }
    if (this instanceof StructType) {
      return ((StructType) this).fields.stream().anyMatch(f -> f.type.containsVariant());
    }
    if (this instanceof ArrayType) {
      return ((ArrayType) this).elementType.containsVariant();
    }
    if (this instanceof MapType) {
      return ((MapType) this).keyType.containsVariant() || ((MapType) this).valueType.containsVariant();
    }
    return false;
  }

  /** Parses a type from its schema JSON form. */
  public static DeltaType fromJson(JsonNode node) {
    if (node.isTextual()) {
      String name = node.asText().toLowerCase(Locale.ROOT);
      Primitive p = PRIMITIVES.get(name);
      if (p != null) {
        return p;
      }
      Matcher m = DECIMAL.matcher(name);
      if (m.matches()) {
        return decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      }
      if (name.equals("decimal")) {
        return decimal(10, 0);
      }
      throw new IllegalArgumentException("unknown Delta type: " + name);
    }
    String type = node.path("type").asText();
    switch (type) {
      case "struct":
        List<Field> fields = new ArrayList<>();
        for (JsonNode f : node.path("fields")) {
          Map<String, Object> metadata = f.has("metadata")
              ? JSON.convertValue(f.get("metadata"), JSON.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Object.class))
              : Map.of();
          fields.add(new Field(f.path("name").asText(), fromJson(f.path("type")), f.path("nullable").asBoolean(true), metadata));
        }
        return new StructType(fields);
      case "array":
        return array(fromJson(node.path("elementType")), node.path("containsNull").asBoolean(true));
      case "map":
        return map(fromJson(node.path("keyType")), fromJson(node.path("valueType")),
            node.path("valueContainsNull").asBoolean(true));
      default:
        throw new IllegalArgumentException("unknown Delta type: " + node);
    }
  }

  /** Parses a table's {@code schemaString}. */
  public static StructType parseSchema(String schemaString) {
    try {
      return (StructType) fromJson(JSON.readTree(schemaString));
    } catch (IOException e) {
      throw new UncheckedIOException("schemaString is not JSON", e);
    }
  }

  @Override
  public String toString() {
    return toJson().toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeltaType && toJson().equals(((DeltaType) o).toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  /** A type named by a single word: {@code long}, {@code string}, {@code date}, ... */
  public static final class Primitive extends DeltaType {
    public final String name;

    Primitive(String name) {
      this.name = name;
    }

    @Override
    public JsonNode toJson() {
      return NODES.textNode(name);
    }
  }

  /** {@code decimal(p,s)}. */
  public static final class Decimal extends DeltaType {
    public final int precision;
    public final int scale;

    Decimal(int precision, int scale) {
      if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        throw new IllegalArgumentException("invalid decimal(" + precision + "," + scale + ")");
      }
      this.precision = precision;
      this.scale = scale;
    }

    @Override
    public JsonNode toJson() {
      return NODES.textNode("decimal(" + precision + "," + scale + ")");
    }
  }

  /** An array with its element type. */
  public static final class ArrayType extends DeltaType {
    public final DeltaType elementType;
    public final boolean containsNull;

    ArrayType(DeltaType elementType, boolean containsNull) {
      this.elementType = Objects.requireNonNull(elementType);
      this.containsNull = containsNull;
    }

    @Override
    public JsonNode toJson() {
      ObjectNode n = NODES.objectNode();
      n.put("type", "array");
      n.set("elementType", elementType.toJson());
      n.put("containsNull", containsNull);
      return n;
    }
  }

  /** A map with key and value types. */
  public static final class MapType extends DeltaType {
    public final DeltaType keyType;
    public final DeltaType valueType;
    public final boolean valueContainsNull;

    MapType(DeltaType keyType, DeltaType valueType, boolean valueContainsNull) {
      this.keyType = Objects.requireNonNull(keyType);
      this.valueType = Objects.requireNonNull(valueType);
      this.valueContainsNull = valueContainsNull;
    }

    @Override
    public JsonNode toJson() {
      ObjectNode n = NODES.objectNode();
      n.put("type", "map");
      n.set("keyType", keyType.toJson());
      n.set("valueType", valueType.toJson());
      n.put("valueContainsNull", valueContainsNull);
      return n;
    }
  }

  /** A struct: the table schema itself or a nested column. */
  public static final class StructType extends DeltaType {
    public final List<Field> fields;

    StructType(List<Field> fields) {
      this.fields = Collections.unmodifiableList(new ArrayList<>(fields));
    }

    public Field field(String name) {
      for (Field f : fields) {
        if (f.name.equals(name)) {
          return f;
        }
      }
      throw new IllegalArgumentException("no column " + name + " in " + this);
    }

    public boolean has(String name) {
      return fields.stream().anyMatch(f -> f.name.equals(name));
    }

    /** This struct with one more field at the end. */
    public StructType add(Field field) {
      if (has(field.name)) {
        throw new IllegalArgumentException("column " + field.name + " already exists");
      }
      List<Field> more = new ArrayList<>(fields);
      more.add(field);
      return new StructType(more);
    }

    /** This struct without the named fields (e.g. partition columns, which Parquet files do not hold). */
    public StructType without(List<String> names) {
      List<Field> kept = new ArrayList<>();
      for (Field f : fields) {
        if (!names.contains(f.name)) {
          kept.add(f);
        }
      }
      return new StructType(kept);
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode n = NODES.objectNode();
      n.put("type", "struct");
      ArrayNode arr = n.putArray("fields");
      for (Field f : fields) {
        ObjectNode fn = arr.addObject();
        fn.put("name", f.name);
        fn.set("type", f.type.toJson());
        fn.put("nullable", f.nullable);
        fn.set("metadata", JSON.valueToTree(f.metadata));
      }
      return n;
    }

    /** The {@code schemaString} form. */
    public String toSchemaString() {
      return toJson().toString();
    }
  }

  /** A named, nullable or not, column of a struct with its field metadata. */
  public static final class Field {
    public final String name;
    public final DeltaType type;
    public final boolean nullable;
    public final Map<String, Object> metadata;

    public Field(String name, DeltaType type, boolean nullable, Map<String, Object> metadata) {
      this.name = Objects.requireNonNull(name);
      this.type = Objects.requireNonNull(type);
      this.nullable = nullable;
      this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    public Field withComment(String comment) {
      Map<String, Object> m = new LinkedHashMap<>(metadata);
      m.put("comment", comment);
      return new Field(name, type, nullable, m);
    }
  }
}
