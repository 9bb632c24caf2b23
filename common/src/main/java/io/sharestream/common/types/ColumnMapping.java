package io.sharestream.common.types;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Delta column mapping (modes {@code name} and {@code id}): every field of a mapped table's schema, nested ones too,
 * carries a physical name and a column id in its metadata. Data files hold columns under their physical names (and
 * ids), partition values are keyed by physical names, and a RENAME or DROP changes only the schema. A reader finds
 * a column by id when the file has ids, else by physical name; unmapped schemas match by name as always.
 */
public final class ColumnMapping {
  /** Field metadata: the column's name in data files. */
  public static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";
  /** Field metadata: the column's id, also the Parquet field id. */
  public static final String ID = "delta.columnMapping.id";

  private ColumnMapping() {}

  /** The name of {@code f}'s column in data files: its physical name, or its name when unmapped. */
  public static String physicalName(StructField f) {
    Object p = f.metadata().get(PHYSICAL_NAME);
    return p == null ? f.name() : p.toString();
  }

  /** The column id of {@code f}, or null when unmapped. */
  public static Integer id(StructField f) {
    Object id = f.metadata().get(ID);
    if (id instanceof Number) {
      return ((Number) id).intValue();
    }
    return id == null ? null : Integer.valueOf(id.toString());
  }

  /** Whether the schema's columns carry physical names (the table uses column mapping). */
  public static boolean isMapped(StructType schema) {
    for (StructField f : schema.fields()) {
      if (f.metadata().containsKey(PHYSICAL_NAME)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the file column {@code name} (with Parquet field id {@code fieldId}, or null) holds {@code field}: by id
   * when both have one, else by physical name for a mapped field, else by name ignoring case.
   */
  public static boolean matches(StructField field, String name, Integer fieldId) {
    Integer id = id(field);
    if (id != null && fieldId != null) {
      return id.equals(fieldId);
    }
    Object physical = field.metadata().get(PHYSICAL_NAME);
    return physical != null ? physical.toString().equals(name) : field.name().equalsIgnoreCase(name);
  }

  /** The raw partition value of {@code field} from a file's partition values (keyed by physical or logical name). */
  public static String partitionValue(StructField field, Map<String, String> values) {
    String physical = physicalName(field);
    if (values.containsKey(physical)) {
      return values.get(physical);
    }
    if (values.containsKey(field.name())) {
      return values.get(field.name());
    }
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (e.getKey().equalsIgnoreCase(field.name())) {
        return e.getValue();
      }
    }
    return null;
  }

  /** {@code schema} with every struct field, at every level, named by its physical name (metadata kept). */
  public static StructType physical(StructType schema) {
    List<StructField> out = new ArrayList<>();
    for (StructField f : schema.fields()) {
      out.add(new StructField(physicalName(f), physical(f.type()), f.nullable(), f.metadata()));
    }
    return new StructType(out);
  }

  private static DataType physical(DataType t) {
    if (t instanceof StructType) {
      return physical((StructType) t);
    }
    if (t instanceof ArrayType) {
      ArrayType a = (ArrayType) t;
      return new ArrayType(physical(a.elementType()), a.containsNull());
    }
    if (t instanceof MapType) {
      MapType m = (MapType) t;
      return new MapType(physical(m.keyType()), physical(m.valueType()), m.valueContainsNull());
    }
    return t;
  }

  /**
   * The renames and drops from {@code before} to {@code after} of a mapped table, nested fields too, matched by
   * column id (else physical name), in words ({@code "column 'a' was renamed to 'b'"}); empty when there are none.
   */
  public static List<String> renamesAndDrops(StructType before, StructType after) {
    List<String> out = new ArrayList<>();
    compare(before, after, "", out);
    return out;
  }

  private static void compare(DataType before, DataType after, String path, List<String> out) {
    if (before instanceof StructType && after instanceof StructType) {
      Map<String, StructField> byKey = new LinkedHashMap<>();
      for (StructField f : ((StructType) after).fields()) {
        byKey.put(key(f), f);
      }
      for (StructField f : ((StructType) before).fields()) {
        String name = path.isEmpty() ? f.name() : path + "." + f.name();
        StructField now = byKey.get(key(f));
        if (now == null) {
          out.add("column '" + name + "' was dropped");
          continue;
        }
        if (!now.name().equals(f.name())) {
          out.add("column '" + name + "' was renamed to '" + now.name() + "'");
        }
        compare(f.type(), now.type(), path.isEmpty() ? now.name() : path + "." + now.name(), out);
      }
    } else if (before instanceof ArrayType && after instanceof ArrayType) {
      compare(((ArrayType) before).elementType(), ((ArrayType) after).elementType(), path + ".element", out);
    } else if (before instanceof MapType && after instanceof MapType) {
      compare(((MapType) before).keyType(), ((MapType) after).keyType(), path + ".key", out);
      compare(((MapType) before).valueType(), ((MapType) after).valueType(), path + ".value", out);
    }
  }

  private static String key(StructField f) {
    Integer id = id(f);
    return id != null ? "#" + id : Objects.toString(f.metadata().get(PHYSICAL_NAME), f.name())
        .toLowerCase(Locale.ROOT);
  }
}
