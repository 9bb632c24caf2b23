package io.sharestream.common.types;

import java.util.Objects;

/** An array of {@code elementType}; {@code containsNull} says whether elements may be null. */
public final class ArrayType implements DataType {
  private static final long serialVersionUID = 1L;
  private final DataType elementType;
  private final boolean containsNull;

  public ArrayType(DataType elementType, boolean containsNull) {
    this.elementType = Objects.requireNonNull(elementType, "elementType");
    this.containsNull = containsNull;
  }

  public DataType elementType() {
    return elementType;
  }

  public boolean containsNull() {
    return containsNull;
  }

  @Override
  public String simpleString() {
    return "array<" + elementType.simpleString() + ">";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ArrayType)) {
      return false;
    }
    ArrayType a = (ArrayType) o;
    return a.elementType.equals(elementType) && a.containsNull == containsNull;
  }

  @Override
  public int hashCode() {
    return Objects.hash(elementType, containsNull);
  }

  @Override
  public String toString() {
    return simpleString();
  }
}
