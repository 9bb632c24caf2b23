package io.sharestream.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;

/** Footers and rows of the fixtures' Parquet files, read with parquet-hadoop alone (no Spark). */
final class ParquetFiles {
  private ParquetFiles() {
  }

  static ParquetMetadata footer(Path file) {
    try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      return r.getFooter();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static MessageType schema(Path file) {
    return footer(file).getFileMetaData().getSchema();
  }

  /** Every row of {@code file}, in file order. */
  static List<Group> rows(Path file) {
    try (ParquetReader<Group> r = ParquetReader.builder(new GroupReadSupport(),
        new org.apache.hadoop.fs.Path(file.toUri())).withConf(new Configuration()).build()) {
      List<Group> out = new ArrayList<>();
      for (Group g = r.read(); g != null; g = r.read()) {
        out.add(g);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The values of a required-in-practice INT64 column, in file order (row index = list index). */
  static List<Long> longs(Path file, String column) {
    List<Long> out = new ArrayList<>();
    for (Group g : rows(file)) {
      out.add(g.getLong(column, 0));
    }
    return out;
  }
}
