package io.sharestream.common.types;

import java.util.Locale;

/** The Delta types named by one word. */
public enum PrimitiveType implements DataType {
  BOOLEAN("boolean"),
  BYTE("byte"),
  SHORT("short"),
  INTEGER("integer"),
  LONG("long"),
  FLOAT("float"),
  DOUBLE("double"),
  STRING("string"),
  BINARY("binary"),
  /** Days since 1970-01-01. */
  DATE("date"),
  /** An instant, microsecond precision (Spark's TimestampType). */
  TIMESTAMP("timestamp"),
  /** A local date-time without zone, microsecond precision. */
  TIMESTAMP_NTZ("timestamp_ntz"),
  /**
   * Semi-structured data in the Variant binary encoding (reader feature {@code variantType}); rows carry its JSON
   * text, a String ({@link VariantJson}).
   */
  VARIANT("variant");

  private final String name;

  PrimitiveType(String name) {
    this.name = name;
  }

  @Override
  public String simpleString() {
    return name;
  }

  /** The primitive called {@code name} (case-insensitive), or null. */
  static PrimitiveType named(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (PrimitiveType t : values()) {
      if (t.name.equals(n)) {
        return t;
      }
    }
    return null;
  }
}
