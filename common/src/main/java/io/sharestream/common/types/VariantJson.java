package io.sharestream.common.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Locale;
import java.util.UUID;

/**
 * Renders a Variant (the Parquet/Delta {@code variant} binary encoding: a {@code metadata} dictionary of keys and a
 * {@code value}) as JSON text, the text Spark's {@code Variant.toJson(zoneId)} gives for it (apache/spark commit
 * a20f42f2, {@code common/variant/src/main/java/org/apache/spark/types/variant/Variant.java} {@code toJsonImpl},
 * with {@code VariantUtil.getDecimal} and friends; spec: parquet-format {@code VariantEncoding.md}). The rules, as
 * Spark renders each value:
 *
 * <ul>
 *   <li>object: {@code {"k":v,...}} without spaces, fields in the order the value lists them (field-id order, which
 *       the encoding requires sorted by key bytes; nothing is re-sorted); array: {@code [v,...]};</li>
 *   <li>null, true, false: the literals;</li>
 *   <li>int8, int16, int32, int64: decimal integers ({@code Long.toString});</li>
 *   <li>double: {@code Double.toString} ({@code 1.0}, {@code 1.0E10}, {@code 1.0E-5}); float: {@code Float.toString}
 *       (a float is not widened first: {@code 1.1} stays {@code 1.1}). NaN and the infinities come out as the bare
 *       words {@code NaN}, {@code Infinity}, {@code -Infinity} as Spark writes them, which is not valid JSON;</li>
 *   <li>decimal4/8/16: the unscaled little-endian integer at its scale, trailing zeros stripped, then
 *       {@code toPlainString} (never an exponent: {@code 1.50} gives {@code 1.5}, {@code 100} stays {@code 100},
 *       {@code 0.00} gives {@code 0}); a precision or scale above the type's limit (9, 18, 38) is malformed;</li>
 *   <li>short string, string: a JSON string escaped as Jackson's {@code JsonGenerator.writeString} escapes
 *       (Spark's {@code escapeJson}): {@code "} and {@code \} backslashed, {@code \b \t \n \f \r} short forms, other
 *       characters below U+0020 as {@code \}{@code u00XX} (upper-case hex), everything else (DEL, non-ASCII,
 *       {@code /}) as is; object keys likewise;</li>
 *   <li>date: {@code "yyyy-MM-dd"} ({@code LocalDate.toString}; years beyond 9999 get a sign:
 *       {@code +10000-01-01});</li>
 *   <li>timestamp (micros, UTC-adjusted): {@code "yyyy-MM-dd HH:mm:ss[.f...]+HH:MM"} in the rendering zone (this
 *       product renders in UTC: {@code +00:00}), the fraction as many digits as needed (up to 6), none when zero
 *       ({@code ISO_LOCAL_DATE ' ' ISO_LOCAL_TIME} then {@code appendOffset("+HH:MM","+00:00")});</li>
 *   <li>timestamp_ntz (micros): the same without the offset, the wall time read as UTC;</li>
 *   <li>binary: a base64 string (standard alphabet, padded);</li>
 *   <li>uuid (id 20): the canonical lower-case {@code "8-4-4-4-12"} text ({@code UUID.toString}), as later Spark
 *       versions render it.</li>
 * </ul>
 *
 * <p>The Spark version this follows (a20f42f2) has no rendering for ids 17 to 19; here, as the spec's types suggest
 * and in the style of the others: time_ntz (17) as {@code "HH:mm:ss[.f...]"}, timestamp_nanos (18) and
 * timestamp_ntz_nanos (19) as the micro timestamps with up to 9 fraction digits.
 *
 * <p>Malformed input fails with a {@link MalformedVariantException} saying what is wrong: a metadata version other
 * than 1, offsets or sizes pointing outside the value or the metadata, a field id beyond the dictionary, an unknown
 * primitive type id (Spark: {@code UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT}), invalid decimals or times, nesting deeper
 * than {@value #MAX_DEPTH} levels.
 */
public final class VariantJson {
  private static final int SHORT_STRING = 1;
  private static final int OBJECT = 2;
  private static final int ARRAY = 3;

  /** Spark's {@code TIMESTAMP_NTZ_FORMATTER}. */
  private static final DateTimeFormatter TIMESTAMP_NTZ = new DateTimeFormatterBuilder()
      .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(DateTimeFormatter.ISO_LOCAL_TIME)
      .toFormatter(Locale.US);
  /** Spark's {@code TIMESTAMP_FORMATTER}. */
  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder().append(TIMESTAMP_NTZ)
      .appendOffset("+HH:MM", "+00:00").toFormatter(Locale.US);
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();
  private static final long MICROS_PER_DAY = 86_400_000_000L;
  /**
   * Deepest nesting rendered: Jackson's default nesting limit, so every variant Spark's {@code parse_json} can build;
   * deeper (hand-made) values would risk the thread's stack.
   */
  static final int MAX_DEPTH = 1000;

  private VariantJson() {}

  /** The value's JSON text, timestamps rendered in UTC. */
  public static String toJson(byte[] value, byte[] metadata) {
    return toJson(value, metadata, ZoneOffset.UTC);
  }

  /** The value's JSON text, timestamps (with time zone) rendered in {@code zone}. */
  public static String toJson(byte[] value, byte[] metadata, ZoneId zone) {
    if (value == null || metadata == null) {
      throw new MalformedVariantException((value == null ? "value" : "metadata") + " is null");
    }
    Dictionary dict = new Dictionary(metadata);
    StringBuilder out = new StringBuilder(Math.max(16, value.length * 2));
    new Renderer(value, dict, zone, out).render(0, value.length);
    return out.toString();
  }

  /** A variant that does not follow the encoding; the message says where. */
  public static final class MalformedVariantException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MalformedVariantException(String message) {
      super(message);
    }
  }

  /** The metadata: the key dictionary, each key decoded (and checked) when first used. */
  static final class Dictionary {
    private final byte[] bytes;
    private final int offsetSize;
    private final int size;
    private final int stringsStart;
    private final String[] keys;
    /** Key to id, built on the first {@link #id} (rebuilding shredded objects). */
    private java.util.Map<String, Integer> ids;

    Dictionary(byte[] metadata) {
      this.bytes = metadata;
      if (metadata.length < 1) {
        throw new MalformedVariantException("metadata is empty");
      }
      int header = metadata[0] & 0xFF;
      int version = header & 0x0F;
      if (version != 1) {
        throw new MalformedVariantException("metadata version is " + version + ", only version 1 is defined");
      }
      this.offsetSize = ((header >> 6) & 0x3) + 1;
      long dictSize = unsigned(metadata, 1, offsetSize, metadata.length, "metadata dictionary size");
      long start = 1 + (dictSize + 2) * offsetSize;
      if (start > metadata.length) {
        throw new MalformedVariantException("metadata dictionary of " + dictSize + " keys needs " + start
            + " bytes of offsets but the metadata has " + metadata.length);
      }
      this.size = (int) dictSize;
      this.stringsStart = (int) start;
      this.keys = new String[size];
    }

    String key(long id) {
      if (id >= size) {
        throw new MalformedVariantException("field id " + id + " is beyond the metadata dictionary of " + size
            + " keys");
      }
      int i = (int) id;
      String k = keys[i];
      if (k == null) {
        long from = unsigned(bytes, 1 + (i + 1) * offsetSize, offsetSize, bytes.length, "metadata offset");
        long to = unsigned(bytes, 1 + (i + 2) * offsetSize, offsetSize, bytes.length, "metadata offset");
        if (from > to || stringsStart + to > bytes.length) {
          throw new MalformedVariantException("metadata key " + i + " spans bytes " + from + ".." + to
              + " of a string area of " + (bytes.length - stringsStart));
        }
        k = new String(bytes, stringsStart + (int) from, (int) (to - from), StandardCharsets.UTF_8);
        keys[i] = k;
      }
      return k;
    }

    /** The id of {@code key}, or -1 when the dictionary lacks it. */
    int id(String key) {
      if (ids == null) {
        ids = new java.util.HashMap<>();
        for (int i = 0; i < size; i++) {
          ids.put(key(i), i);
        }
      }
      Integer id = ids.get(key);
      return id == null ? -1 : id;
    }
  }

  private static final class Renderer {
    private final byte[] v;
    private final Dictionary dict;
    private final ZoneId zone;
    private final StringBuilder out;
    private int depth;

    Renderer(byte[] value, Dictionary dict, ZoneId zone, StringBuilder out) {
      this.v = value;
      this.dict = dict;
      this.zone = zone;
      this.out = out;
    }

    /** Renders the value starting at {@code pos}, which must end by {@code end}. */
    void render(int pos, int end) {
      if (++depth > MAX_DEPTH) {
        throw new MalformedVariantException("the value nests objects and arrays deeper than " + MAX_DEPTH
            + " levels");
      }
      renderAt(pos, end);
      depth--;
    }

    private void renderAt(int pos, int end) {
      if (pos >= end) {
        throw new MalformedVariantException("a value starts at byte " + pos + ", past the end of its "
            + (end == v.length ? "value (" + v.length + " bytes)" : "container (byte " + end + ")"));
      }
      int header = v[pos] & 0xFF;
      int basic = header & 0x3;
      int info = header >> 2;
      switch (basic) {
        case SHORT_STRING:
          need(pos + 1, info, end, "short string");
          string(new String(v, pos + 1, info, StandardCharsets.UTF_8));
          return;
        case OBJECT:
          object(pos, info, end);
          return;
        case ARRAY:
          array(pos, info, end);
          return;
        default:
          primitive(pos, info, end);
      }
    }

    private void object(int pos, int info, int end) {
      int offsetSize = (info & 0x3) + 1;
      int idSize = ((info >> 2) & 0x3) + 1;
      int countSize = ((info >> 4) & 0x1) == 1 ? 4 : 1;
      long count = unsigned(v, pos + 1, countSize, end, "object size");
      long idStart = pos + 1L + countSize;
      long offsetStart = idStart + count * idSize;
      long dataStart = offsetStart + (count + 1) * offsetSize;
      if (dataStart > end) {
        throw new MalformedVariantException("object of " + count + " fields at byte " + pos + " needs "
            + (dataStart - pos) + " bytes of header but only " + (end - pos) + " remain");
      }
      long total = unsigned(v, (int) (offsetStart + count * offsetSize), offsetSize, end, "object offset");
      if (dataStart + total > end) {
        throw new MalformedVariantException("object at byte " + pos + " says its fields take " + total
            + " bytes but only " + (end - dataStart) + " remain");
      }
      int dataEnd = (int) (dataStart + total);
      out.append('{');
      for (int i = 0; i < count; i++) {
        long id = unsigned(v, (int) (idStart + (long) i * idSize), idSize, end, "field id");
        long offset = unsigned(v, (int) (offsetStart + (long) i * offsetSize), offsetSize, end, "object offset");
        if (offset >= total) {
          throw new MalformedVariantException("field " + i + " of the object at byte " + pos + " starts at offset "
              + offset + ", outside its " + total + " bytes of fields");
        }
        if (i > 0) {
          out.append(',');
        }
        string(dict.key(id));
        out.append(':');
        render((int) (dataStart + offset), dataEnd);
      }
      out.append('}');
    }

    private void array(int pos, int info, int end) {
      int offsetSize = (info & 0x3) + 1;
      int countSize = ((info >> 2) & 0x1) == 1 ? 4 : 1;
      long count = unsigned(v, pos + 1, countSize, end, "array size");
      long offsetStart = pos + 1L + countSize;
      long dataStart = offsetStart + (count + 1) * offsetSize;
      if (dataStart > end) {
        throw new MalformedVariantException("array of " + count + " elements at byte " + pos + " needs "
            + (dataStart - pos) + " bytes of header but only " + (end - pos) + " remain");
      }
      long total = unsigned(v, (int) (offsetStart + count * offsetSize), offsetSize, end, "array offset");
      if (dataStart + total > end) {
        throw new MalformedVariantException("array at byte " + pos + " says its elements take " + total
            + " bytes but only " + (end - dataStart) + " remain");
      }
      int dataEnd = (int) (dataStart + total);
      out.append('[');
      for (int i = 0; i < count; i++) {
        long offset = unsigned(v, (int) (offsetStart + (long) i * offsetSize), offsetSize, end, "array offset");
        if (offset >= total) {
          throw new MalformedVariantException("element " + i + " of the array at byte " + pos + " starts at offset "
              + offset + ", outside its " + total + " bytes of elements");
        }
        if (i > 0) {
          out.append(',');
        }
        render((int) (dataStart + offset), dataEnd);
      }
      out.append(']');
    }

    private void primitive(int pos, int type, int end) {
      int d = pos + 1;
      switch (type) {
        case 0:
          out.append("null");
          return;
        case 1:
          out.append("true");
          return;
        case 2:
          out.append("false");
          return;
        case 3:
          out.append(signed(d, 1, end, "int8"));
          return;
        case 4:
          out.append(signed(d, 2, end, "int16"));
          return;
        case 5:
          out.append(signed(d, 4, end, "int32"));
          return;
        case 6:
          out.append(signed(d, 8, end, "int64"));
          return;
        case 7:
          out.append(Double.longBitsToDouble(signed(d, 8, end, "double")));
          return;
        case 8:
          decimal(d, 4, 9, end);
          return;
        case 9:
          decimal(d, 8, 18, end);
          return;
        case 10:
          decimal(d, 16, 38, end);
          return;
        case 11:
          quoted(LocalDate.ofEpochDay((int) signed(d, 4, end, "date")).toString());
          return;
        case 12:
          quoted(TIMESTAMP.format(Instant.EPOCH.plus(signed(d, 8, end, "timestamp"), ChronoUnit.MICROS)
              .atZone(zone)));
          return;
        case 13:
          quoted(TIMESTAMP_NTZ.format(Instant.EPOCH.plus(signed(d, 8, end, "timestamp_ntz"), ChronoUnit.MICROS)
              .atZone(ZoneOffset.UTC)));
          return;
        case 14:
          out.append(Float.intBitsToFloat((int) signed(d, 4, end, "float")));
          return;
        case 15: {
          int length = length(d, end, "binary");
          quoted(Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(v, d + 4, d + 4 + length)));
          return;
        }
        case 16: {
          int length = length(d, end, "string");
          string(new String(v, d + 4, length, StandardCharsets.UTF_8));
          return;
        }
        case 17: {
          long micros = signed(d, 8, end, "time");
          if (micros < 0 || micros >= MICROS_PER_DAY) {
            throw new MalformedVariantException("time value " + micros + " at byte " + pos
                + " is not a time of day in microseconds");
          }
          quoted(DateTimeFormatter.ISO_LOCAL_TIME.format(LocalTime.ofNanoOfDay(micros * 1000)));
          return;
        }
        case 18:
          quoted(TIMESTAMP.format(Instant.EPOCH.plus(signed(d, 8, end, "timestamp_nanos"), ChronoUnit.NANOS)
              .atZone(zone)));
          return;
        case 19:
          quoted(TIMESTAMP_NTZ.format(Instant.EPOCH.plus(signed(d, 8, end, "timestamp_ntz_nanos"),
              ChronoUnit.NANOS).atZone(ZoneOffset.UTC)));
          return;
        case 20: {
          need(d, 16, end, "uuid");
          quoted(new UUID(bigEndian(d), bigEndian(d + 8)).toString());
          return;
        }
        default:
          throw new MalformedVariantException("unknown primitive type id " + type + " at byte " + pos);
      }
    }

    private void decimal(int d, int width, int maxPrecision, int end) {
      need(d, 1 + width, end, "decimal" + width);
      int scale = v[d] & 0xFF;
      BigInteger unscaled;
      if (width <= 8) {
        unscaled = BigInteger.valueOf(signed(d + 1, width, end, "decimal"));
      } else {
        byte[] be = new byte[width];
        for (int i = 0; i < width; i++) {
          be[i] = v[d + width - i]; // little-endian to big-endian
        }
        unscaled = new BigInteger(be);
      }
      BigDecimal value = new BigDecimal(unscaled, scale);
      if (value.precision() > maxPrecision || scale > maxPrecision) {
        throw new MalformedVariantException("decimal" + width + " at byte " + (d - 1) + " has precision "
            + value.precision() + " and scale " + scale + ", beyond its limit of " + maxPrecision);
      }
      out.append(value.stripTrailingZeros().toPlainString());
    }

    /** A 4-byte length then as many bytes, which must fit before {@code end}. */
    private int length(int d, int end, String what) {
      long length = unsigned(v, d, 4, end, what + " length");
      need(d + 4, length, end, what);
      return (int) length;
    }

    private long signed(int at, int size, int end, String what) {
      need(at, size, end, what);
      long r = 0;
      for (int i = 0; i < size - 1; i++) {
        r |= (long) (v[at + i] & 0xFF) << (8 * i);
      }
      return r | ((long) v[at + size - 1]) << (8 * (size - 1));
    }

    private long bigEndian(int at) {
      long r = 0;
      for (int i = 0; i < 8; i++) {
        r = (r << 8) | (v[at + i] & 0xFF);
      }
      return r;
    }

    private void need(long at, long size, int end, String what) {
      if (at + size > end) {
        throw new MalformedVariantException(what + " needs " + size + " bytes from byte " + at + " but "
            + (end == v.length ? "the value" : "its container") + " ends at byte " + end);
      }
    }

    private void quoted(String s) {
      out.append('"').append(s).append('"');
    }

    /** {@code s} as a JSON string, escaped as Jackson's {@code writeString} does (Spark's {@code escapeJson}). */
    private void string(String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"':
            out.append("\\\"");
            break;
          case '\\':
            out.append("\\\\");
            break;
          case '\b':
            out.append("\\b");
            break;
          case '\t':
            out.append("\\t");
            break;
          case '\n':
            out.append("\\n");
            break;
          case '\f':
            out.append("\\f");
            break;
          case '\r':
            out.append("\\r");
            break;
          default:
            if (c < 0x20) {
              out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            } else {
              out.append(c);
            }
        }
      }
      out.append('"');
    }
  }

  /** An unsigned little-endian integer of {@code size} bytes at {@code at}, which must end by {@code end}. */
  static long unsigned(byte[] b, int at, int size, int end, String what) {
    if (at < 0 || (long) at + size > end) {
      throw new MalformedVariantException(what + " at byte " + at + " lies past the end (" + end + " bytes)");
    }
    long r = 0;
    for (int i = 0; i < size; i++) {
      r |= (long) (b[at + i] & 0xFF) << (8 * i);
    }
    return r;
  }
}
