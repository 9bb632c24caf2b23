package io.sharestream.common.types;

import java.util.Objects;

/** A map from {@code keyType} (never null) to {@code valueType}. */
public final class MapType implements DataType {
  private static final long serialVersionUID = 1L;
  private final DataType keyType;
  private final DataType valueType;
  private final boolean valueContainsNull;

  public MapType(DataType keyType, DataType valueType, boolean valueContainsNull) {
    this.keyType = Objects.requireNonNull(keyType, "keyType");
    this.valueType = Objects.requireNonNull(valueType, "valueType");
    this.valueContainsNull = valueContainsNull;
  }

  public DataType keyType() {
    return keyType;
  }

  public DataType valueType() {
    return valueType;
  }

  public boolean valueContainsNull() {
    return valueContainsNull;
  }

  @Override
  public String simpleString() {
    return "map<" + keyType.simpleString() + "," + valueType.simpleString() + ">";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof MapType)) {
      return false;
    }
    MapType m = (MapType) o;
    return m.keyType.equals(keyType) && m.valueType.equals(valueType) && m.valueContainsNull == valueContainsNull;
  }

  @Override
  public int hashCode() {
    return Objects.hash(keyType, valueType, valueContainsNull);
  }

  @Override
  public String toString() {
    return simpleString();
  }
}
