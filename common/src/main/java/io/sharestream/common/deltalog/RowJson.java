package io.sharestream.common.deltalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import java.util.List;
import java.util.Map;

/**
 * A checkpoint row's action as the JSON of a commit line, so that actions from Parquet checkpoints and from JSON
 * commits are read by one parser. Nulls are left out, as Delta's JSON writer leaves them out.
 */
final class RowJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RowJson() {}

  static ObjectNode of(Row row) {
    ObjectNode o = NODES.objectNode();
    List<StructField> fields = row.schema().fields();
    for (int i = 0; i < fields.size(); i++) {
      Object v = row.get(i);
      if (v != null) {
        o.set(fields.get(i).name(), value(v));
      }
    }
    return o;
  }

  private static JsonNode value(Object v) {
    if (v instanceof Row) {
      return of((Row) v);
    } else if (v instanceof List) {
      ArrayNode a = NODES.arrayNode();
      for (Object e : (List<?>) v) {
        a.add(e == null ? NODES.nullNode() : value(e));
      }
      return a;
    } else if (v instanceof Map) {
      ObjectNode m = NODES.objectNode();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        m.set(String.valueOf(e.getKey()), e.getValue() == null ? NODES.nullNode() : value(e.getValue()));
      }
      return m;
    } else if (v instanceof Long) {
      return NODES.numberNode((Long) v);
    } else if (v instanceof Integer) {
      return NODES.numberNode((Integer) v);
    } else if (v instanceof Boolean) {
      return NODES.booleanNode((Boolean) v);
    }
    return NODES.textNode(String.valueOf(v));
  }
}
