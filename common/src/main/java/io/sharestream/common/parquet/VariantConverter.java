package io.sharestream.common.parquet;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.types.VariantJson;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * A variant: the Parquet group {@code {value: binary, metadata: binary}} (fields found by name, in any order; the
 * group annotated {@code VARIANT} or not, as Spark 4.0 writes it), rendered as its JSON text
 * ({@link VariantJson}); a shredded one (a {@code typed_value} field) is read by {@link ShreddedVariantConverter}. A
 * malformed one is refused when its row is read, naming the file and the column.
 */
final class VariantConverter extends GroupConverter {
  private final String path;
  private final String file;
  private final Consumer<Object> sink;
  private final Converter[] children;
  private byte[] value;
  private byte[] metadata;

  VariantConverter(Type parquet, String path, String file, Consumer<Object> sink) {
    this.path = path;
    this.file = file;
    this.sink = sink;
    if (parquet.isPrimitive()) {
      throw Errors.malformedVariant(file, path, "it is a Parquet " + parquet.asPrimitiveType()
          .getPrimitiveTypeName() + " column, not a group of binary value and metadata");
    }
    GroupType g = parquet.asGroupType();
    for (String name : new String[] {"value", "metadata"}) {
      if (!g.containsField(name) || !g.getType(name).isPrimitive()
          || g.getType(name).asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY) {
        throw Errors.malformedVariant(file, path, "its Parquet group " + g.getName() + " has no binary '" + name
            + "' field (it has " + fieldNames(g) + ")");
      }
    }
    children = new Converter[g.getFieldCount()];
    for (int i = 0; i < children.length; i++) {
      String name = g.getType(i).getName();
      if (name.equals("value")) {
        children[i] = new ValueConverters.DictionaryAware<>(v -> value = (byte[]) v, Binary::getBytes);
      } else if (name.equals("metadata")) {
        children[i] = new ValueConverters.DictionaryAware<>(v -> metadata = (byte[]) v, Binary::getBytes);
      } else {
        children[i] = ValueConverters.ignoring(g.getType(i));
      }
    }
  }

  private static List<String> fieldNames(GroupType g) {
    List<String> names = new ArrayList<>();
    g.getFields().forEach(f -> names.add(f.getName()));
    return names;
  }

  @Override
  public Converter getConverter(int i) {
    return children[i];
  }

  @Override
  public void start() {
    value = null;
    metadata = null;
  }

  @Override
  public void end() {
    if (value == null || metadata == null) {
      throw Errors.malformedVariant(file, path, "a row's variant has no " + (value == null ? "value" : "metadata"));
    }
    try {
      sink.accept(VariantJson.toJson(value, metadata));
    } catch (VariantJson.MalformedVariantException e) {
      throw Errors.malformedVariant(file, path, e.getMessage());
    }
  }
}
