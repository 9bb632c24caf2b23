package io.sharestream.common.parquet;

import io.airlift.compress.Decompressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import io.airlift.compress.lz4.Lz4HadoopStreams;
import io.airlift.compress.lzo.LzoHadoopStreams;
import io.airlift.compress.snappy.SnappyDecompressor;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Decompresses Parquet pages in plain Java, without Hadoop's codecs or native libraries: SNAPPY, GZIP, ZSTD, LZ4_RAW,
 * LZ4 (Hadoop's framing, or a bare LZ4 block as some writers wrote it) and LZO (Hadoop's framing), with the codecs of
 * aircompressor (which Parquet itself uses for LZ4_RAW). BROTLI, which no Java codec in Parquet's own dependencies
 * reads, is refused naming the codec.
 */
final class PageCodecs {
  private PageCodecs() {}

  /** Decompresses one page; one per column chunk, used by one thread. */
  interface PageDecompressor {
    /**
     * Decompresses {@code length} bytes of {@code in} from {@code offset} into the first {@code size} bytes of
     * {@code out}: exactly that many, or an {@link IOException}.
     */
    void decompress(byte[] in, int offset, int length, byte[] out, int size) throws IOException;
  }

  /** The decompressor of {@code codec}; one this reader does not have is refused naming it. */
  static PageDecompressor of(CompressionCodecName codecName) throws IOException {
    String codec = codecName.name(); // by name: LZ4_RAW is no constant of the Parquet the core compiles against
    switch (codec) {
      case "UNCOMPRESSED":
        return (in, offset, length, out, size) -> {
          check(codec, length, size);
          System.arraycopy(in, offset, out, 0, size);
        };
      case "SNAPPY":
        return block(codec, new SnappyDecompressor());
      case "ZSTD": // frames one after the other, with or without their content size
        return block(codec, new ZstdDecompressor());
      case "LZ4_RAW":
        return block(codec, new Lz4Decompressor());
      case "GZIP": // members one after the other, as GZIPInputStream reads them
        return (in, offset, length, out, size) ->
            stream(codec, new GZIPInputStream(new ByteArrayInputStream(in, offset, length), 8192), out, size);
      case "LZO": // Hadoop's block framing around LZO1X blocks
        return (in, offset, length, out, size) -> stream(codec,
            HadoopFraming.lzo(new ByteArrayInputStream(in, offset, length)), out, size);
      case "LZ4":
        return lz4();
      default:
        throw new IOException("its pages are compressed with " + codec + ", which this reader cannot decompress "
            + "(it reads UNCOMPRESSED, SNAPPY, GZIP, ZSTD, LZ4_RAW, LZ4 and LZO)");
    }
  }

  /**
   * LZ4 as parquet-mr wrote it, in Hadoop's block framing (a block's size, then sized compressed chunks); some
   * writers (parquet-cpp before LZ4_RAW existed) wrote a bare block, which is read when the framing does not fit.
   */
  private static PageDecompressor lz4() {
    PageDecompressor bare = block("LZ4", new Lz4Decompressor());
    return (in, offset, length, out, size) -> {
      try {
        stream("LZ4", HadoopFraming.lz4(new ByteArrayInputStream(in, offset, length)), out, size);
      } catch (IOException framed) {
        try {
          bare.decompress(in, offset, length, out, size);
        } catch (IOException e) {
          framed.addSuppressed(e);
          throw framed;
        }
      }
    };
  }

  private static PageDecompressor block(String codec, Decompressor decompressor) {
    return (in, offset, length, out, size) -> {
      int n;
      try {
        n = decompressor.decompress(in, offset, length, out, 0, size);
      } catch (RuntimeException e) { // aircompressor's MalformedInputException: corrupt or truncated input
        throw new IOException("a " + codec + " page cannot be decompressed: " + e.getMessage(), e);
      }
      check(codec, n, size);
    };
  }

  private static void stream(String codec, InputStream decompressed, byte[] out, int size)
      throws IOException {
    try (InputStream in = decompressed) {
      int done = 0;
      while (done < size) {
        int n = in.read(out, done, size - done);
        if (n < 0) {
          throw new EOFException("a " + codec + " page decompressed to " + done + " of its " + size + " bytes");
        }
        done += n;
      }
      if (in.read() >= 0) {
        throw new IOException("a " + codec + " page decompressed to more than its " + size + " bytes");
      }
    } catch (RuntimeException e) {
      throw new IOException("a " + codec + " page cannot be decompressed: " + e.getMessage(), e);
    }
  }

  /**
   * Hadoop's block framing, by aircompressor's streams: a class of its own, loaded only for LZ4 and LZO pages, so
   * an engine whose older aircompressor lacks these streams still reads the other codecs.
   */
  private static final class HadoopFraming {
    static InputStream lz4(InputStream framed) throws IOException {
      return new Lz4HadoopStreams().createInputStream(framed);
    }

    static InputStream lzo(InputStream framed) throws IOException {
      return new LzoHadoopStreams().createInputStream(framed);
    }
  }

  private static void check(String codec, int got, int size) throws IOException {
    if (got != size) {
      throw new IOException("a " + codec + " page decompressed to " + got + " bytes where its header says " + size);
    }
  }
}
