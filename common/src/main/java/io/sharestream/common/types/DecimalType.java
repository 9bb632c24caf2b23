package io.sharestream.common.types;

/** {@code decimal(precision, scale)}, precision 1..38. */
public final class DecimalType implements DataType {
  private static final long serialVersionUID = 1L;
  public static final int MAX_PRECISION = 38;

  private final int precision;
  private final int scale;

  public DecimalType(int precision, int scale) {
    if (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision) {
      throw new IllegalArgumentException("invalid decimal(" + precision + "," + scale + "): precision must be 1.."
          + MAX_PRECISION + " and scale 0..precision");
    }
    this.precision = precision;
    this.scale = scale;
  }

  public int precision() {
    return precision;
  }

  public int scale() {
    return scale;
  }

  @Override
  public String simpleString() {
    return "decimal(" + precision + "," + scale + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DecimalType && ((DecimalType) o).precision == precision && ((DecimalType) o).scale == scale;
  }

  @Override
  public int hashCode() {
    return 31 * precision + scale;
  }

  @Override
  public String toString() {
    return simpleString();
  }
}
