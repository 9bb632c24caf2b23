package io.sharestream.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class PartitionValuesTest {
  private static Object decode(DataType t, String v) {
    return PartitionValues.decode("p", t, v, ZoneOffset.UTC);
  }

  @Test
  void everyPartitionableTypeDecodes() {
    assertThat(decode(PrimitiveType.STRING, "x:y/z")).isEqualTo("x:y/z");
    assertThat(decode(PrimitiveType.BOOLEAN, "TRUE")).isEqualTo(true);
    assertThat(decode(PrimitiveType.BYTE, "-128")).isEqualTo((byte) -128);
    assertThat(decode(PrimitiveType.SHORT, "32767")).isEqualTo((short) 32767);
    assertThat(decode(PrimitiveType.INTEGER, "-7")).isEqualTo(-7);
    assertThat(decode(PrimitiveType.LONG, "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    assertThat(decode(PrimitiveType.FLOAT, "1.5")).isEqualTo(1.5f);
    assertThat(decode(PrimitiveType.DOUBLE, "-0.25")).isEqualTo(-0.25);
    assertThat(decode(new DecimalType(10, 3), "12.5")).isEqualTo(new BigDecimal("12.500"));
    assertThat(decode(PrimitiveType.DATE, "1900-01-01")).isEqualTo(LocalDate.of(1900, 1, 1));
    assertThat(decode(PrimitiveType.TIMESTAMP, "2024-05-01 10:15:30.123456"))
        .isEqualTo(Instant.parse("2024-05-01T10:15:30.123456Z"));
    assertThat(decode(PrimitiveType.TIMESTAMP, "2024-05-01 10:15:30")).isEqualTo(Instant.parse("2024-05-01T10:15:30Z"));
    assertThat(decode(PrimitiveType.TIMESTAMP, "2024-05-01T10:15:30.5Z")).isEqualTo(Instant.parse("2024-05-01T10:15:30.5Z"));
    assertThat(PartitionValues.decode("p", PrimitiveType.TIMESTAMP, "2024-05-01 12:00:00", ZoneId.of("Europe/Paris")))
        .isEqualTo(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(decode(PrimitiveType.TIMESTAMP_NTZ, "2024-05-01 10:15:30")).isEqualTo(LocalDateTime.of(2024, 5, 1, 10, 15, 30));
    assertThat((byte[]) decode(PrimitiveType.BINARY, "ab")).isEqualTo("ab".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void emptyAndNullAreSqlNull() {
    assertThat(decode(PrimitiveType.INTEGER, "")).isNull();
    assertThat(decode(PrimitiveType.STRING, null)).isNull();
  }

  @Test
  void malformedValuesNameTheColumnAndType() {
    assertThatThrownBy(() -> decode(PrimitiveType.INTEGER, "x")).hasMessageContaining("'x' of column 'p'")
        .hasMessageContaining("integer");
    assertThatThrownBy(() -> decode(PrimitiveType.BOOLEAN, "yes")).hasMessageContaining("boolean");
    assertThatThrownBy(() -> decode(new DecimalType(5, 1), "1.25")).hasMessageContaining("decimal(5,1)");
    assertThatThrownBy(() -> decode(new ArrayType(PrimitiveType.LONG, true), "1")).hasMessageContaining("partition");
  }
}
