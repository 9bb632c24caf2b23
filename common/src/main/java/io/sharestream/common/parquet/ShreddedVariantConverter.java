package io.sharestream.common.parquet;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.types.ShreddedVariant;
import io.sharestream.common.types.ShreddedVariant.Part;
import io.sharestream.common.types.VariantJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.OriginalType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * A shredded variant (parquet-format {@code VariantShredding.md}; Delta reader feature {@code variantShredding}):
 * the group {@code {metadata, value, typed_value}}, its {@code typed_value} a typed column, an object of fields (each
 * a {@code {value, typed_value}} group) or a list of such elements, to any depth. Each row's parts are rebuilt into
 * the value they stand for ({@link ShreddedVariant}) and rendered as its JSON text, as an unshredded variant is
 * ({@link VariantConverter}).
 */
final class ShreddedVariantConverter extends GroupConverter {
  private final String path;
  private final String file;
  private final Consumer<Object> sink;
  private final Converter[] children;
  private final Pair root;
  private byte[] metadata;
  /** The last row's metadata, read once for the rows after it that share it. */
  private ShreddedVariant.Metadata dictionary;

  ShreddedVariantConverter(GroupType group, String path, String file, Consumer<Object> sink) {
    this.path = path;
    this.file = file;
    this.sink = sink;
    this.root = new Pair(group, path);
    children = new Converter[group.getFieldCount()];
    for (int i = 0; i < children.length; i++) {
      String name = group.getType(i).getName();
      children[i] = name.equals("metadata")
          ? new ValueConverters.DictionaryAware<>(v -> metadata = (byte[]) v, Binary::getBytes)
          : root.converterOf(name);
    }
  }

  @Override
  public Converter getConverter(int i) {
    return children[i];
  }

  @Override
  public void start() {
    metadata = null;
    root.reset();
  }

  @Override
  public void end() {
    if (metadata == null) {
      throw Errors.malformedVariant(file, path, "a row's variant has no metadata");
    }
    try {
      Part part = root.part();
      if (dictionary == null || !dictionary.sameAs(metadata)) {
        dictionary = new ShreddedVariant.Metadata(metadata);
      }
      byte[] value = ShreddedVariant.encode(part == null ? ShreddedVariant.nullValue() : part, dictionary);
      sink.accept(VariantJson.toJson(value, metadata));
    } catch (VariantJson.MalformedVariantException e) {
      throw Errors.malformedVariant(file, path, e.getMessage());
    }
  }

  /** A {@code {value, typed_value}} pair: the row's value there, once its group has been read. */
  private final class Pair {
    private final String where;
    private final Converter value;
    private final Converter typed;
    private byte[] encoded;
    private Part typedPart;
    private Map<String, Part> typedFields;

    Pair(GroupType group, String where) {
      this.where = where;
      this.value = group.containsField("value") ? binary(group.getType("value"), v -> encoded = v) : null;
      this.typed = group.containsField("typed_value") ? typed(group.getType("typed_value"), where) : null;
    }

    Converter converterOf(String name) {
      if (name.equals("value") && value != null) {
        return value;
      }
      if (name.equals("typed_value") && typed != null) {
        return typed;
      }
      throw Errors.malformedVariant(file, path, "its shredded group at " + where + " has a field '" + name
          + "' besides metadata, value and typed_value");
    }

    void reset() {
      encoded = null;
      typedPart = null;
      typedFields = null;
    }

    /** The value, or null when neither column holds one (a field the row's object lacks). */
    Part part() {
      if (typedFields != null) { // an object, perhaps partially shredded: its other fields in value
        return ShreddedVariant.object(typedFields, encoded);
      }
      if (typedPart != null) {
        if (encoded != null) {
          throw new VariantJson.MalformedVariantException("at " + where + " both value and typed_value hold a "
              + "value that is not an object");
        }
        return typedPart;
      }
      return encoded != null ? ShreddedVariant.encoded(encoded) : null;
    }

    /** The converter of {@code typed_value}: a primitive, a list of pairs, or an object of pairs. */
    private Converter typed(Type type, String at) {
      if (type.isPrimitive()) {
        return primitive(type.asPrimitiveType(), p -> typedPart = p, at);
      }
      GroupType g = type.asGroupType();
      if (g.getOriginalType() == OriginalType.LIST) {
        return new ListOfPairs(g, at, elements -> typedPart = ShreddedVariant.array(elements));
      }
      return new ObjectOfPairs(g, at, fields -> typedFields = fields);
    }
  }

  /** A pair in its own group (an object's field, a list's element), handing its value on at the group's end. */
  private final class PairGroup extends GroupConverter {
    private final Pair pair;
    private final Converter[] children;
    private final Consumer<Part> done;

    PairGroup(GroupType group, String where, Consumer<Part> done) {
      this.pair = new Pair(group, where);
      this.done = done;
      children = new Converter[group.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        children[i] = pair.converterOf(group.getType(i).getName());
      }
    }

    @Override
    public Converter getConverter(int i) {
      return children[i];
    }

    @Override
    public void start() {
      pair.reset();
    }

    @Override
    public void end() {
      done.accept(pair.part());
    }
  }

  /** A shredded object: each field a required pair group; a field whose pair holds nothing is absent. */
  private final class ObjectOfPairs extends GroupConverter {
    private final Converter[] children;
    private final Consumer<Map<String, Part>> done;
    private Map<String, Part> fields;

    ObjectOfPairs(GroupType group, String where, Consumer<Map<String, Part>> done) {
      this.done = done;
      children = new Converter[group.getFieldCount()];
      for (int i = 0; i < children.length; i++) {
        Type field = group.getType(i);
        String name = field.getName();
        if (field.isPrimitive()) {
          throw Errors.malformedVariant(file, path, "its shredded object at " + where + " has a field '" + name
              + "' that is not a group of value and typed_value");
        }
        children[i] = new PairGroup(field.asGroupType(), where + "." + name, p -> fields.put(name, p));
      }
    }

    @Override
    public Converter getConverter(int i) {
      return children[i];
    }

    @Override
    public void start() {
      fields = new LinkedHashMap<>();
    }

    @Override
    public void end() {
      done.accept(fields);
    }
  }

  /** A shredded array: Parquet's three-level list, each element a required pair group. */
  private final class ListOfPairs extends GroupConverter {
    private final GroupConverter repeated;
    private final Consumer<List<Part>> done;
    private List<Part> elements;

    ListOfPairs(GroupType list, String where, Consumer<List<Part>> done) {
      this.done = done;
      Type repeatedType = list.getType(0);
      if (repeatedType.isPrimitive() || repeatedType.asGroupType().getFieldCount() != 1
          || repeatedType.asGroupType().getType(0).isPrimitive()) {
        throw Errors.malformedVariant(file, path, "its shredded array at " + where + " is not a three-level list "
            + "of value and typed_value groups");
      }
      PairGroup element = new PairGroup(repeatedType.asGroupType().getType(0).asGroupType(), where + "[]",
          p -> elements.add(p == null ? ShreddedVariant.nullValue() : p));
      this.repeated = new GroupConverter() {
        @Override
        public Converter getConverter(int i) {
          return element;
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
      };
    }

    @Override
    public Converter getConverter(int i) {
      return repeated;
    }

    @Override
    public void start() {
      elements = new ArrayList<>();
    }

    @Override
    public void end() {
      done.accept(elements);
    }
  }

  private Converter binary(Type type, Consumer<byte[]> to) {
    if (!type.isPrimitive() || type.asPrimitiveType().getPrimitiveTypeName()
        != PrimitiveType.PrimitiveTypeName.BINARY) {
      throw Errors.malformedVariant(file, path, "its shredded group's value field is not binary");
    }
    return new ValueConverters.DictionaryAware<>(v -> to.accept((byte[]) v), Binary::getBytes);
  }

  /**
   * A typed primitive as the variant value it stands for, by its Parquet type and logical type (read from the
   * annotation's text: the Parquet the core compiles against predates logical type annotations; Spark 4 writes them).
   */
  private PrimitiveConverter primitive(PrimitiveType type, Consumer<Part> to, String where) {
    String logical = logicalType(type);
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return new PrimitiveConverter() {
          @Override
          public void addBoolean(boolean v) {
            to.accept(ShreddedVariant.bool(v));
          }
        };
      case INT32:
      case INT64:
        return new PrimitiveConverter() {
          @Override
          public void addInt(int v) {
            addLong(logical.startsWith("INTEGER(32,false)") ? Integer.toUnsignedLong(v) : v);
          }

          @Override
          public void addLong(long v) {
            to.accept(fromLong(v, logical, where));
          }
        };
      case FLOAT:
        return new PrimitiveConverter() {
          @Override
          public void addFloat(float v) {
            to.accept(ShreddedVariant.float32(v));
          }
        };
      case DOUBLE:
        return new PrimitiveConverter() {
          @Override
          public void addDouble(double v) {
            to.accept(ShreddedVariant.float64(v));
          }
        };
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        return new PrimitiveConverter() {
          @Override
          public void addBinary(Binary v) {
            byte[] b = v.getBytes();
            to.accept(logical.equals("STRING") ? ShreddedVariant.string(b) : logical.equals("UUID")
                ? ShreddedVariant.uuid(b) : logical.startsWith("DECIMAL(") ? ShreddedVariant.decimal(b, scale(logical))
                : ShreddedVariant.binary(b));
          }
        };
      default:
        throw Errors.malformedVariant(file, path, "its shredded value at " + where + " is a Parquet "
            + type.getPrimitiveTypeName() + ", which the variant encoding has no type for");
    }
  }

  private Part fromLong(long v, String logical, String where) {
    if (logical.isEmpty() || logical.startsWith("INTEGER(")) {
      return ShreddedVariant.integer(v);
    }
    if (logical.equals("DATE")) {
      return ShreddedVariant.date((int) v);
    }
    if (logical.startsWith("DECIMAL(")) {
      return ShreddedVariant.decimal(BigDecimal.valueOf(v, scale(logical)));
    }
    boolean utc = logical.endsWith(",true)");
    switch (logical.replace(",true)", ")").replace(",false)", ")")) {
      case "TIMESTAMP(MICROS)":
        return ShreddedVariant.timestamp(v, utc);
      case "TIMESTAMP(MILLIS)":
        return ShreddedVariant.timestamp(Math.multiplyExact(v, 1000L), utc);
      case "TIMESTAMP(NANOS)":
        return ShreddedVariant.timestampNanos(v, utc);
      case "TIME(MICROS)":
        return ShreddedVariant.time(v);
      default:
        throw Errors.malformedVariant(file, path, "its shredded value at " + where + " has the logical type "
            + logical + ", which the variant encoding has no type for");
    }
  }

  private static int scale(String decimal) {
    return Integer.parseInt(decimal.substring(decimal.indexOf(',') + 1, decimal.indexOf(')')).trim());
  }

  /** The logical type annotation's text ({@code INTEGER(8,true)}, {@code TIMESTAMP(MICROS,false)}, ...), or "". */
  private static String logicalType(Type type) {
    try {
      Object annotation = Type.class.getMethod("getLogicalTypeAnnotation").invoke(type);
      return annotation == null ? "" : annotation.toString().replace(" ", "");
    } catch (ReflectiveOperationException e) { // a Parquet before 1.11: its original types say as much
      OriginalType original = type.getOriginalType();
      if (original == null) {
        return "";
      }
      switch (original) {
        case UTF8:
          return "STRING";
        case DATE:
          return "DATE";
        case DECIMAL:
          return "DECIMAL(" + type.asPrimitiveType().getDecimalMetadata().getPrecision() + ","
              + type.asPrimitiveType().getDecimalMetadata().getScale() + ")";
        case TIMESTAMP_MICROS:
          return "TIMESTAMP(MICROS,true)";
        case TIMESTAMP_MILLIS:
          return "TIMESTAMP(MILLIS,true)";
        case TIME_MICROS:
          return "TIME(MICROS,false)";
        default:
          return original.name().startsWith("INT_") || original.name().startsWith("UINT_") ? "INTEGER(" : "";
      }
    }
  }
}
