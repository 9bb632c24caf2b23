package io.sharestream.common.parquet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet file's footer: its schema, key-value metadata and row groups, read from the file's end (the footer's
 * length and the magic {@code PAR1}) without Parquet's Hadoop-bound file reader.
 */
final class ParquetFooter {
  /** Parquet's Thrift structures to its metadata objects (footers, encodings); holds no state. */
  static final ParquetMetadataConverter CONVERTER = new ParquetMetadataConverter();
  private static final int TAIL = 8;

  private ParquetFooter() {}

  static ParquetMetadata read(InputFile input) throws IOException {
    long length = input.getLength();
    if (length < 4 + TAIL) {
      throw new IOException("it is " + length + " bytes long, too short for a Parquet file");
    }
    try (SeekableInputStream in = input.newStream()) {
      byte[] tail = new byte[TAIL];
      in.seek(length - TAIL);
      in.readFully(tail);
      String magic = new String(tail, 4, 4, StandardCharsets.US_ASCII);
      if (magic.equals("PARE")) {
        throw new IOException("its footer is encrypted (Parquet modular encryption), which this reader does not "
            + "decrypt");
      }
      if (!magic.equals("PAR1")) {
        throw new IOException("it does not end with Parquet's magic bytes: not a Parquet file, or truncated");
      }
      long footerLength = (tail[0] & 0xffL) | (tail[1] & 0xffL) << 8 | (tail[2] & 0xffL) << 16
          | (tail[3] & 0xffL) << 24;
      if (footerLength > length - 4 - TAIL) {
        throw new IOException("its footer length (" + footerLength + " bytes) does not fit in its " + length
            + " bytes: the file is corrupt");
      }
      byte[] footer = new byte[(int) footerLength];
      in.seek(length - TAIL - footerLength);
      in.readFully(footer);
      // the Thrift footer read with the format's own defaults (the converter's reading of it takes a size limit
      // that some Parquet releases leave unset), then made Parquet's metadata objects
      return CONVERTER.fromParquetMetadata(Util.readFileMetaData(new ByteArrayInputStream(footer)));
    }
  }
}
