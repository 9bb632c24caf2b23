package io.sharestream.common.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** A file line keeps what planning needs of its stats, the row count, and not the stats text. */
class FileActionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theRowCountIsReadFromTheStatsWhereverItSitsAmongTheColumnStatistics() throws Exception {
    String stats = "{\"minValues\":{\"a\":{\"numRecords\":7},\"b\":[1,{\"c\":2}]},\"numRecords\":42,"
        + "\"nullCount\":{\"a\":0}}";
    FileAction f = FileAction.fromJson(FileAction.Kind.ADD, JSON.readTree("{\"id\":\"f\",\"url\":\"https://h/f\","
        + "\"size\":10,\"stats\":" + JSON.writeValueAsString(stats) + "}"));

    assertThat(f.numRecords()).isEqualTo(42);
    assertThat(FileAction.numRecordsOf("{\"numRecords\":\"5\"}")).isEqualTo(5);
    assertThat(FileAction.numRecordsOf("{\"minValues\":{}}")).isEqualTo(-1);
    assertThat(FileAction.numRecordsOf("{\"numRecords\":")).isEqualTo(-1);
    assertThat(FileAction.numRecordsOf("[]")).isEqualTo(-1);
    assertThat(FileAction.numRecordsOf(null)).isEqualTo(-1);
  }

  @Test
  void theStatsTextIsNotKept() throws Exception {
    String big = "{\"numRecords\":1,\"minValues\":{\"s\":\"" + "x".repeat(100_000) + "\"}}";
    FileAction f = FileAction.fromJson(FileAction.Kind.ADD, JSON.readTree("{\"id\":\"f\",\"url\":\"https://h/f\","
        + "\"size\":10,\"stats\":" + JSON.writeValueAsString(big) + "}"));

    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
      out.writeObject(f); // what a Spark task carries of it
    }
    assertThat(bytes.size()).isLessThan(2_000);
    assertThat(f.numRecords()).isEqualTo(1);
  }
}
