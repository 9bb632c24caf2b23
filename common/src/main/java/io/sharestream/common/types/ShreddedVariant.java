package io.sharestream.common.types;

import io.sharestream.common.types.VariantJson.MalformedVariantException;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A shredded variant put back together: the parts a reader finds in Parquet (typed columns, and the Variant binary
 * left unshredded, parquet-format {@code VariantShredding.md}) rebuilt into the one value in the Variant binary
 * encoding ({@code VariantEncoding.md}) that they stand for, against the row's metadata dictionary. An object's
 * typed fields and the fields of its unshredded part are merged, listed sorted by key as Spark's
 * {@code VariantBuilder} lists them, so {@link VariantJson} renders the rebuilt value as Spark renders the same
 * column. Each part is built by the reader as it meets the columns, then {@link #encode}d once per row.
 */
public final class ShreddedVariant {
  private static final int PRIMITIVE = 0;
  private static final int OBJECT = 2;
  private static final int ARRAY = 3;

  private ShreddedVariant() {}

  /** A value being rebuilt. */
  public abstract static class Part {
    private Part() {}

    abstract void writeTo(ByteArrayOutputStream out, VariantJson.Dictionary dict);
  }

  /** The value's encoding: {@code part} written against {@code metadata}. */
  public static byte[] encode(Part part, byte[] metadata) {
    return encode(part, new Metadata(metadata));
  }

  /** As above, against a dictionary already read (rows of a file often share one metadata). */
  public static byte[] encode(Part part, Metadata metadata) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    part.writeTo(out, metadata.dict);
    return out.toByteArray();
  }

  /** A row's metadata and its key dictionary, decoded as keys are asked for and kept for rows with the same bytes. */
  public static final class Metadata {
    private final byte[] bytes;
    private final VariantJson.Dictionary dict;

    public Metadata(byte[] bytes) {
      this.bytes = bytes;
      this.dict = new VariantJson.Dictionary(bytes);
    }

    /** Whether {@code other} are the same metadata bytes. */
    public boolean sameAs(byte[] other) {
      return Arrays.equals(bytes, other);
    }
  }

  /** A value kept in the Variant binary encoding (a {@code value} column). */
  public static Part encoded(byte[] value) {
    return encoded(value, 0, value.length);
  }

  private static Part encoded(byte[] value, int from, int to) {
    return new Part() {
      @Override
      void writeTo(ByteArrayOutputStream out, VariantJson.Dictionary dict) {
        out.write(value, from, to - from);
      }
    };
  }

  public static Part nullValue() {
    return primitive(0);
  }

  public static Part bool(boolean value) {
    return primitive(value ? 1 : 2);
  }

  /** An integer, in the narrowest of int8, int16, int32 and int64 that holds it. */
  public static Part integer(long value) {
    if (value == (byte) value) {
      return primitive(3, value, 1);
    }
    if (value == (short) value) {
      return primitive(4, value, 2);
    }
    return value == (int) value ? primitive(5, value, 4) : primitive(6, value, 8);
  }

  public static Part float64(double value) {
    return primitive(7, Double.doubleToRawLongBits(value), 8);
  }

  public static Part float32(float value) {
    return primitive(14, Float.floatToRawIntBits(value), 4);
  }

  /** A decimal, in the narrowest of decimal4, decimal8 and decimal16 that holds its precision. */
  public static Part decimal(BigDecimal value) {
    int precision = Math.max(value.precision(), value.scale());
    int type = precision <= 9 ? 8 : precision <= 18 ? 9 : 10;
    int width = type == 8 ? 4 : type == 9 ? 8 : 16;
    byte[] be = value.unscaledValue().toByteArray();
    byte[] payload = new byte[1 + width];
    payload[0] = (byte) value.scale();
    byte sign = (byte) (value.signum() < 0 ? 0xFF : 0);
    for (int i = 0; i < width; i++) { // little-endian, sign-extended
      payload[1 + i] = i < be.length ? be[be.length - 1 - i] : sign;
    }
    return primitive(type, payload);
  }

  /** A date: days since 1970-01-01. */
  public static Part date(int days) {
    return primitive(11, days, 4);
  }

  /** A timestamp in microseconds since the epoch, adjusted to UTC ({@code timestamp}) or not ({@code _ntz}). */
  public static Part timestamp(long micros, boolean adjustedToUtc) {
    return primitive(adjustedToUtc ? 12 : 13, micros, 8);
  }

  /** As {@link #timestamp}, in nanoseconds. */
  public static Part timestampNanos(long nanos, boolean adjustedToUtc) {
    return primitive(adjustedToUtc ? 18 : 19, nanos, 8);
  }

  /** A time of day in microseconds, without time zone. */
  public static Part time(long micros) {
    return primitive(17, micros, 8);
  }

  public static Part binary(byte[] value) {
    return primitive(15, lengthPrefixed(value));
  }

  public static Part string(byte[] utf8) {
    return primitive(16, lengthPrefixed(utf8));
  }

  /** A UUID from its 16 bytes, big-endian as Parquet stores it. */
  public static Part uuid(byte[] bytes) {
    if (bytes.length != 16) {
      throw new MalformedVariantException("a shredded uuid has " + bytes.length + " bytes, not 16");
    }
    return primitive(20, bytes);
  }

  /**
   * An object: its typed fields ({@code null} parts are fields the row lacks), merged with the fields of
   * {@code unshredded}, the object's part left in the binary encoding (null when none). The two must not share a
   * key.
   */
  public static Part object(Map<String, Part> typed, byte[] unshredded) {
    return new Part() {
      @Override
      void writeTo(ByteArrayOutputStream out, VariantJson.Dictionary dict) {
        TreeMap<String, Part> fields = new TreeMap<>(); // String order: Spark's VariantBuilder sorts keys so
        typed.forEach((k, v) -> {
          if (v != null) {
            fields.put(k, v);
          }
        });
        if (unshredded != null) {
          for (Map.Entry<String, Part> f : objectFields(unshredded, dict).entrySet()) {
            if (fields.put(f.getKey(), f.getValue()) != null) {
              throw new MalformedVariantException("field '" + f.getKey() + "' is both shredded and in the object's "
                  + "unshredded value");
            }
          }
        }
        List<byte[]> values = new ArrayList<>();
        int[] ids = new int[fields.size()];
        int i = 0;
        for (Map.Entry<String, Part> f : fields.entrySet()) {
          int id = dict.id(f.getKey());
          if (id < 0) {
            throw new MalformedVariantException("the shredded field '" + f.getKey() + "' is not in the metadata "
                + "dictionary");
          }
          ids[i++] = id;
          values.add(bytesOf(f.getValue(), dict));
        }
        int maxId = 0;
        for (int id : ids) {
          maxId = Math.max(maxId, id);
        }
        int total = values.stream().mapToInt(v -> v.length).sum();
        int idSize = sizeOf(maxId);
        int offsetSize = sizeOf(total);
        boolean large = ids.length > 0xFF;
        out.write(OBJECT | ((offsetSize - 1) | ((idSize - 1) << 2) | ((large ? 1 : 0) << 4)) << 2);
        little(out, ids.length, large ? 4 : 1);
        for (int id : ids) {
          little(out, id, idSize);
        }
        offsets(out, values, offsetSize);
      }
    };
  }

  /** An array of its elements. */
  public static Part array(List<Part> elements) {
    return new Part() {
      @Override
      void writeTo(ByteArrayOutputStream out, VariantJson.Dictionary dict) {
        List<byte[]> values = new ArrayList<>();
        for (Part e : elements) {
          values.add(bytesOf(e, dict));
        }
        int total = values.stream().mapToInt(v -> v.length).sum();
        int offsetSize = sizeOf(total);
        boolean large = values.size() > 0xFF;
        out.write(ARRAY | ((offsetSize - 1) | ((large ? 1 : 0) << 2)) << 2);
        little(out, values.size(), large ? 4 : 1);
        offsets(out, values, offsetSize);
      }
    };
  }

  /** The fields of an object in the binary encoding, by key; anything but an object is malformed here. */
  private static Map<String, Part> objectFields(byte[] v, VariantJson.Dictionary dict) {
    if (v.length == 0 || (v[0] & 0x3) != OBJECT) {
      throw new MalformedVariantException("a partially shredded object's unshredded value is not an object");
    }
    int info = (v[0] & 0xFF) >> 2;
    int offsetSize = (info & 0x3) + 1;
    int idSize = ((info >> 2) & 0x3) + 1;
    int countSize = ((info >> 4) & 0x1) == 1 ? 4 : 1;
    int count = (int) VariantJson.unsigned(v, 1, countSize, v.length, "object size");
    int idStart = 1 + countSize;
    int offsetStart = idStart + count * idSize;
    int dataStart = offsetStart + (count + 1) * offsetSize;
    int[] offsets = new int[count + 1];
    for (int i = 0; i <= count; i++) {
      offsets[i] = (int) VariantJson.unsigned(v, offsetStart + i * offsetSize, offsetSize, v.length, "object offset");
    }
    int[] sorted = offsets.clone(); // a field's value ends where the next one (in data order) starts
    Arrays.sort(sorted);
    Map<String, Part> fields = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      long id = VariantJson.unsigned(v, idStart + i * idSize, idSize, v.length, "field id");
      int from = offsets[i];
      int next = sorted[Arrays.binarySearch(sorted, from) + 1];
      if (dataStart + next > v.length) {
        throw new MalformedVariantException("a field of the unshredded object lies past its end");
      }
      fields.put(dict.key(id), encoded(v, dataStart + from, dataStart + next));
    }
    return fields;
  }

  private static byte[] bytesOf(Part part, VariantJson.Dictionary dict) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    part.writeTo(b, dict);
    return b.toByteArray();
  }

  private static void offsets(ByteArrayOutputStream out, List<byte[]> values, int offsetSize) {
    int at = 0;
    for (byte[] v : values) {
      little(out, at, offsetSize);
      at += v.length;
    }
    little(out, at, offsetSize);
    for (byte[] v : values) {
      out.write(v, 0, v.length);
    }
  }

  private static int sizeOf(int max) {
    return max <= 0xFF ? 1 : max <= 0xFFFF ? 2 : max <= 0xFFFFFF ? 3 : 4;
  }

  private static void little(ByteArrayOutputStream out, long value, int size) {
    for (int i = 0; i < size; i++) {
      out.write((int) (value >>> (8 * i)));
    }
  }

  private static Part primitive(int type) {
    return primitive(type, new byte[0]);
  }

  private static Part primitive(int type, long value, int size) {
    byte[] payload = new byte[size];
    for (int i = 0; i < size; i++) {
      payload[i] = (byte) (value >>> (8 * i));
    }
    return primitive(type, payload);
  }

  private static Part primitive(int type, byte[] payload) {
    byte[] value = new byte[1 + payload.length];
    value[0] = (byte) (PRIMITIVE | type << 2);
    System.arraycopy(payload, 0, value, 1, payload.length);
    return encoded(value);
  }

  private static byte[] lengthPrefixed(byte[] bytes) {
    byte[] out = new byte[4 + bytes.length];
    for (int i = 0; i < 4; i++) {
      out[i] = (byte) (bytes.length >>> (8 * i));
    }
    System.arraycopy(bytes, 0, out, 4, bytes.length);
    return out;
  }

  /** Text as a string part. */
  public static Part string(String text) {
    return string(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The unscaled big-endian two's complement bytes of a decimal at {@code scale}, as Parquet stores it. */
  public static Part decimal(byte[] unscaledBigEndian, int scale) {
    return decimal(new BigDecimal(new BigInteger(unscaledBigEndian), scale));
  }
}
