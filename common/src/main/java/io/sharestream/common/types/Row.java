package io.sharestream.common.types;

import java.util.Arrays;
import java.util.Objects;

/**
 * One row, engine-neutral, typed by a {@link StructType}. Values by type: boolean Boolean, byte Byte, short
 * Short, integer Integer, long Long, float Float, double Double, string String, binary byte[], date LocalDate,
 * timestamp Instant, timestamp_ntz LocalDateTime, decimal BigDecimal (at the type's scale), variant String (its JSON
 * text, see {@link VariantJson}), struct Row, array List, map Map (insertion ordered); SQL NULL is null.
 */
public final class Row {
  private final StructType schema;
  private final Object[] values;

  public Row(StructType schema, Object[] values) {
    if (values.length != schema.size()) {
      throw new IllegalArgumentException("row has " + values.length + " values for " + schema.size() + " columns");
    }
    this.schema = schema;
    this.values = values;
  }

  public StructType schema() {
    return schema;
  }

  public int size() {
    return values.length;
  }

  public Object get(int i) {
    return values[i];
  }

  public Object get(String column) {
    int i = schema.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException("no column '" + column + "' in " + schema.fieldNames());
    }
    return values[i];
  }

  public boolean isNull(int i) {
    return values[i] == null;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Row)) {
      return false;
    }
    Row r = (Row) o;
    return r.schema.equals(schema) && Arrays.deepEquals(r.values, values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(schema, Arrays.deepHashCode(values));
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      Object v = values[i];
      b.append(schema.field(i).name()).append('=').append(v instanceof byte[] ? Arrays.toString((byte[]) v) : v);
    }
    return b.append('}').toString();
  }
}
