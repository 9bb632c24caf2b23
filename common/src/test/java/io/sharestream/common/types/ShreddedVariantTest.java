package io.sharestream.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.types.ShreddedVariant.Part;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Shredded parts put back together render as the unshredded value would: objects merged from typed fields and the
 * unshredded rest, sorted by key; every primitive in the encoding Spark gives it. (End to end, on files Delta Lake 4.4
 * writes shredded: interop/delta-4.4.)
 */
class ShreddedVariantTest {
  /** Metadata version 1 with the keys {@code keys}. */
  private static byte[] metadata(String... keys) {
    java.io.ByteArrayOutputStream strings = new java.io.ByteArrayOutputStream();
    int[] offsets = new int[keys.length + 1];
    for (int i = 0; i < keys.length; i++) {
      byte[] k = keys[i].getBytes(StandardCharsets.UTF_8);
      strings.write(k, 0, k.length);
      offsets[i + 1] = strings.size();
    }
    int size = Math.max(keys.length, strings.size()) > 0xFF ? 2 : 1;
    java.io.ByteArrayOutputStream m = new java.io.ByteArrayOutputStream();
    m.write(0x01 | (size - 1) << 6);
    little(m, keys.length, size);
    for (int o : offsets) {
      little(m, o, size);
    }
    m.write(strings.toByteArray(), 0, strings.size());
    return m.toByteArray();
  }

  private static void little(java.io.ByteArrayOutputStream out, int v, int size) {
    for (int i = 0; i < size; i++) {
      out.write(v >>> (8 * i));
    }
  }

  private static String json(Part p, byte[] metadata) {
    return VariantJson.toJson(ShreddedVariant.encode(p, metadata), metadata);
  }

  @Test
  void primitivesRenderAsSparkRendersTheirVariant() {
    byte[] m = metadata();
    assertThat(json(ShreddedVariant.integer(7), m)).isEqualTo("7");
    assertThat(json(ShreddedVariant.integer(-70_000), m)).isEqualTo("-70000");
    assertThat(json(ShreddedVariant.integer(Long.MIN_VALUE), m)).isEqualTo(Long.toString(Long.MIN_VALUE));
    assertThat(json(ShreddedVariant.float64(1.5), m)).isEqualTo("1.5");
    assertThat(json(ShreddedVariant.float32(1.1f), m)).isEqualTo("1.1");
    assertThat(json(ShreddedVariant.decimal(new BigDecimal("-12.3400")), m)).isEqualTo("-12.34");
    assertThat(json(ShreddedVariant.decimal(new BigDecimal("123456789012345678901234.5")), m))
        .isEqualTo("123456789012345678901234.5");
    assertThat(json(ShreddedVariant.decimal(new byte[] {(byte) 0xFF, 0x38}, 2), m)).isEqualTo("-2"); // -200 at 2
    assertThat(json(ShreddedVariant.date(19_000), m)).isEqualTo("\"2022-01-08\"");
    assertThat(json(ShreddedVariant.timestamp(1_000_001L, true), m)).isEqualTo("\"1970-01-01 00:00:01.000001+00:00\"");
    assertThat(json(ShreddedVariant.timestamp(1_000_000L, false), m)).isEqualTo("\"1970-01-01 00:00:01\"");
    assertThat(json(ShreddedVariant.string("a\"b"), m)).isEqualTo("\"a\\\"b\"");
    assertThat(json(ShreddedVariant.binary(new byte[] {1, 2}), m)).isEqualTo("\"AQI=\"");
    assertThat(json(ShreddedVariant.bool(false), m)).isEqualTo("false");
    assertThat(json(ShreddedVariant.nullValue(), m)).isEqualTo("null");
    byte[] uuid = new byte[16];
    uuid[15] = 1;
    assertThat(json(ShreddedVariant.uuid(uuid), m)).isEqualTo("\"00000000-0000-0000-0000-000000000001\"");
  }

  @Test
  void anObjectMergesItsTypedFieldsWithItsUnshreddedOnesSortedByKey() {
    byte[] m = metadata("b", "a", "c", "d");
    // the unshredded rest: {"c": 3} (field id 2)
    byte[] rest = ShreddedVariant.encode(ShreddedVariant.object(Map.of("c", ShreddedVariant.integer(3)), null), m);
    Map<String, Part> typed = new LinkedHashMap<>();
    typed.put("d", null); // a field this row lacks
    typed.put("b", ShreddedVariant.string("x"));
    typed.put("a", ShreddedVariant.array(Arrays.asList(ShreddedVariant.integer(1), ShreddedVariant.nullValue())));
    assertThat(json(ShreddedVariant.object(typed, rest), m)).isEqualTo("{\"a\":[1,null],\"b\":\"x\",\"c\":3}");
    assertThat(json(ShreddedVariant.object(new LinkedHashMap<>(), null), m)).isEqualTo("{}");
  }

  @Test
  void aKeyBothShreddedAndUnshreddedOrMissingFromTheMetadataIsMalformed() {
    byte[] m = metadata("a");
    byte[] rest = ShreddedVariant.encode(ShreddedVariant.object(Map.of("a", ShreddedVariant.integer(1)), null), m);
    assertThatThrownBy(() -> json(ShreddedVariant.object(Map.of("a", ShreddedVariant.integer(2)), rest), m))
        .isInstanceOf(VariantJson.MalformedVariantException.class).hasMessageContaining("both shredded");
    assertThatThrownBy(() -> json(ShreddedVariant.object(Map.of("z", ShreddedVariant.integer(2)), null), m))
        .hasMessageContaining("'z' is not in the metadata");
    assertThatThrownBy(() -> json(ShreddedVariant.object(Map.of(), ShreddedVariant.encode(
        ShreddedVariant.integer(1), m)), m)).hasMessageContaining("not an object");
  }

  @Test
  void largeObjectsAndArraysUseWiderHeaders() {
    String[] keys = new String[300];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = String.format("k%03d", i);
    }
    byte[] m = metadata(keys);
    Map<String, Part> fields = new LinkedHashMap<>();
    for (String k : keys) {
      fields.put(k, ShreddedVariant.string(k + k + k + k + k + k));
    }
    String j = json(ShreddedVariant.object(fields, null), m);
    assertThat(j).startsWith("{\"k000\":\"k000k000").endsWith("\"k299\":\"k299k299k299k299k299k299\"}");
  }
}
