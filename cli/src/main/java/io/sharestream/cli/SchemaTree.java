package io.sharestream.cli;

import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.util.ArrayList;
import java.util.List;

/** A schema as Spark's {@code printSchema} shows it: one line per field, nested types indented below theirs. */
final class SchemaTree {
  private SchemaTree() {}

  static List<String> lines(StructType schema) {
    List<String> out = new ArrayList<>();
    out.add("root");
    fields(schema, " |", out);
    return out;
  }

  private static void fields(StructType struct, String prefix, List<String> out) {
    for (StructField f : struct.fields()) {
      out.add(prefix + "-- " + f.name() + ": " + name(f.type()) + " (nullable = " + f.nullable() + ")");
      children(f.type(), prefix + "    |", out);
    }
  }

  private static void children(DataType type, String prefix, List<String> out) {
    if (type instanceof StructType) {
      fields((StructType) type, prefix, out);
    } else if (type instanceof ArrayType) {
      ArrayType a = (ArrayType) type;
      out.add(prefix + "-- element: " + name(a.elementType()) + " (containsNull = " + a.containsNull() + ")");
      children(a.elementType(), prefix + "    |", out);
    } else if (type instanceof MapType) {
      MapType m = (MapType) type;
      out.add(prefix + "-- key: " + name(m.keyType()));
      children(m.keyType(), prefix + "    |", out);
      out.add(prefix + "-- value: " + name(m.valueType()) + " (valueContainsNull = " + m.valueContainsNull() + ")");
      children(m.valueType(), prefix + "    |", out);
    }
  }

  private static String name(DataType type) {
    return type instanceof StructType ? "struct" : type instanceof ArrayType ? "array"
        : type instanceof MapType ? "map" : type.simpleString();
  }
}
