package io.sharestream.common.types;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Whether data written with one schema can be read with another, the rule of the reference streaming source: every
 * column of the data's schema exists in the read schema (names case-insensitive, case must match exactly), with the
 * same type recursively or one Delta's type widening reads it as ({@link TypeWidening}), and nothing non-nullable in the read schema is nullable in the data. Columns the read
 * schema has beyond the data's read as null (an additive change).
 */
public final class SchemaCompatibility {
  private SchemaCompatibility() {}

  /** Null when {@code data} can be read as {@code read}, else the reason. */
  public static String incompatibility(StructType data, StructType read) {
    return check(data, read, "");
  }

  private static String check(DataType data, DataType read, String path) {
    if (data instanceof StructType && read instanceof StructType) {
      Map<String, StructField> readFields = new HashMap<>();
      for (StructField f : ((StructType) read).fields()) {
        readFields.put(f.name().toLowerCase(Locale.ROOT), f);
      }
      for (StructField f : ((StructType) data).fields()) {
        String name = path.isEmpty() ? f.name() : path + "." + f.name();
        StructField r = readFields.get(f.name().toLowerCase(Locale.ROOT));
        if (r == null) {
          return "column '" + name + "' is not in the stream's schema";
        }
        if (!r.name().equals(f.name())) {
          return "column '" + name + "' changed case (stream has '" + r.name() + "')";
        }
        if (f.nullable() && !r.nullable()) {
          return "column '" + name + "' became nullable";
        }
        String inner = check(f.type(), r.type(), name);
        if (inner != null) {
          return inner;
        }
      }
      return null;
    }
    if (data instanceof ArrayType && read instanceof ArrayType) {
      ArrayType d = (ArrayType) data;
      ArrayType r = (ArrayType) read;
      if (d.containsNull() && !r.containsNull()) {
        return "elements of '" + path + "' became nullable";
      }
      return check(d.elementType(), r.elementType(), path + ".element");
    }
    if (data instanceof MapType && read instanceof MapType) {
      MapType d = (MapType) data;
      MapType r = (MapType) read;
      if (d.valueContainsNull() && !r.valueContainsNull()) {
        return "values of '" + path + "' became nullable";
      }
      String key = check(d.keyType(), r.keyType(), path + ".key");
      return key != null ? key : check(d.valueType(), r.valueType(), path + ".value");
    }
    return TypeWidening.canWiden(data, read) ? null
        : "column '" + path + "' changed type from " + read.simpleString() + " to " + data.simpleString();
  }
}
