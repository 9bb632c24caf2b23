package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.airlift.compress.lzo.LzoHadoopStreams;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The plugin reads Parquet without Hadoop or native codecs: files parquet-mr 1.15 writes with every codec tables use
 * (its own codecs: zstd-jni, snappy-java, Hadoop's LZ4, aircompressor's LZ4_RAW; LZO in Hadoop's framing as
 * hadoop-lzo writes it, from aircompressor), in data pages v1 and v2, over many pages and row groups, read back
 * exactly by the core. The writers are test dependencies only: the plugin ships none of them.
 */
class ParquetCodecsTest {
  private static final int ROWS = 20_000;
  private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("message t { required int64 id; "
      + "optional binary name (STRING); optional double score; }");
  private static final StructType READ = new StructType(Arrays.asList(new StructField("id", PrimitiveType.LONG, false),
      new StructField("name", PrimitiveType.STRING, true), new StructField("score", PrimitiveType.DOUBLE, true)));

  @TempDir Path tmp;

  enum Codec { UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4, LZ4_RAW, LZO }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void everyCodecIsReadExactlyInDataPagesOfBothVersions(Codec codec) throws IOException {
    for (WriterVersion version : WriterVersion.values()) {
      Path file = write(CompressionCodecName.valueOf(codec.name()), version);
      try (ParquetFileReader written = ParquetFileReader.open(new LocalInputFile(file))) { // as the test means
        assertThat(written.getRowGroups()).hasSizeGreaterThan(1)
            .allSatisfy(g -> assertThat(g.getColumns()).allSatisfy(c -> assertThat(c.getCodec().name())
                .isEqualTo(codec.name())));
      }
      List<Row> rows = read(file);
      assertThat(rows).as("%s, %s", codec, version).hasSize(ROWS);
      for (int i = 0; i < ROWS; i += 997) {
        Row r = rows.get(i);
        assertThat(r.get("id")).isEqualTo((long) i);
        assertThat(r.get("name")).isEqualTo(i % 11 == 0 ? null : "name-" + (i % 100));
        assertThat(r.get("score")).isEqualTo(i % 7 == 0 ? null : i * 0.5);
      }
      assertThat(rows.get(ROWS - 1).get("id")).isEqualTo((long) ROWS - 1);
    }
  }

  @Test
  void aCodecTheReaderLacksIsRefusedNamingItAndTheColumn() throws IOException {
    Path file = write(CompressionCodecName.BROTLI, WriterVersion.PARQUET_1_0);
    assertThatThrownBy(() -> read(file)).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("cannot read column [id] of Parquet file " + file.getFileName())
        .hasMessageContaining("compressed with BROTLI, which this reader cannot decompress");
  }

  private static List<Row> read(Path file) {
    List<Row> rows = new ArrayList<>();
    try (ParquetRowReader r = ParquetRowReader.open(new LocalInputFile(file), file.getFileName().toString(), READ,
        List.of(), Map.of(), ReadSettings.DEFAULT, 0)) {
      r.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** Many small pages and row groups, dictionary-encoded names, nulls in both optional columns. */
  private Path write(CompressionCodecName codec, WriterVersion version) throws IOException {
    Path file = tmp.resolve(codec + "-" + version + ".parquet");
    Configuration conf = new Configuration();
    ExampleParquetWriter.Builder builder = ExampleParquetWriter.builder(new LocalOutputFile(file)).withConf(conf)
        .withType(SCHEMA).withCompressionCodec(codec).withWriterVersion(version).withPageSize(4096)
        .withDictionaryPageSize(4096).withRowGroupSize(16L * 1024);
    if (codec == CompressionCodecName.LZO || codec == CompressionCodecName.BROTLI) {
      builder.withCodecFactory(new Hand(new CodecFactory(conf, 4096)));
    }
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> w = builder.build()) {
      for (int i = 0; i < ROWS; i++) {
        Group g = groups.newGroup().append("id", (long) i);
        if (i % 11 != 0) {
          g.append("name", "name-" + (i % 100));
        }
        if (i % 7 != 0) {
          g.append("score", i * 0.5);
        }
        w.write(g);
      }
    }
    return file;
  }

  /**
   * The codecs parquet-mr finds only through Hadoop codec classes that are not on Maven Central (hadoop-lzo, a
   * Brotli codec): LZO compressed in Hadoop's block framing by aircompressor, as hadoop-lzo frames it; BROTLI labelled
   * only (the bytes are not Brotli), enough to see the reader refuse it. Every other codec is parquet-mr's own.
   */
  private static final class Hand implements CompressionCodecFactory {
    private final CompressionCodecFactory others;

    Hand(CompressionCodecFactory others) {
      this.others = others;
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
      if (codec != CompressionCodecName.LZO && codec != CompressionCodecName.BROTLI) {
        return others.getCompressor(codec);
      }
      return new BytesInputCompressor() {
        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
          if (codec == CompressionCodecName.BROTLI) {
            return BytesInput.copy(bytes);
          }
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          try (OutputStream lzo = new LzoHadoopStreams().createOutputStream(out)) {
            bytes.writeAllTo(lzo);
          }
          return BytesInput.from(out.toByteArray());
        }

        @Override
        public CompressionCodecName getCodecName() {
          return codec;
        }

        @Override
        public void release() {}
      };
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
      throw new UnsupportedOperationException("writing only");
    }

    @Override
    public void release() {
      others.release();
    }
  }
}
