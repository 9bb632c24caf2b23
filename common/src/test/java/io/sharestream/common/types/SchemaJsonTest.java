package io.sharestream.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaJsonTest {
  static final String ALL = "{\"type\":\"struct\",\"fields\":["
      + "{\"name\":\"b\",\"type\":\"boolean\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"i8\",\"type\":\"byte\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"i16\",\"type\":\"short\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"i32\",\"type\":\"integer\",\"nullable\":false,\"metadata\":{\"comment\":\"the key\"}},"
      + "{\"name\":\"i64\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"f\",\"type\":\"float\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"d\",\"type\":\"double\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"s\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"bin\",\"type\":\"binary\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"day\",\"type\":\"date\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"ts\",\"type\":\"timestamp\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"ntz\",\"type\":\"timestamp_ntz\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"dec\",\"type\":\"decimal(38,18)\",\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"arr\",\"type\":{\"type\":\"array\",\"elementType\":\"long\",\"containsNull\":false},"
      + "\"nullable\":true,\"metadata\":{}},"
      + "{\"name\":\"m\",\"type\":{\"type\":\"map\",\"keyType\":\"string\",\"valueType\":{\"type\":\"struct\","
      + "\"fields\":[{\"name\":\"x\",\"type\":\"decimal(5, 2)\",\"nullable\":true,\"metadata\":{}}]},"
      + "\"valueContainsNull\":true},\"nullable\":true,\"metadata\":{}}]}";

  @Test
  void parsesEveryDeltaTypeWithNullabilityAndMetadata() {
    StructType s = SchemaJson.parse(ALL);
    assertThat(s.fieldNames()).containsExactly("b", "i8", "i16", "i32", "i64", "f", "d", "s", "bin", "day", "ts",
        "ntz", "dec", "arr", "m");
    assertThat(s.fields().subList(0, 12)).extracting(StructField::type).containsExactly(PrimitiveType.BOOLEAN,
        PrimitiveType.BYTE, PrimitiveType.SHORT, PrimitiveType.INTEGER, PrimitiveType.LONG, PrimitiveType.FLOAT,
        PrimitiveType.DOUBLE, PrimitiveType.STRING, PrimitiveType.BINARY, PrimitiveType.DATE, PrimitiveType.TIMESTAMP,
        PrimitiveType.TIMESTAMP_NTZ);
    assertThat(s.field("i32").nullable()).isFalse();
    assertThat(s.field("i32").comment()).isEqualTo("the key");
    assertThat(s.field("dec").type()).isEqualTo(new DecimalType(38, 18));
    assertThat(s.field("arr").type()).isEqualTo(new ArrayType(PrimitiveType.LONG, false));
    MapType m = (MapType) s.field("m").type();
    assertThat(m.keyType()).isEqualTo(PrimitiveType.STRING);
    assertThat(((StructType) m.valueType()).field("x").type()).isEqualTo(new DecimalType(5, 2));
    assertThat(SchemaJson.parse(SchemaJson.toJson(s))).isEqualTo(s);
    assertThat(s.simpleString()).startsWith("struct<b:boolean,i8:byte");
  }

  @Test
  void geometriesAndGeographiesKeepTheirReferenceSystemAndAlgorithm() {
    StructType t = SchemaJson.parse("{\"type\":\"struct\",\"fields\":["
        + "{\"name\":\"a\",\"type\":\"geometry(OGC:CRS84)\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"b\",\"type\":\"geography(OGC:CRS84, SPHERICAL)\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"c\",\"type\":\"geometry\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"d\",\"type\":\"geography(EPSG:4326)\",\"nullable\":true,\"metadata\":{}}]}");
    GeoType a = (GeoType) t.field("a").type();
    assertThat(a.geography()).isFalse();
    assertThat(a.crs()).isEqualTo("OGC:CRS84");
    assertThat(a.algorithm()).isNull();
    assertThat(t.field("b").type().simpleString()).isEqualTo("geography(OGC:CRS84, SPHERICAL)");
    assertThat(t.field("c").type()).isEqualTo(a);
    assertThat(((GeoType) t.field("d").type()).crs()).isEqualTo("EPSG:4326");
    assertThat(((GeoType) t.field("d").type()).algorithm()).isEqualTo("SPHERICAL");
    assertThat(SchemaJson.parse(SchemaJson.toJson(t))).isEqualTo(t);
  }

  @Test
  void unknownTypesNameTheColumn() {
    assertThatThrownBy(() -> SchemaJson.parse("{\"type\":\"struct\",\"fields\":[{\"name\":\"g\",\"type\":"
        + "\"uint8\",\"nullable\":true}]}")).hasMessageContaining("column 'g'")
        .hasMessageContaining("'uint8'").hasMessageContaining("variant, decimal(p,s), geometry(crs)");
    assertThatThrownBy(() -> SchemaJson.parse("{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":"
        + "\"struct\",\"fields\":[{\"name\":\"b\",\"type\":\"interval\"}]}}]}")).hasMessageContaining("column 'a.b'");
    assertThatThrownBy(() -> SchemaJson.parse("nope")).hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> SchemaJson.parse("{\"type\":\"array\"}")).hasMessageContaining("not a struct");
    assertThatThrownBy(() -> new DecimalType(39, 0)).hasMessageContaining("decimal(39,0)");
  }

  @Test
  void readCompatibilityFollowsTheReferenceRule() {
    StructType read = SchemaJson.parse(ALL);
    assertThat(SchemaCompatibility.incompatibility(read, read)).isNull();
    StructType fewer = read.select(List.of("b", "i32"));
    assertThat(SchemaCompatibility.incompatibility(fewer, read)).isNull();
    StructType extra = read.add(new StructField("new", PrimitiveType.STRING, true));
    assertThat(SchemaCompatibility.incompatibility(extra, read)).contains("'new' is not in the stream's schema");
    StructType retyped = new StructType(List.of(new StructField("i32", PrimitiveType.LONG, false)));
    assertThat(SchemaCompatibility.incompatibility(retyped, read)).contains("'i32' changed type from integer to long");
    StructType nowNullable = new StructType(List.of(new StructField("i32", PrimitiveType.INTEGER, true)));
    assertThat(SchemaCompatibility.incompatibility(nowNullable, read)).contains("'i32' became nullable");
    StructType recased = new StructType(List.of(new StructField("I32", PrimitiveType.INTEGER, false)));
    assertThat(SchemaCompatibility.incompatibility(recased, read)).contains("changed case");
    StructType arrNulls = new StructType(List.of(new StructField("arr", new ArrayType(PrimitiveType.LONG, true), true)));
    assertThat(SchemaCompatibility.incompatibility(arrNulls, read)).contains("elements of 'arr' became nullable");
  }

  @Test
  void rowsAreTypedByTheirSchema() {
    StructType s = new StructType(List.of(new StructField("a", PrimitiveType.LONG, true),
        new StructField("b", PrimitiveType.BINARY, true)));
    Row r = new Row(s, new Object[] {1L, new byte[] {1, 2}});
    assertThat(r.get("a")).isEqualTo(1L);
    assertThat(r).isEqualTo(new Row(s, new Object[] {1L, new byte[] {1, 2}}));
    assertThat(r.toString()).isEqualTo("{a=1, b=[1, 2]}");
    assertThatThrownBy(() -> r.get("c")).hasMessageContaining("no column 'c'");
    assertThatThrownBy(() -> new Row(s, new Object[1])).hasMessageContaining("1 values for 2 columns");
    assertThatThrownBy(() -> new StructType(List.of(new StructField("a", PrimitiveType.LONG, true),
        new StructField("a", PrimitiveType.LONG, true)))).hasMessageContaining("duplicate");
  }
}
