package io.sharestream.common.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Delta's type widening (reader features {@code typeWidening}, {@code typeWidening-preview}): a column's type changed
 * in place to a wider one, files written before keeping the narrow type, which readers read as the wide one. The
 * changes Delta allows: byte, short, int to a wider integer, to double, or to a decimal with at least 10 integer
 * digits (long: 20); float to double; a decimal to one with no fewer integer digits and no smaller scale; date to
 * timestamp_ntz.
 */
public final class TypeWidening {
  private TypeWidening() {}

  /** Whether values of {@code from} read as {@code to} under Delta's type widening (or the same type). */
  public static boolean canWiden(DataType from, DataType to) {
    if (from.equals(to)) {
      return true;
    }
    if (to instanceof DecimalType) {
      DecimalType t = (DecimalType) to;
      int integerDigits = t.precision() - t.scale();
      if (from instanceof DecimalType) {
        DecimalType f = (DecimalType) from;
        return t.scale() >= f.scale() && integerDigits >= f.precision() - f.scale();
      }
      return from == PrimitiveType.BYTE || from == PrimitiveType.SHORT || from == PrimitiveType.INTEGER
          ? integerDigits >= 10 : from == PrimitiveType.LONG && integerDigits >= 20;
    }
    if (!(from instanceof PrimitiveType) || !(to instanceof PrimitiveType)) {
      return false;
    }
    switch ((PrimitiveType) from) {
      case BYTE: return to == PrimitiveType.SHORT || to == PrimitiveType.INTEGER || to == PrimitiveType.LONG
          || to == PrimitiveType.DOUBLE;
      case SHORT: return to == PrimitiveType.INTEGER || to == PrimitiveType.LONG || to == PrimitiveType.DOUBLE;
      case INTEGER: return to == PrimitiveType.LONG || to == PrimitiveType.DOUBLE;
      case FLOAT: return to == PrimitiveType.DOUBLE;
      case DATE: return to == PrimitiveType.TIMESTAMP_NTZ;
      default: return false;
    }
  }

  /** The widenings from {@code before} to {@code after} (fields by name, case-insensitively), in words. */
  public static List<String> widenings(DataType before, DataType after, String path) {
    List<String> out = new ArrayList<>();
    if (before instanceof StructType && after instanceof StructType) {
      for (StructField b : ((StructType) before).fields()) {
        for (StructField a : ((StructType) after).fields()) {
          if (a.name().toLowerCase(Locale.ROOT).equals(b.name().toLowerCase(Locale.ROOT))) {
            out.addAll(widenings(b.type(), a.type(), path.isEmpty() ? b.name() : path + "." + b.name()));
          }
        }
      }
    } else if (before instanceof ArrayType && after instanceof ArrayType) {
      out.addAll(widenings(((ArrayType) before).elementType(), ((ArrayType) after).elementType(), path + ".element"));
    } else if (before instanceof MapType && after instanceof MapType) {
      out.addAll(widenings(((MapType) before).keyType(), ((MapType) after).keyType(), path + ".key"));
      out.addAll(widenings(((MapType) before).valueType(), ((MapType) after).valueType(), path + ".value"));
    } else if (!before.equals(after) && canWiden(before, after)) {
      out.add("column '" + path + "' widened from " + before.simpleString() + " to " + after.simpleString());
    }
    return out;
  }
}
