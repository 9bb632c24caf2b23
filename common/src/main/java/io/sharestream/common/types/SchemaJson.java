package io.sharestream.common.types;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes the Delta schema JSON ({@code metaData.schemaString}): a struct of fields whose types are
 * primitive names ({@code "long"}, {@code "decimal(10,2)"}) or objects for struct, array and map.
 */
public final class SchemaJson {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  private SchemaJson() {}

  /** Parses a schema string; errors name the column whose type is unknown or malformed. */
  public static StructType parse(String schemaString) {
    JsonNode root;
    try {
      root = JSON.readTree(schemaString);
    } catch (IOException e) {
      throw new IllegalArgumentException("the table's schemaString is not valid JSON: " + e.getMessage());
    }
    if (root == null || !"struct".equals(root.path("type").asText())) {
      throw new IllegalArgumentException("the table's schemaString is not a struct type");
    }
    return (StructType) type(root, "<root>");
  }

  private static DataType type(JsonNode node, String path) {
    if (node.isTextual()) {
      String name = node.asText();
      PrimitiveType p = PrimitiveType.named(name);
      if (p != null) {
        return p;
      }
      Matcher m = DECIMAL.matcher(name.toLowerCase(java.util.Locale.ROOT));
      if (m.matches()) {
        return new DecimalType(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
      }
      if (name.equalsIgnoreCase("decimal")) {
        return new DecimalType(10, 0);
      }
      GeoType geo = GeoType.parse(name);
      if (geo != null) {
        return geo;
      }
      throw new IllegalArgumentException("column '" + path + "' has type '" + name + "', which is not supported "
          + "(supported: " + supportedTypes() + ")");
    }
    String kind = node.path("type").asText("");
    switch (kind) {
      case "struct": {
        List<StructField> fields = new ArrayList<>();
        for (JsonNode f : node.path("fields")) {
          String name = f.path("name").asText(null);
          if (name == null) {
            throw new IllegalArgumentException("a field of '" + path + "' has no name");
          }
          String childPath = path.equals("<root>") ? name : path + "." + name;
          Map<String, Object> metadata = f.has("metadata") && f.get("metadata").isObject()
              ? JSON.convertValue(f.get("metadata"), JSON.getTypeFactory().constructMapType(LinkedHashMap.class,
                  String.class, Object.class))
              : Collections.<String, Object>emptyMap();
          fields.add(new StructField(name, type(f.path("type"), childPath), f.path("nullable").asBoolean(true),
              metadata));
        }
        return new StructType(fields);
      }
      case "array":
        return new ArrayType(type(node.path("elementType"), path + ".element"), node.path("containsNull").asBoolean(true));
      case "map":
        return new MapType(type(node.path("keyType"), path + ".key"), type(node.path("valueType"), path + ".value"),
            node.path("valueContainsNull").asBoolean(true));
      default:
        throw new IllegalArgumentException("column '" + path + "' has type " + node + ", which is not supported");
    }
  }

  private static String supportedTypes() {
    StringBuilder b = new StringBuilder();
    for (PrimitiveType p : PrimitiveType.values()) {
      b.append(p.simpleString()).append(", ");
    }
    return b.append("decimal(p,s), geometry(crs), geography(crs, algorithm), struct, array, map").toString();
  }

  /** The schema string for {@code schema}. */
  public static String toJson(StructType schema) {
    return node(schema).toString();
  }

  private static JsonNode node(DataType t) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (t instanceof PrimitiveType || t instanceof DecimalType || t instanceof GeoType) {
      return f.textNode(t.simpleString());
    }
    ObjectNode n = f.objectNode();
    if (t instanceof ArrayType) {
      ArrayType a = (ArrayType) t;
      n.put("type", "array");
      n.set("elementType", node(a.elementType()));
      n.put("containsNull", a.containsNull());
    } else if (t instanceof MapType) {
      MapType m = (MapType) t;
      n.put("type", "map");
      n.set("keyType", node(m.keyType()));
      n.set("valueType", node(m.valueType()));
      n.put("valueContainsNull", m.valueContainsNull());
    } else {
      n.put("type", "struct");
      ArrayNode fields = n.putArray("fields");
      for (StructField sf : ((StructType) t).fields()) {
        ObjectNode fn = fields.addObject();
        fn.put("name", sf.name());
        fn.set("type", node(sf.type()));
        fn.put("nullable", sf.nullable());
        fn.set("metadata", JSON.valueToTree(sf.metadata()));
      }
    }
    return n;
  }
}
