package io.sharestream.common.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.Samples;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a file a reader has open costs the heap: a task reading many tables holds several files open over several
 * polls, and each young collection copies what they hold.
 */
class OpenFileMemoryTest {
  @TempDir Path tmp;

  @Test
  void anOpenFileHoldsItsDecodedPagesButNotItsCompressedChunksNorAnObjectPerDictionaryEntry() throws Exception {
    // 10,000 rows in one row group, one page per column: a timestamp column (INT96) with a dictionary of 10,000
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), Samples.ORDERS).commit();
    table.append(Samples.orders(0, 10_000));
    Path file = table.log().resolve(table.snapshot().files().iterator().next().path);
    long decoded = 0;
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
      assertThat(r.getRowGroups()).hasSize(1);
      for (BlockMetaData g : r.getRowGroups()) {
        for (ColumnChunkMetaData c : g.getColumns()) {
          decoded += c.getTotalUncompressedSize();
        }
      }
    }

    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(javaBin, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
        OpenFileHeapProbe.class.getName(), file.toString(), Samples.ORDERS.toSchemaString(), "16"))
        .redirectErrorStream(true).redirectOutput(tmp.resolve("probe.log").toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("probe finished").isTrue();
    String out = new String(Files.readAllBytes(tmp.resolve("probe.log")), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    Matcher m = Pattern.compile("heldPerFile=(\\d+) open=16").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    // the decoded pages (1.18 times their size): before, Parquet's dictionaries of the three byte-valued columns
    // of 10,000 entries each held a Binary object per entry (1.59 times), and before that Parquet's reader also kept
    // the compressed chunks until the row group's end (2.7 times)
    assertThat(Long.parseLong(m.group(1))).as("decoded " + decoded).isLessThan(decoded * 13 / 10);
  }

  @Test
  void aLargeDictionaryIsDecodedAsRowsUseItAndASmallOneOnceUpFront() {
    AtomicInteger decodes = new AtomicInteger();
    List<Object> values = new ArrayList<>();
    ValueConverters.DictionaryAware<String> column = new ValueConverters.DictionaryAware<>(values::add, b -> {
      decodes.incrementAndGet();
      return b.toStringUsingUTF8();
    });

    column.setDictionary(dictionary(10_000));
    assertThat(decodes).hasValue(0);
    column.addValueFromDictionary(7);
    column.addValueFromDictionary(9_999);
    assertThat(values).containsExactly("v7", "v9999");
    assertThat(decodes).hasValue(2);

    values.clear();
    column.setDictionary(dictionary(5)); // the next row group's
    assertThat(decodes).hasValue(7);
    column.addValueFromDictionary(3);
    column.addValueFromDictionary(3);
    assertThat(values).containsExactly("v3", "v3");
    assertThat(values.get(0)).isSameAs(values.get(1));
    assertThat(decodes).hasValue(7);
  }

  @Test
  void filesReadInTurnsOverSeveralRowGroupsGiveExactRowsWhilePageArraysAreReused() throws Exception {
    // three files of 20,000 rows in row groups of about 100 KB, read a row of each in turn, as a task reads four
    // tables: each row group's pages go back to the pool and serve the next while the other files are mid-page
    List<ParquetRowReader> readers = new ArrayList<>();
    List<List<java.util.Map<String, Object>>> expected = new ArrayList<>();
    io.sharestream.common.types.StructType schema = io.sharestream.common.types.SchemaJson.parse(
        Samples.ORDERS.toSchemaString());
    for (int f = 0; f < 3; f++) {
      DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("f" + f), Samples.ORDERS)
          .rowGroupBytes(100 * 1024).commit();
      List<java.util.Map<String, Object>> rows = Samples.orders(f * 100_000L, f * 100_000L + 20_000);
      table.append(rows);
      expected.add(rows);
      Path file = table.log().resolve(table.snapshot().files().iterator().next().path);
      try (ParquetFileReader footer = ParquetFileReader.open(HadoopInputFile.fromPath(
          new org.apache.hadoop.fs.Path(file.toUri()), new Configuration(false)))) {
        assertThat(footer.getRowGroups().size()).isGreaterThan(3);
      }
      readers.add(ParquetRowReader.open(HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(file.toUri()),
          new Configuration()), "f" + f, schema, List.of(), java.util.Map.of(), ReadSettings.DEFAULT, 0,
          io.sharestream.common.deletionvectors.RowSelection.ALL));
    }
    for (int i = 0; i < 20_000; i++) {
      for (int f = 0; f < 3; f++) {
        io.sharestream.common.types.Row r = readers.get(f).next();
        java.util.Map<String, Object> want = expected.get(f).get(i);
        assertThat(r.get("id")).isEqualTo(want.get("id"));
        assertThat(r.get("name")).isEqualTo(want.get("name"));
        assertThat(r.get("note")).isEqualTo(want.get("note"));
        assertThat(r.get("at")).isEqualTo(want.get("at"));
        assertThat(r.get("score")).isEqualTo(want.get("score"));
      }
    }
    for (ParquetRowReader r : readers) {
      assertThat(r.hasNext()).isFalse();
      r.close();
    }
  }

  private static Dictionary dictionary(int size) {
    return new Dictionary(Encoding.PLAIN_DICTIONARY) {
      @Override
      public int getMaxId() {
        return size - 1;
      }

      @Override
      public Binary decodeToBinary(int id) {
        return Binary.fromString("v" + id);
      }
    };
  }
}
