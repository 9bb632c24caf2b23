package io.sharestream.testkit.delta;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A value of a {@code variant} column: the two binaries of the Variant encoding (parquet-format
 * {@code VariantEncoding.md}), {@code value} and {@code metadata}, as they are stored in the column's Parquet group.
 *
 * <p>{@link #of} encodes a Java value as Spark's {@code VariantBuilder} does: Map (an object; String keys), List
 * (an array), null inside them (variant null), String (short string up to 63 bytes, else string), Boolean, Byte,
 * Short, Integer, Long (the smallest of int8/16/32/64 that holds the value), Float, Double, BigDecimal (decimal4 for
 * precision and scale up to 9, decimal8 up to 18, else decimal16), LocalDate (date), Instant (timestamp, micros),
 * LocalDateTime (timestamp_ntz, micros), byte[] (binary), UUID (uuid), LocalTime (time_ntz, micros). The metadata
 * dictionary lists keys in order of first appearance, unsorted (header bit {@code sorted_strings} 0); an object's
 * field ids and offsets are sorted by key (unsigned UTF-8 byte order) while its values stay in the Map's order, so the
 * offsets need not increase; integer widths are the smallest that fit. {@link #encoder()} varies all of that (sorted
 * dictionary, wider ids and offsets, 4-byte sizes), and {@link #raw} takes binaries as they are (malformed ones
 * too). The kit's own encoder: it does not use the product's decoder.
 */
public final class VariantValue {
  /** The variant null ({@code 00}) with an empty dictionary: not a SQL NULL. */
  public static final VariantValue NULL = of(null);

  private final byte[] value;
  private final byte[] metadata;

  private VariantValue(byte[] value, byte[] metadata) {
    this.value = value;
    this.metadata = metadata;
  }

  /** {@code v} encoded as Spark encodes it (see the class comment). */
  public static VariantValue of(Object v) {
    return encoder().encode(v);
  }

  /** The binaries as they are, checked for nothing. */
  public static VariantValue raw(byte[] value, byte[] metadata) {
    return new VariantValue(value.clone(), metadata.clone());
  }

  public static Encoder encoder() {
    return new Encoder();
  }

  public byte[] value() {
    return value.clone();
  }

  public byte[] metadata() {
    return metadata.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VariantValue && Arrays.equals(value, ((VariantValue) o).value)
        && Arrays.equals(metadata, ((VariantValue) o).metadata);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(value) * 31 + Arrays.hashCode(metadata);
  }

  @Override
  public String toString() {
    return "VariantValue{value=" + hex(value) + ", metadata=" + hex(metadata) + "}";
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xFF));
    }
    return s.toString();
  }

  /** Encoding choices beyond Spark's: all optional, each still valid per the spec. */
  public static final class Encoder {
    private boolean sortedDictionary;
    private int minOffsetSize = 1;
    private int minIdSize = 1;
    private int minDictionaryOffsetSize = 1;
    private boolean largeSizes;
    private boolean longStrings;
    private final List<String> preset = new ArrayList<>();

    Encoder() {}

    /** Dictionary keys sorted (unsigned UTF-8 byte order) and unique, header bit {@code sorted_strings} set. */
    public Encoder sortedDictionary(boolean sorted) {
      this.sortedDictionary = sorted;
      return this;
    }

    /** Object and array offsets at least {@code bytes} (1..4) wide. */
    public Encoder offsetSize(int bytes) {
      this.minOffsetSize = check(bytes);
      return this;
    }

    /** Object field ids at least {@code bytes} (1..4) wide. */
    public Encoder idSize(int bytes) {
      this.minIdSize = check(bytes);
      return this;
    }

    /** Metadata dictionary size and offsets at least {@code bytes} (1..4) wide. */
    public Encoder dictionaryOffsetSize(int bytes) {
      this.minDictionaryOffsetSize = check(bytes);
      return this;
    }

    /** Element counts of every object and array in 4 bytes ({@code is_large}) whatever their size. */
    public Encoder largeSizes(boolean large) {
      this.largeSizes = large;
      return this;
    }

    /** Every string as the string primitive (id 16, 4-byte length), never a short string. */
    public Encoder longStrings(boolean always) {
      this.longStrings = always;
      return this;
    }

    /** Keys put in the dictionary first, in this order (used or not): e.g. unused keys, or a chosen id order. */
    public Encoder dictionary(String... keys) {
      preset.addAll(List.of(keys));
      return this;
    }

    private static int check(int bytes) {
      if (bytes < 1 || bytes > 4) {
        throw new IllegalArgumentException("sizes are 1 to 4 bytes: " + bytes);
      }
      return bytes;
    }

    public VariantValue encode(Object v) {
      Keys keys = new Keys();
      preset.forEach(keys::id);
      collectKeys(v, keys);
      if (sortedDictionary) {
        keys.sort();
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      write(v, keys, out);
      return new VariantValue(out.toByteArray(), keys.metadata(sortedDictionary, minDictionaryOffsetSize));
    }

    /** Every key, in order of first appearance (so ids are known before values are written). */
    private void collectKeys(Object v, Keys keys) {
      if (v instanceof Map) {
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          keys.id((String) e.getKey());
          collectKeys(e.getValue(), keys);
        }
      } else if (v instanceof List) {
        for (Object e : (List<?>) v) {
          collectKeys(e, keys);
        }
      }
    }

    private void write(Object v, Keys keys, ByteArrayOutputStream out) {
      if (v == null) {
        out.write(primitive(0));
      } else if (v instanceof Map) {
        object((Map<?, ?>) v, keys, out);
      } else if (v instanceof List) {
        array((List<?>) v, keys, out);
      } else if (v instanceof Boolean) {
        out.write(primitive((Boolean) v ? 1 : 2));
      } else if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
        long l = ((Number) v).longValue();
        if (l == (byte) l) {
          out.write(primitive(3));
          le(out, l, 1);
        } else if (l == (short) l) {
          out.write(primitive(4));
          le(out, l, 2);
        } else if (l == (int) l) {
          out.write(primitive(5));
          le(out, l, 4);
        } else {
          out.write(primitive(6));
          le(out, l, 8);
        }
      } else if (v instanceof Double) {
        out.write(primitive(7));
        le(out, Double.doubleToRawLongBits((Double) v), 8);
      } else if (v instanceof Float) {
        out.write(primitive(14));
        le(out, Float.floatToRawIntBits((Float) v), 4);
      } else if (v instanceof BigDecimal) {
        decimal((BigDecimal) v, out);
      } else if (v instanceof String) {
        byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
        if (s.length <= 63 && !longStrings) {
          out.write(s.length << 2 | 1);
        } else {
          out.write(primitive(16));
          le(out, s.length, 4);
        }
        out.writeBytes(s);
      } else if (v instanceof LocalDate) {
        out.write(primitive(11));
        le(out, ((LocalDate) v).toEpochDay(), 4);
      } else if (v instanceof Instant) {
        out.write(primitive(12));
        le(out, micros((Instant) v), 8);
      } else if (v instanceof LocalDateTime) {
        out.write(primitive(13));
        le(out, micros(((LocalDateTime) v).toInstant(ZoneOffset.UTC)), 8);
      } else if (v instanceof byte[]) {
        byte[] b = (byte[]) v;
        out.write(primitive(15));
        le(out, b.length, 4);
        out.writeBytes(b);
      } else if (v instanceof UUID) {
        UUID u = (UUID) v;
        out.write(primitive(20));
        out.writeBytes(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
            .putLong(u.getLeastSignificantBits()).array());
      } else if (v instanceof LocalTime) {
        out.write(primitive(17));
        le(out, ((LocalTime) v).toNanoOfDay() / 1000, 8);
      } else {
        throw new IllegalArgumentException("no variant encoding for " + v.getClass().getName() + ": " + v);
      }
    }

    private static void decimal(BigDecimal d, ByteArrayOutputStream out) {
      BigInteger unscaled = d.unscaledValue();
      if (d.scale() < 0) {
        throw new IllegalArgumentException("a variant decimal needs a scale of 0 or more: " + d);
      }
      if (d.scale() <= 9 && d.precision() <= 9) {
        out.write(primitive(8));
        out.write(d.scale());
        le(out, unscaled.intValueExact(), 4);
      } else if (d.scale() <= 18 && d.precision() <= 18) {
        out.write(primitive(9));
        out.write(d.scale());
        le(out, unscaled.longValueExact(), 8);
      } else if (d.scale() <= 38 && d.precision() <= 38) {
        out.write(primitive(10));
        out.write(d.scale());
        byte[] be = unscaled.toByteArray();
        for (int i = 0; i < 16; i++) {
          out.write(i < be.length ? be[be.length - 1 - i] : (unscaled.signum() < 0 ? 0xFF : 0));
        }
      } else {
        throw new IllegalArgumentException("a variant decimal holds at most 38 digits: " + d);
      }
    }

    private void object(Map<?, ?> map, Keys keys, ByteArrayOutputStream out) {
      int n = map.size();
      List<byte[]> values = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        ByteArrayOutputStream child = new ByteArrayOutputStream();
        write(e.getValue(), keys, child);
        values.add(child.toByteArray());
        names.add((String) e.getKey());
      }
      int[] offsets = new int[n];
      int total = 0;
      for (int i = 0; i < n; i++) {
        offsets[i] = total;
        total += values.get(i).length;
      }
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, Comparator.comparing(i -> names.get(i), Keys.BYTE_ORDER));
      int maxId = 0;
      for (int i = 0; i < n; i++) {
        maxId = Math.max(maxId, keys.id(names.get(i)));
      }
      boolean large = largeSizes || n > 255;
      int idSize = Math.max(minIdSize, size(maxId));
      int offsetSize = Math.max(minOffsetSize, size(total));
      out.write((large ? 1 : 0) << 6 | (idSize - 1) << 4 | (offsetSize - 1) << 2 | 2);
      le(out, n, large ? 4 : 1);
      for (int i : order) {
        le(out, keys.id(names.get(i)), idSize);
      }
      for (int i : order) {
        le(out, offsets[i], offsetSize);
      }
      le(out, total, offsetSize);
      values.forEach(out::writeBytes);
    }

    private void array(List<?> list, Keys keys, ByteArrayOutputStream out) {
      int n = list.size();
      List<byte[]> values = new ArrayList<>();
      for (Object e : list) {
        ByteArrayOutputStream child = new ByteArrayOutputStream();
        write(e, keys, child);
        values.add(child.toByteArray());
      }
      int total = values.stream().mapToInt(b -> b.length).sum();
      boolean large = largeSizes || n > 255;
      int offsetSize = Math.max(minOffsetSize, size(total));
      out.write((large ? 1 : 0) << 4 | (offsetSize - 1) << 2 | 3);
      le(out, n, large ? 4 : 1);
      int offset = 0;
      for (byte[] v : values) {
        le(out, offset, offsetSize);
        offset += v.length;
      }
      le(out, total, offsetSize);
      values.forEach(out::writeBytes);
    }
  }

  /** The metadata dictionary being built. */
  private static final class Keys {
    static final Comparator<String> BYTE_ORDER = (a, b) -> Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));

    private List<String> keys = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();

    int id(String key) {
      if (key == null) {
        throw new IllegalArgumentException("a variant object's keys are strings, not null");
      }
      return ids.computeIfAbsent(key, k -> {
        keys.add(k);
        return keys.size() - 1;
      });
    }

    void sort() {
      keys.sort(BYTE_ORDER);
      ids.clear();
      for (int i = 0; i < keys.size(); i++) {
        ids.put(keys.get(i), i);
      }
    }

    byte[] metadata(boolean sorted, int minOffsetSize) {
      List<byte[]> strings = new ArrayList<>();
      int total = 0;
      for (String k : keys) {
        byte[] b = k.getBytes(StandardCharsets.UTF_8);
        strings.add(b);
        total += b.length;
      }
      int offsetSize = Math.max(minOffsetSize, size(Math.max(total, keys.size())));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(1 | (sorted ? 1 << 4 : 0) | (offsetSize - 1) << 6);
      le(out, keys.size(), offsetSize);
      int offset = 0;
      for (byte[] s : strings) {
        le(out, offset, offsetSize);
        offset += s.length;
      }
      le(out, offset, offsetSize);
      strings.forEach(out::writeBytes);
      return out.toByteArray();
    }
  }

  private static int primitive(int type) {
    return type << 2;
  }

  /** Bytes of the smallest unsigned integer holding {@code max} (Spark's {@code getIntegerSize}). */
  private static int size(int max) {
    return max <= 0xFF ? 1 : max <= 0xFFFF ? 2 : max <= 0xFFFFFF ? 3 : 4;
  }

  private static void le(ByteArrayOutputStream out, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      out.write((int) (v >>> (8 * i)) & 0xFF);
    }
  }

  private static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
  }

  /** Keeps insertion order: a convenience for tests building objects (a Map of its own order). */
  public static Map<String, Object> object(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
