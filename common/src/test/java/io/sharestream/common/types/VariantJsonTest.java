package io.sharestream.common.types;

import static io.sharestream.testkit.delta.VariantValue.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.types.VariantJson.MalformedVariantException;
import io.sharestream.testkit.delta.VariantValue;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Variant decoder against hand-assembled binaries (every primitive type id, the spec's object example) and the
 * kit's encoder (nesting, every size of ids, offsets and counts, sorted and unsorted dictionaries), rendered as Spark's
 * {@code Variant.toJson} renders them; malformed binaries fail saying what is wrong.
 */
class VariantJsonTest {
  /** Metadata version 1, no keys. */
  static final byte[] EMPTY_METADATA = {0x01, 0x00, 0x00};

  static String raw(int... value) {
    return VariantJson.toJson(bytes(value), EMPTY_METADATA);
  }

  static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }

  /** A primitive: header {@code id << 2}, then {@code n} little-endian bytes of {@code x}. */
  static byte[] primitive(int id, long x, int n) {
    byte[] b = new byte[1 + n];
    b[0] = (byte) (id << 2);
    for (int i = 0; i < n; i++) {
      b[1 + i] = (byte) (x >>> (8 * i));
    }
    return b;
  }

  static String json(byte[] value) {
    return VariantJson.toJson(value, EMPTY_METADATA);
  }

  static String json(Object javaValue) {
    VariantValue v = VariantValue.of(javaValue);
    return VariantJson.toJson(v.value(), v.metadata());
  }

  static String json(VariantValue v) {
    return VariantJson.toJson(v.value(), v.metadata());
  }

  @Test
  void nullAndBooleansAreLiterals() {
    assertThat(raw(0x00)).isEqualTo("null");
    assertThat(raw(0x04)).isEqualTo("true");
    assertThat(raw(0x08)).isEqualTo("false");
  }

  @Test
  void integersOfEveryWidthAreDecimalNumbers() {
    assertThat(json(primitive(3, -128, 1))).isEqualTo("-128");
    assertThat(json(primitive(3, 127, 1))).isEqualTo("127");
    assertThat(json(primitive(4, -32768, 2))).isEqualTo("-32768");
    assertThat(json(primitive(5, Integer.MAX_VALUE, 4))).isEqualTo("2147483647");
    assertThat(json(primitive(5, -1, 4))).isEqualTo("-1");
    assertThat(json(primitive(6, Long.MIN_VALUE, 8))).isEqualTo("-9223372036854775808");
    assertThat(json(primitive(6, 1L << 40, 8))).isEqualTo("1099511627776");
  }

  @Test
  void doublesAndFloatsAreJavaToStringIncludingExponentsAndNaNAsSparkWritesThem() {
    assertThat(json(primitive(7, Double.doubleToLongBits(1.0), 8))).isEqualTo("1.0");
    assertThat(json(primitive(7, Double.doubleToLongBits(1e10), 8))).isEqualTo("1.0E10");
    assertThat(json(primitive(7, Double.doubleToLongBits(0.1), 8))).isEqualTo("0.1");
    assertThat(json(primitive(7, Double.doubleToLongBits(1.5e-7), 8))).isEqualTo("1.5E-7");
    assertThat(json(primitive(7, Double.doubleToLongBits(-0.0), 8))).isEqualTo("-0.0");
    assertThat(json(primitive(7, Double.doubleToLongBits(Double.NaN), 8))).isEqualTo("NaN");
    assertThat(json(primitive(7, Double.doubleToLongBits(Double.NEGATIVE_INFINITY), 8))).isEqualTo("-Infinity");
    assertThat(json(primitive(14, Float.floatToIntBits(1.1f), 4))).isEqualTo("1.1"); // not widened to 1.100000023841858
    assertThat(json(primitive(14, Float.floatToIntBits(3.0e20f), 4))).isEqualTo("3.0E20");
  }

  @Test
  void decimalsArePlainWithTrailingZerosStripped() {
    assertThat(json(decimal(8, 2, BigInteger.valueOf(150)))).isEqualTo("1.5");
    assertThat(json(decimal(8, 0, BigInteger.valueOf(100)))).isEqualTo("100"); // not 1E+2
    assertThat(json(decimal(8, 2, BigInteger.ZERO))).isEqualTo("0");
    assertThat(json(decimal(8, 9, BigInteger.ONE))).isEqualTo("0.000000001"); // not 1E-9
    assertThat(json(decimal(8, 3, BigInteger.valueOf(-12345)))).isEqualTo("-12.345");
    assertThat(json(decimal(9, 4, BigInteger.valueOf(12345678901234L)))).isEqualTo("1234567890.1234");
    assertThat(json(decimal(9, 18, BigInteger.valueOf(-1)))).isEqualTo("-0.000000000000000001");
    BigInteger big = new BigInteger("-12345678901234567890123456789012345678");
    assertThat(json(decimal(10, 10, big))).isEqualTo("-1234567890123456789012345678.9012345678");
    assertThat(json(decimal(10, 0, new BigInteger("99999999999999999999999999999999999999"))))
        .isEqualTo("99999999999999999999999999999999999999");
    assertThat(json(decimal(10, 38, BigInteger.ONE))).isEqualTo("0." + "0".repeat(37) + "1");
  }

  static byte[] decimal(int id, int scale, BigInteger unscaled) {
    int width = id == 8 ? 4 : id == 9 ? 8 : 16;
    byte[] b = new byte[2 + width];
    b[0] = (byte) (id << 2);
    b[1] = (byte) scale;
    byte[] be = unscaled.toByteArray();
    for (int i = 0; i < width; i++) {
      b[2 + i] = i < be.length ? be[be.length - 1 - i] : (byte) (unscaled.signum() < 0 ? 0xFF : 0);
    }
    return b;
  }

  @Test
  void datesAndTimestampsAreQuotedInSparksFormat() {
    assertThat(json(primitive(11, 19723, 4))).isEqualTo("\"2024-01-01\"");
    assertThat(json(primitive(11, -1, 4))).isEqualTo("\"1969-12-31\"");
    assertThat(json(primitive(11, 2932897, 4))).isEqualTo("\"+10000-01-01\"");
    long micros = 1704067200_123456L; // 2024-01-01T00:00:00.123456Z
    assertThat(json(primitive(12, micros, 8))).isEqualTo("\"2024-01-01 00:00:00.123456+00:00\"");
    assertThat(json(primitive(12, 1704067200_100000L, 8))).isEqualTo("\"2024-01-01 00:00:00.1+00:00\"");
    assertThat(json(primitive(12, 0, 8))).isEqualTo("\"1970-01-01 00:00:00+00:00\"");
    assertThat(json(primitive(12, -1, 8))).isEqualTo("\"1969-12-31 23:59:59.999999+00:00\"");
    assertThat(json(primitive(13, micros, 8))).isEqualTo("\"2024-01-01 00:00:00.123456\"");
    assertThat(json(primitive(13, 1704067205_000000L, 8))).isEqualTo("\"2024-01-01 00:00:05\"");
    assertThat(VariantJson.toJson(primitive(12, micros, 8), EMPTY_METADATA, ZoneId.of("Europe/Paris")))
        .isEqualTo("\"2024-01-01 01:00:00.123456+01:00\"");
    assertThat(VariantJson.toJson(primitive(13, micros, 8), EMPTY_METADATA, ZoneId.of("Europe/Paris")))
        .as("timestamp_ntz ignores the zone").isEqualTo("\"2024-01-01 00:00:00.123456\"");
  }

  @Test
  void theNewerTypesRenderAsQuotedTimesTimestampsAndUuids() {
    assertThat(json(primitive(17, 3723_000001L, 8))).isEqualTo("\"01:02:03.000001\"");
    assertThat(json(primitive(17, 0, 8))).isEqualTo("\"00:00:00\"");
    assertThat(json(primitive(18, 1704067200_123456789L, 8))).isEqualTo("\"2024-01-01 00:00:00.123456789+00:00\"");
    assertThat(json(primitive(19, 1704067200_000000010L, 8))).isEqualTo("\"2024-01-01 00:00:00.00000001\"");
    byte[] uuid = new byte[17];
    uuid[0] = 20 << 2;
    byte[] be = new BigInteger("123e4567e89b12d3a456426614174000", 16).toByteArray();
    System.arraycopy(be, be.length - 16, uuid, 1, 16);
    assertThat(json(uuid)).isEqualTo("\"123e4567-e89b-12d3-a456-426614174000\"");
  }

  @Test
  void binaryIsBase64AndStringsAreEscapedAsJacksonDoes() {
    byte[] bin = {15 << 2, 3, 0, 0, 0, 1, 2, 3};
    assertThat(json(bin)).isEqualTo("\"AQID\"");
    assertThat(json(new byte[] {15 << 2, 0, 0, 0, 0})).isEqualTo("\"\"");
    String tricky = "q\"b\\s/\b\t\n\f\r\u0001\u001f\u007f é ✓ 😀";
    String escaped = "\"q\\\"b\\\\s/\\b\\t\\n\\f\\r\\u0001\\u001F\u007f é ✓ 😀\"";
    byte[] utf8 = tricky.getBytes(StandardCharsets.UTF_8);
    byte[] shortString = new byte[1 + utf8.length];
    shortString[0] = (byte) (utf8.length << 2 | 1);
    System.arraycopy(utf8, 0, shortString, 1, utf8.length);
    assertThat(json(shortString)).isEqualTo(escaped);
    byte[] longString = new byte[5 + utf8.length];
    longString[0] = 16 << 2;
    longString[1] = (byte) utf8.length;
    System.arraycopy(utf8, 0, longString, 5, utf8.length);
    assertThat(json(longString)).as("the string primitive").isEqualTo(escaped);
    assertThat(raw(0x01)).as("empty short string").isEqualTo("\"\"");
    assertThat(json(object(tricky, 1))).as("keys too").isEqualTo("{" + escaped + ":1}");
  }

  /**
   * The spec's example: {@code {"c": 3, "b": 2, "a": 1}} with the dictionary in another order, field ids in key
   * order, values in yet another order (offsets not increasing).
   */
  @Test
  void theSpecsObjectExampleListsFieldsInKeyOrderWhateverTheValueOrder() {
    // dictionary ["c", "a", "b"], unsorted: header 0x01, size 3, offsets 0,1,2,3, "cab"
    byte[] metadata = bytes(0x01, 3, 0, 1, 2, 3, 'c', 'a', 'b');
    // object: header (id size 1, offset size 1) = 0x02; 3 fields; ids a=1, b=2, c=0; values stored c, b, a (int8)
    byte[] value = bytes(0x02, 3, 1, 2, 0, 4, 2, 0, 6, 0x0C, 3, 0x0C, 2, 0x0C, 1);
    assertThat(VariantJson.toJson(value, metadata)).isEqualTo("{\"a\":1,\"b\":2,\"c\":3}");
    assertThat(json(object("c", 3, "b", 2, "a", 1))).isEqualTo("{\"a\":1,\"b\":2,\"c\":3}");
    assertThat(json(object("b", 1, "B", 2, "é", 3, "aa", 4, "a", 5)))
        .as("unsigned byte order, case-sensitive").isEqualTo("{\"B\":2,\"a\":5,\"aa\":4,\"b\":1,\"é\":3}");
  }

  @Test
  void nestedObjectsAndArraysRenderWithoutSpaces() {
    Map<String, Object> doc = object("name", "widget", "tags", List.of("a", "b"), "dims",
        object("w", 2, "h", new BigDecimal("1.25"), "deep", List.of(List.of(), object(), List.of(object("x", null)))),
        "ok", true, "none", null, "n", 1_000_000_000_000L, "ratio", 0.5, "day", LocalDate.of(2024, 2, 29),
        "at", Instant.parse("2024-01-01T12:00:00.5Z"), "local", LocalDateTime.of(2024, 1, 1, 12, 0, 0, 1000),
        "bytes", new byte[] {-1, 0}, "id", UUID.fromString("00000000-0000-0000-0000-000000000001"),
        "clock", LocalTime.of(23, 59, 59), "f", 2.5f);
    assertThat(json(doc)).isEqualTo("{\"at\":\"2024-01-01 12:00:00.5+00:00\",\"bytes\":\"/wA=\","
        + "\"clock\":\"23:59:59\",\"day\":\"2024-02-29\",\"dims\":{\"deep\":[[],{},[{\"x\":null}]],\"h\":1.25,"
        + "\"w\":2},\"f\":2.5,\"id\":\"00000000-0000-0000-0000-000000000001\","
        + "\"local\":\"2024-01-01 12:00:00.000001\",\"n\":1000000000000,\"name\":\"widget\",\"none\":null,"
        + "\"ok\":true,\"ratio\":0.5,\"tags\":[\"a\",\"b\"]}");
    assertThat(json(List.of(1, "two", List.of(3.0), object("k", List.of())))).isEqualTo("[1,\"two\",[3.0],{\"k\":[]}]");
    assertThat(json((Object) null)).isEqualTo("null");
    assertThat(json(VariantValue.NULL)).isEqualTo("null");
  }

  @Test
  void everyWidthOfIdsOffsetsAndCountsAndBothDictionaryKindsRenderTheSame() {
    Map<String, Object> doc = object("z", List.of(1, object("y", "why", "x", List.of())), "a", "b");
    String expected = "{\"a\":\"b\",\"z\":[1,{\"x\":[],\"y\":\"why\"}]}";
    for (int offsets = 1; offsets <= 4; offsets++) {
      for (int ids = 1; ids <= 4; ids++) {
        for (boolean large : new boolean[] {false, true}) {
          for (boolean sorted : new boolean[] {false, true}) {
            VariantValue v = VariantValue.encoder().offsetSize(offsets).idSize(ids).largeSizes(large)
                .sortedDictionary(sorted).dictionaryOffsetSize(offsets).longStrings(large).encode(doc);
            assertThat(json(v)).as("offsets %d ids %d large %s sorted %s", offsets, ids, large, sorted)
                .isEqualTo(expected);
          }
        }
      }
    }
    VariantValue unused = VariantValue.encoder().dictionary("unused", "z", "also unused").encode(doc);
    assertThat(json(unused)).as("keys the value does not use").isEqualTo(expected);
  }

  @Test
  void bigContainersNeedWideCountsOffsetsAndIds() {
    List<Object> many = new ArrayList<>();
    Map<String, Object> wide = new LinkedHashMap<>();
    StringBuilder expectArray = new StringBuilder("[");
    for (int i = 0; i < 300; i++) {
      many.add(i);
      expectArray.append(i == 0 ? "" : ",").append(i);
    }
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 70_000; i++) { // more keys than 2-byte ids address
      keys.add("k" + i);
    }
    Collections.shuffle(keys, new java.util.Random(7));
    for (String k : keys) {
      wide.put(k, k.length());
    }
    VariantValue arr = VariantValue.of(many);
    assertThat(arr.value()[0]).as("is_large array, 2-byte offsets").isEqualTo((byte) 0x17);
    assertThat(json(arr)).isEqualTo(expectArray.append("]").toString());
    VariantValue obj = VariantValue.of(wide);
    assertThat((obj.value()[0] >> 2) & 0x3F).as("is_large, 3-byte ids, 3-byte offsets").isEqualTo(0x1A);
    String out = json(obj);
    List<String> sorted = new ArrayList<>(keys);
    Collections.sort(sorted);
    StringBuilder expectObject = new StringBuilder("{");
    for (String k : sorted) {
      expectObject.append(expectObject.length() > 1 ? "," : "").append('"').append(k).append("\":").append(k.length());
    }
    assertThat(out).isEqualTo(expectObject.append("}").toString());
    String big = "x".repeat(70_000);
    assertThat(json(List.of(big, big))).isEqualTo("[\"" + big + "\",\"" + big + "\"]");
  }

  @Test
  void malformedBinariesFailSayingWhatIsWrong() {
    byte[] one = {0x0C, 1};
    assertThatThrownBy(() -> VariantJson.toJson(one, bytes(0x02, 0, 0)))
        .isInstanceOf(MalformedVariantException.class).hasMessageContaining("metadata version is 2");
    assertThatThrownBy(() -> VariantJson.toJson(one, new byte[0])).hasMessageContaining("metadata is empty");
    assertThatThrownBy(() -> VariantJson.toJson(one, bytes(0x01, 5, 0)))
        .hasMessageContaining("dictionary of 5 keys");
    assertThatThrownBy(() -> raw(0x0C)).hasMessageContaining("int8 needs 1 bytes from byte 1");
    assertThatThrownBy(() -> json(primitive(21, 0, 0))).hasMessageContaining("unknown primitive type id 21");
    assertThatThrownBy(() -> json(new byte[0])).hasMessageContaining("past the end");
    assertThatThrownBy(() -> json(bytes(16 << 2, 9, 0, 0, 0, 'a'))).hasMessageContaining("string needs 9 bytes");
    assertThatThrownBy(() -> json(bytes(0x09, 'a'))).hasMessageContaining("short string needs 2 bytes");
    // object {a: 1} whose field id 3 is beyond a dictionary of one key
    assertThatThrownBy(() -> VariantJson.toJson(bytes(0x02, 1, 3, 0, 2, 0x0C, 1), bytes(0x01, 1, 0, 1, 'a')))
        .hasMessageContaining("field id 3 is beyond the metadata dictionary of 1 keys");
    // an array whose element offset points past its elements
    assertThatThrownBy(() -> json(bytes(0x03, 1, 5, 2, 0x0C, 1)))
        .hasMessageContaining("element 0 of the array at byte 0 starts at offset 5");
    // an array claiming more element bytes than there are
    assertThatThrownBy(() -> json(bytes(0x03, 1, 0, 9, 0x0C, 1))).hasMessageContaining("take 9 bytes");
    // a child running past its container: an int64 inside an array of 2 element bytes
    assertThatThrownBy(() -> json(bytes(0x03, 1, 0, 2, 6 << 2, 1, 0, 0, 0, 0, 0, 0, 0)))
        .hasMessageContaining("int64 needs 8 bytes");
    assertThatThrownBy(() -> json(decimal(8, 10, BigInteger.ONE))).hasMessageContaining("beyond its limit of 9");
    assertThatThrownBy(() -> json(decimal(8, 0, BigInteger.valueOf(1_000_000_000))))
        .hasMessageContaining("precision 10");
    assertThatThrownBy(() -> json(primitive(17, -1, 8))).hasMessageContaining("not a time of day");
    assertThatThrownBy(() -> VariantJson.toJson(null, EMPTY_METADATA)).hasMessageContaining("value is null");
  }

  @Test
  void nestingDeeperThanSparksJsonLimitIsRefusedNotAStackOverflow() {
    Object deep = 1;
    for (int i = 0; i < VariantJson.MAX_DEPTH - 1; i++) {
      deep = List.of(deep);
    }
    int arrays = VariantJson.MAX_DEPTH - 1;
    assertThat(json(deep)).isEqualTo("[".repeat(arrays) + "1" + "]".repeat(arrays));
    Object deeper = List.of(deep);
    assertThatThrownBy(() -> json(deeper)).isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("deeper than 1000 levels");
    // hand-made: 100 000 nested one-element arrays (4-byte offsets: 0, then the size of what they hold) around 1
    int levels = 100_000;
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 0; i < levels; i++) {
      int inner = 10 * (levels - 1 - i) + 2;
      b.writeBytes(bytes(0x03 | 3 << 2, 1, 0, 0, 0, 0, inner, inner >> 8, inner >> 16, 0));
    }
    b.writeBytes(bytes(0x0C, 1));
    assertThatThrownBy(() -> json(b.toByteArray())).isInstanceOf(MalformedVariantException.class)
        .hasMessageContaining("deeper than 1000 levels");
  }

  @Test
  void theVariantTypeParsesAndPrintsAsVariant() {
    StructType s = SchemaJson.parse("{\"type\":\"struct\",\"fields\":[{\"name\":\"v\",\"type\":\"variant\","
        + "\"nullable\":true,\"metadata\":{}},{\"name\":\"a\",\"type\":{\"type\":\"array\",\"elementType\":"
        + "\"variant\",\"containsNull\":true},\"nullable\":true,\"metadata\":{}}]}");
    assertThat(s.field("v").type()).isEqualTo(PrimitiveType.VARIANT);
    assertThat(s.field("v").type().simpleString()).isEqualTo("variant");
    assertThat(((ArrayType) s.field("a").type()).elementType()).isEqualTo(PrimitiveType.VARIANT);
    assertThat(SchemaJson.toJson(s)).contains("\"type\":\"variant\"");
    assertThat(Arrays.asList(PrimitiveType.values())).contains(PrimitiveType.VARIANT);
  }
}
