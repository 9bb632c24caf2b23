package io.sharestream.common.parquet;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.PrimitiveType;

/**
 * The pages of a row group's column chunks, decompressed as its rows are read, each column's bytes dropped once its
 * last page is. Two ways in: {@link #streamed} reads each column chunk through a stream of its own, one page of each
 * column in memory at a time, for the 128 MB row groups of big files (Parquet's own reader would hold all their
 * chunks); {@link #loaded} reads the chunks at once through one stream, for small row groups, where Parquet's own
 * reader would keep every chunk's compressed bytes until the group's end, beside the pages decompressed from them: a
 * file a task reads over several polls (many tables' files open at once) then held a third more heap. Pages are
 * decompressed into arrays of {@link PageBuffers}, handed back when the next page replaces one or the group is
 * {@linkplain #finish read to its end}; a group {@linkplain #close closed} before then leaves them to the collector.
 */
final class RowGroupPages implements PageReadStore, Closeable {
  private static final int STREAM_BUFFER = 64 * 1024;

  private final InputFile input;
  private final String file;
  private final long rowCount;
  private final Map<ColumnPath, ColumnChunkMetaData> chunks = new HashMap<>();
  /** {@link #loaded}: each read column chunk's bytes, until its pages are read. */
  private final Map<ColumnPath, byte[]> chunkBytes = new HashMap<>();
  private final List<ChunkPages> open = new ArrayList<>();
  /** The converters that take their column's dictionary entries from here, not from Parquet's dictionary. */
  private final Map<ColumnPath, ValueConverters.DictionaryAware<?>> dictionaryReaders;

  private RowGroupPages(InputFile input, String file, BlockMetaData group,
      Map<ColumnPath, ValueConverters.DictionaryAware<?>> dictionaryReaders) {
    this.input = input;
    this.file = file;
    this.rowCount = group.getRowCount();
    this.dictionaryReaders = dictionaryReaders;
    for (ColumnChunkMetaData c : group.getColumns()) {
      chunks.put(c.getPath(), c);
    }
  }

  /**
   * The row group, each column chunk read through a stream of its own as its pages are; the dictionary entries of
   * the columns of {@code dictionaryReaders} handed to their converters.
   */
  static RowGroupPages streamed(InputFile input, String file, BlockMetaData group,
      Map<ColumnPath, ValueConverters.DictionaryAware<?>> dictionaryReaders) {
    return new RowGroupPages(input, file, group, dictionaryReaders);
  }

  /** As {@link #streamed}, the chunks of {@code columns} read now, in file order, through one stream. */
  static RowGroupPages loaded(InputFile input, String file, BlockMetaData group, List<ColumnDescriptor> columns,
      Map<ColumnPath, ValueConverters.DictionaryAware<?>> dictionaryReaders) throws IOException {
    RowGroupPages pages = new RowGroupPages(input, file, group, dictionaryReaders);
    List<ColumnChunkMetaData> wanted = chunks(group, columns);
    wanted.sort((a, b) -> Long.compare(a.getStartingPos(), b.getStartingPos()));
    try (SeekableInputStream in = input.newStream()) {
      for (ColumnChunkMetaData c : wanted) {
        byte[] bytes = new byte[Math.toIntExact(c.getTotalSize())];
        in.seek(c.getStartingPos());
        in.readFully(bytes);
        pages.chunkBytes.put(c.getPath(), bytes);
      }
    }
    return pages;
  }

  /** The byte ranges of the chunks of {@code columns}: what this row group will read. */
  static List<long[]> ranges(BlockMetaData group, List<ColumnDescriptor> columns) {
    List<long[]> out = new ArrayList<>();
    for (ColumnChunkMetaData c : chunks(group, columns)) {
      out.add(new long[] {c.getStartingPos(), c.getStartingPos() + c.getTotalSize()});
    }
    return out;
  }

  /** The chunks of {@code columns} the row group has, in the order of {@code columns}. */
  private static List<ColumnChunkMetaData> chunks(BlockMetaData group, List<ColumnDescriptor> columns) {
    Map<ColumnPath, ColumnChunkMetaData> byPath = new HashMap<>();
    for (ColumnChunkMetaData c : group.getColumns()) {
      byPath.put(c.getPath(), c);
    }
    List<ColumnChunkMetaData> out = new ArrayList<>();
    for (ColumnDescriptor d : columns) {
      ColumnChunkMetaData c = byPath.get(ColumnPath.get(d.getPath()));
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  @Override
  public PageReader getPageReader(ColumnDescriptor column) {
    ColumnChunkMetaData chunk = chunks.get(ColumnPath.get(column.getPath()));
    if (chunk == null) {
      throw new IllegalArgumentException("file " + file + " has no column " + String.join(".", column.getPath()));
    }
    try {
      ChunkPages pages = new ChunkPages(chunk, column.getPrimitiveType(), chunkBytes.remove(chunk.getPath()));
      open.add(pages);
      return pages;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read column " + chunk.getPath() + " of Parquet file " + file + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public long getRowCount() {
    return rowCount;
  }

  /**
   * Every row read (by the thread that read them): the streams are closed and the pages' arrays handed back to
   * {@link PageBuffers}.
   */
  void finish() {
    for (ChunkPages p : open) {
      p.finish();
    }
    open.clear();
  }

  /** Closed before its end, from any thread: the streams are closed, the pages' arrays left to the collector. */
  @Override
  public void close() {
    for (ChunkPages p : open) {
      p.dropSource();
    }
    open.clear();
  }

  /**
   * The pages of one column chunk, read one after the other from its bytes (loaded) or from a stream of its own,
   * either dropped once the last page is read.
   */
  private final class ChunkPages implements PageReader {
    private final ColumnChunkMetaData chunk;
    private final PrimitiveType type;
    private final PageCodecs.PageDecompressor decompressor;
    private SeekableInputStream stream;
    private InputStream in;
    /** The arrays of the dictionary and of the data page being read, from {@link PageBuffers}. */
    private byte[] dictionary;
    private byte[] page;
    private long valuesLeft;
    private long bytesLeft;
    private PageHeader pending;

    ChunkPages(ColumnChunkMetaData chunk, PrimitiveType type, byte[] bytes) throws IOException {
      this.chunk = chunk;
      this.type = type;
      this.valuesLeft = chunk.getValueCount();
      this.bytesLeft = chunk.getTotalSize();
      this.decompressor = PageCodecs.of(chunk.getCodec());
      if (bytes != null) {
        this.in = new ByteArrayInputStream(bytes);
      } else {
        this.stream = input.newStream();
        stream.seek(chunk.getStartingPos());
        this.in = new BufferedInputStream(stream, (int) Math.min(STREAM_BUFFER, Math.max(1, bytesLeft)));
      }
    }

    @Override
    public DictionaryPage readDictionaryPage() {
      try {
        PageHeader h = header();
        if (h == null || h.getType() != PageType.DICTIONARY_PAGE) {
          return null;
        }
        pending = null;
        DictionaryPageHeader d = h.getDictionary_page_header();
        int size = h.getUncompressed_page_size();
        dictionary = decompressed(read(h.getCompressed_page_size()), size);
        Encoding encoding = ParquetFooter.CONVERTER.getEncoding(d.getEncoding());
        ValueConverters.DictionaryAware<?> converter = dictionaryReaders.get(chunk.getPath());
        if (converter != null) { // it reads the entries from the page's bytes; Parquet's dictionary stays empty
          converter.handOver(DictionaryEntries.of(dictionary, size, d.getNum_values(), type.getPrimitiveTypeName(),
              type.getTypeLength()));
          return new DictionaryPage(BytesInput.empty(), 0, 0, encoding);
        }
        return new DictionaryPage(BytesInput.from(dictionary, 0, size), size, d.getNum_values(), encoding);
      } catch (IOException e) {
        throw failure(e);
      }
    }

    @Override
    public long getTotalValueCount() {
      return chunk.getValueCount();
    }

    @Override
    public DataPage readPage() {
      try {
        PageBuffers.give(page); // the column reader asks for a page once it has read the last one's values
        page = null;
        while (valuesLeft > 0) {
          PageHeader h = header();
          if (h == null) {
            throw new EOFException(valuesLeft + " values missing at the end of the chunk");
          }
          pending = null;
          if (h.getType() == PageType.DATA_PAGE) {
            DataPageHeader d = h.getData_page_header();
            valuesLeft -= d.getNum_values();
            page = decompressed(read(h.getCompressed_page_size()), h.getUncompressed_page_size());
            BytesInput bytes = BytesInput.from(page, 0, h.getUncompressed_page_size());
            dropSourceAfterLastPage();
            return new DataPageV1(bytes, d.getNum_values(), h.getUncompressed_page_size(), noStatistics(),
                ParquetFooter.CONVERTER.getEncoding(d.getRepetition_level_encoding()),
                ParquetFooter.CONVERTER.getEncoding(d.getDefinition_level_encoding()), ParquetFooter.CONVERTER.getEncoding(d.getEncoding()));
          }
          if (h.getType() == PageType.DATA_PAGE_V2) {
            DataPageHeaderV2 d = h.getData_page_header_v2();
            valuesLeft -= d.getNum_values();
            int levels = d.getRepetition_levels_byte_length() + d.getDefinition_levels_byte_length();
            BytesInput repetition = BytesInput.from(read(d.getRepetition_levels_byte_length()));
            BytesInput definition = BytesInput.from(read(d.getDefinition_levels_byte_length()));
            byte[] stored = read(h.getCompressed_page_size() - levels);
            BytesInput data = BytesInput.from(stored);
            if (!d.isSetIs_compressed() || d.isIs_compressed()) {
              int size = h.getUncompressed_page_size() - levels;
              page = decompressed(stored, size);
              data = BytesInput.from(page, 0, size);
            }
            dropSourceAfterLastPage();
            Encoding encoding = ParquetFooter.CONVERTER.getEncoding(d.getEncoding());
            return DataPageV2.uncompressed(d.getNum_rows(), d.getNum_nulls(), d.getNum_values(), repetition,
                definition, encoding, data, noStatistics());
          }
          skip(h.getCompressed_page_size()); // index pages, or a dictionary page where none belongs
        }
        return null;
      } catch (IOException e) {
        throw failure(e);
      }
    }

    /** The next page header (read ahead once by {@link #readDictionaryPage}), or null at the chunk's end. */
    private PageHeader header() throws IOException {
      if (pending == null && bytesLeft > 0) {
        CountingStream counted = new CountingStream(in);
        pending = Util.readPageHeader(counted);
        bytesLeft -= counted.count;
      }
      return pending;
    }

    private byte[] read(int size) throws IOException {
      byte[] bytes = new byte[size];
      int done = 0;
      while (done < size) {
        int n = in.read(bytes, done, size - done);
        if (n < 0) {
          throw new EOFException("the chunk ended " + (size - done) + " bytes into a page");
        }
        done += n;
      }
      bytesLeft -= size;
      return bytes;
    }

    private void skip(int size) throws IOException {
      long left = size;
      while (left > 0) {
        long n = in.skip(left);
        if (n <= 0) {
          throw new EOFException("the chunk ended inside a page it skips");
        }
        left -= n;
      }
      bytesLeft -= size;
    }

    /** The page decompressed now, into an array of {@link PageBuffers}. */
    private byte[] decompressed(byte[] stored, int uncompressedSize) throws IOException {
      byte[] out = PageBuffers.take(uncompressedSize);
      decompressor.decompress(stored, 0, stored.length, out, uncompressedSize);
      return out;
    }

    private Statistics<?> noStatistics() {
      return Statistics.getBuilderForReading(type).build();
    }

    private UncheckedIOException failure(IOException e) {
      return new UncheckedIOException("cannot read column " + chunk.getPath() + " of Parquet file " + file + ": "
          + e.getMessage(), e);
    }

    /** Once every value is read, the chunk's bytes or stream (and its buffer) are let go at once. */
    private void dropSourceAfterLastPage() {
      if (valuesLeft <= 0) {
        dropSource();
      }
    }

    /** The chunk read to its end: its pages' arrays go back to {@link PageBuffers}. */
    void finish() {
      dropSource();
      PageBuffers.give(page);
      PageBuffers.give(dictionary);
      page = null;
      dictionary = null;
    }

    void dropSource() {
      in = null;
      if (stream != null) {
        try {
          stream.close();
        } catch (IOException e) {
          // the connection is dropped either way
        }
        stream = null;
      }
    }
  }

  /** Counts the bytes a page header took. */
  private static final class CountingStream extends InputStream {
    private final InputStream in;
    long count;

    CountingStream(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
