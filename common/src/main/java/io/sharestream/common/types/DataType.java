package io.sharestream.common.types;

/**
 * A Delta column type: every type a table's {@code schemaString} can hold. Instances are immutable; primitives
 * are singletons on {@link PrimitiveType}.
 */
public interface DataType extends java.io.Serializable {
  /** The type as written in a schema string: {@code long}, {@code decimal(10,2)}, {@code array<string>}, .... */
  String simpleString();
}
