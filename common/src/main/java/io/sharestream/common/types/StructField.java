package io.sharestream.common.types;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** A named column of a struct, with nullability and field metadata (e.g. {@code comment}). */
public final class StructField implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final DataType type;
  private final boolean nullable;
  private final Map<String, Object> metadata;

  public StructField(String name, DataType type, boolean nullable, Map<String, Object> metadata) {
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.nullable = nullable;
    this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  public StructField(String name, DataType type, boolean nullable) {
    this(name, type, nullable, Collections.<String, Object>emptyMap());
  }

  public String name() {
    return name;
  }

  public DataType type() {
    return type;
  }

  public boolean nullable() {
    return nullable;
  }

  public Map<String, Object> metadata() {
    return metadata;
  }

  /** The {@code comment} metadata, if any. */
  public String comment() {
    Object c = metadata.get("comment");
    return c == null ? null : c.toString();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StructField)) {
      return false;
    }
    StructField f = (StructField) o;
    return f.name.equals(name) && f.type.equals(type) && f.nullable == nullable && f.metadata.equals(metadata);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, nullable, metadata);
  }

  @Override
  public String toString() {
    return name + ": " + type.simpleString() + (nullable ? "" : " not null");
  }
}
