package io.sharestream.common.types;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/** A struct: a table's schema or a nested column. Field names are unique (exactly, as Delta stores them). */
public final class StructType implements DataType {
  private static final long serialVersionUID = 1L;
  private final List<StructField> fields;
  private final Map<String, Integer> index = new HashMap<>();

  public StructType(List<StructField> fields) {
    this.fields = Collections.unmodifiableList(new ArrayList<>(fields));
    for (int i = 0; i < this.fields.size(); i++) {
      if (index.put(this.fields.get(i).name(), i) != null) {
        throw new IllegalArgumentException("duplicate field name '" + this.fields.get(i).name() + "' in struct");
      }
    }
  }

  public List<StructField> fields() {
    return fields;
  }

  public int size() {
    return fields.size();
  }

  public StructField field(int i) {
    return fields.get(i);
  }

  /** Position of the field called {@code name}, or -1. */
  public int indexOf(String name) {
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  /** The field called {@code name}; fails naming the known fields when absent. */
  public StructField field(String name) {
    int i = indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException("no column '" + name + "' in schema; columns are " + fieldNames());
    }
    return fields.get(i);
  }

  public List<String> fieldNames() {
    return fields.stream().map(StructField::name).collect(Collectors.toList());
  }

  /** This struct with extra fields at the end. */
  public StructType add(StructField... more) {
    List<StructField> all = new ArrayList<>(fields);
    Collections.addAll(all, more);
    return new StructType(all);
  }

  /** The named fields, in the order given. */
  public StructType select(List<String> names) {
    List<StructField> out = new ArrayList<>();
    for (String n : names) {
      out.add(field(n));
    }
    return new StructType(out);
  }

  @Override
  public String simpleString() {
    return fields.stream().map(f -> f.name() + ":" + f.type().simpleString())
        .collect(Collectors.joining(",", "struct<", ">"));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StructType && ((StructType) o).fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fields);
  }

  @Override
  public String toString() {
    return simpleString();
  }
}
