package io.sharestream.common.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.types.SchemaJson;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A byte-valued column's dictionary read from its page's bytes, and the converters that read theirs so. */
class DictionaryEntriesTest {
  @TempDir Path tmp;

  @Test
  void binaryEntriesAreReadFromTheirLengthPrefixedBytes() {
    ByteArrayOutputStream page = new ByteArrayOutputStream();
    for (String s : new String[] {"alpha", "", "é-ü"}) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      page.write(b.length);
      page.write(0);
      page.write(0);
      page.write(0);
      page.write(b, 0, b.length);
    }
    byte[] bytes = java.util.Arrays.copyOf(page.toByteArray(), 64); // a pooled array is longer than its page
    DictionaryEntries e = DictionaryEntries.of(bytes, page.size(), 3, PrimitiveTypeName.BINARY, 0);

    assertThat(e.size()).isEqualTo(3);
    assertThat(e.get(0).toStringUsingUTF8()).isEqualTo("alpha");
    assertThat(e.get(1).toStringUsingUTF8()).isEmpty();
    assertThat(e.get(2).toStringUsingUTF8()).isEqualTo("é-ü");
  }

  @Test
  void fixedLengthAndInt96EntriesAreReadByTheirWidth() {
    byte[] bytes = new byte[36];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    DictionaryEntries fixed = DictionaryEntries.of(bytes, 36, 12, PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 3);
    assertThat(fixed.get(5).getBytes()).containsExactly(15, 16, 17);
    DictionaryEntries int96 = DictionaryEntries.of(bytes, 36, 3, PrimitiveTypeName.INT96, 0);
    assertThat(int96.get(2).getBytes()).hasSize(12).startsWith(24).endsWith(35);
  }

  @Test
  void aPageEndingInsideAnEntryIsRefused() {
    byte[] bytes = {5, 0, 0, 0, 'a', 'b'};
    assertThatThrownBy(() -> DictionaryEntries.of(bytes, 6, 1, PrimitiveTypeName.BINARY, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("entry 0");
    assertThatThrownBy(() -> DictionaryEntries.of(new byte[20], 20, 2, PrimitiveTypeName.INT96, 0))
        .hasMessageContaining("entry 1");
  }

  @Test
  void everyStringBinaryAndInt96ColumnAtAnyDepthReadsItsOwnEntries() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), Samples.ALL_TYPES).commit();
    table.append(Samples.allTypeRows());
    Path file = table.log().resolve(table.snapshot().files().iterator().next().path);
    MessageType schema;
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
      schema = r.getFooter().getFileMetaData().getSchema();
    }
    ValueConverters.StructConverter root = new ValueConverters.StructConverter(
        SchemaJson.parse(Samples.ALL_TYPES.toSchemaString()), schema, "",
        CalendarRebase.forFile(Map.of(), ReadSettings.DEFAULT, "f"), v -> { });

    TreeSet<String> paths = new TreeSet<>();
    for (ColumnPath p : ValueConverters.dictionaryReaders(schema, root).keySet()) {
      paths.add(p.toDotString());
    }
    // decimals (dec38 is a FIXED_LEN_BYTE_ARRAY) decode through Parquet's dictionary, as do numbers
    assertThat(paths).containsExactly("bin", "m.key_value.key", "s", "st.y.list.element", "ts");
  }
}
