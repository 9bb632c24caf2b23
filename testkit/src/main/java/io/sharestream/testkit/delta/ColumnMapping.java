package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaType.ArrayType;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.MapType;
import io.sharestream.testkit.delta.DeltaType.StructType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Delta column mapping ({@code name} and {@code id} modes): every struct field at every level carries a
 * {@code delta.columnMapping.id} and a {@code delta.columnMapping.physicalName}; data files name columns by the
 * physical names (array elements and map keys/values keep Parquet's names), so renames and drops only change the
 * schema. Maps schemas and row values between logical and physical names.
 */
final class ColumnMapping {
  static final String MODE = "delta.columnMapping.mode";
  static final String MAX_COLUMN_ID = "delta.columnMapping.maxColumnId";
  static final String ID = "delta.columnMapping.id";
  static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";

  private ColumnMapping() {}

  static boolean enabled(Metadata m) {
    String mode = m.configuration.get(MODE);
    return mode != null && !mode.equalsIgnoreCase("none");
  }

  /** The name a field has in data files, stats and partition values: its physical name, else its name. */
  static String physicalName(Field f) {
    Object p = f.metadata.get(PHYSICAL_NAME);
    return p == null ? f.name : p.toString();
  }

  /** Gives every struct field that has no id yet (at any level) the next id after {@code lastId[0]}. */
  static StructType assign(StructType struct, int[] lastId) {
    return assign(struct, lastId, false);
  }

  /**
   * As {@link #assign(StructType, int[])}; with {@code keepNames} each field's physical name is its name, as when
   * Delta turns column mapping on for a table whose files already hold the columns under their names.
   */
  static StructType assign(StructType struct, int[] lastId, boolean keepNames) {
    List<Field> out = new ArrayList<>();
    for (Field f : struct.fields) {
      Map<String, Object> metadata = new LinkedHashMap<>(f.metadata);
      if (!metadata.containsKey(ID)) {
        metadata.put(ID, ++lastId[0]);
        metadata.put(PHYSICAL_NAME, keepNames ? f.name : "col-" + UUID.randomUUID());
      }
      out.add(new Field(f.name, assign(f.type, lastId, keepNames), f.nullable, metadata));
    }
    return new StructType(out);
  }

  private static DeltaType assign(DeltaType type, int[] lastId, boolean keepNames) {
    if (type instanceof StructType) {
      return assign((StructType) type, lastId, keepNames);
    }
    if (type instanceof ArrayType) {
      ArrayType a = (ArrayType) type;
      return DeltaType.array(assign(a.elementType, lastId, keepNames), a.containsNull);
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      return DeltaType.map(assign(m.keyType, lastId, keepNames), assign(m.valueType, lastId, keepNames),
          m.valueContainsNull);
    }
    return type;
  }

  /** The schema data files hold: every struct field renamed to its physical name, metadata (the id) kept. */
  static StructType physical(StructType struct) {
    List<Field> out = new ArrayList<>();
    for (Field f : struct.fields) {
      out.add(new Field(physicalName(f), physical(f.type), f.nullable, f.metadata));
    }
    return new StructType(out);
  }

  private static DeltaType physical(DeltaType type) {
    if (type instanceof StructType) {
      return physical((StructType) type);
    }
    if (type instanceof ArrayType) {
      ArrayType a = (ArrayType) type;
      return DeltaType.array(physical(a.elementType), a.containsNull);
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      return DeltaType.map(physical(m.keyType), physical(m.valueType), m.valueContainsNull);
    }
    return type;
  }

  /** A row (or nested value) of {@code type} with logical names, renamed to physical names at every level. */
  static Object toPhysical(DeltaType type, Object value) {
    return renamed(type, value, true);
  }

  /** The inverse of {@link #toPhysical}: a value read from a data file, with the logical names of {@code type}. */
  static Object toLogical(DeltaType type, Object value) {
    return renamed(type, value, false);
  }

  /** {@code value} of {@code type} with its struct fields keyed by physical names, or back by logical ones. */
  private static Object renamed(DeltaType type, Object value, boolean toPhysical) {
    if (value == null) {
      return null;
    }
    if (type instanceof StructType) {
      Map<?, ?> row = (Map<?, ?>) value;
      Map<String, Object> out = new LinkedHashMap<>();
      for (Field f : ((StructType) type).fields) {
        String from = toPhysical ? f.name : physicalName(f);
        out.put(toPhysical ? physicalName(f) : f.name, renamed(f.type, row.get(from), toPhysical));
      }
      return out;
    }
    if (type instanceof ArrayType) {
      List<Object> out = new ArrayList<>();
      for (Object e : (List<?>) value) {
        out.add(renamed(((ArrayType) type).elementType, e, toPhysical));
      }
      return out;
    }
    if (type instanceof MapType) {
      MapType m = (MapType) type;
      Map<Object, Object> out = new LinkedHashMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> out.put(renamed(m.keyType, k, toPhysical),
          renamed(m.valueType, v, toPhysical)));
      return out;
    }
    return value;
  }

  /**
   * The schema with the field at {@code path} (names matched case-insensitively; {@code element}, {@code key} and
   * {@code value} step into arrays and maps) replaced by {@code change} of it, or removed when that gives null.
   */
  static StructType alter(StructType struct, List<String> path, UnaryOperator<Field> change) {
    List<Field> out = new ArrayList<>();
    boolean found = false;
    for (Field f : struct.fields) {
      if (!f.name.equalsIgnoreCase(path.get(0))) {
        out.add(f);
        continue;
      }
      found = true;
      if (path.size() > 1) {
        out.add(new Field(f.name, alter(f.type, path.subList(1, path.size()), change), f.nullable, f.metadata));
      } else {
        Field changed = change.apply(f);
        if (changed != null) {
          out.add(changed);
        }
      }
    }
    if (!found) {
      throw new IllegalArgumentException("no field " + path.get(0) + " in " + struct);
    }
    if (out.stream().map(f -> f.name.toLowerCase(Locale.ROOT)).distinct().count() < out.size()) {
      throw new IllegalArgumentException("a field named like the new one already exists in " + struct);
    }
    return new StructType(out);
  }

  private static DeltaType alter(DeltaType type, List<String> path, UnaryOperator<Field> change) {
    if (type instanceof StructType) {
      return alter((StructType) type, path, change);
    }
    String step = path.get(0).toLowerCase(Locale.ROOT);
    List<String> rest = path.subList(1, path.size());
    if (type instanceof ArrayType && step.equals("element") && !rest.isEmpty()) {
      ArrayType a = (ArrayType) type;
      return DeltaType.array(alter(a.elementType, rest, change), a.containsNull);
    }
    if (type instanceof MapType && !rest.isEmpty() && (step.equals("key") || step.equals("value"))) {
      MapType m = (MapType) type;
      return step.equals("key") ? DeltaType.map(alter(m.keyType, rest, change), m.valueType, m.valueContainsNull)
          : DeltaType.map(m.keyType, alter(m.valueType, rest, change), m.valueContainsNull);
    }
    throw new IllegalArgumentException("cannot step into " + type + " with '" + path.get(0) + "'");
  }
}
