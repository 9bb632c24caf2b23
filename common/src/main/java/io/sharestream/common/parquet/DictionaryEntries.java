package io.sharestream.common.parquet;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The entries of a byte-valued column's dictionary page (BINARY, FIXED_LEN_BYTE_ARRAY or INT96, plain-encoded),
 * read from the page's bytes when asked for: one array of offsets, not an object per entry. Parquet's own dictionary
 * of such a column makes a {@link Binary} per entry and keeps them as long as its row group is read: for a file read
 * over several polls (a task reading many tables' files in turns), many thousands of objects that each young
 * collection copies and that end up promoted.
 */
final class DictionaryEntries {
  private final byte[] bytes;
  /** Where each entry's bytes start; for BINARY, each is preceded by its length (4 bytes, little-endian). */
  private final int[] starts;
  /** The width of a fixed-length entry, or -1 for BINARY. */
  private final int width;

  private DictionaryEntries(byte[] bytes, int[] starts, int width) {
    this.bytes = bytes;
    this.starts = starts;
    this.width = width;
  }

  /** Whether a column of physical type {@code type} has byte-valued dictionary entries, which this class reads. */
  static boolean covers(PrimitiveTypeName type) {
    return type == PrimitiveTypeName.BINARY || type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
        || type == PrimitiveTypeName.INT96;
  }

  /**
   * The {@code size} entries in the first {@code length} bytes of {@code bytes}, of a column of type {@code type}
   * ({@code typeLength}: a FIXED_LEN_BYTE_ARRAY's width).
   */
  static DictionaryEntries of(byte[] bytes, int length, int size, PrimitiveTypeName type, int typeLength) {
    int width = type == PrimitiveTypeName.INT96 ? 12 : type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? typeLength
        : -1;
    int[] starts = new int[size];
    int at = 0;
    for (int i = 0; i < size; i++) {
      int len = width;
      if (width < 0) {
        checkFits(at, 4, length, i);
        len = lengthAt(bytes, at);
        at += 4;
      }
      checkFits(at, len, length, i);
      starts[i] = at;
      at += len;
    }
    return new DictionaryEntries(bytes, starts, width);
  }

  private static void checkFits(int at, int len, int length, int entry) {
    if (len < 0 || at + len > length) {
      throw new IllegalArgumentException("the dictionary page ends inside its entry " + entry);
    }
  }

  private static int lengthAt(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
  }

  int size() {
    return starts.length;
  }

  /** Entry {@code id}, over the page's bytes (valid while its row group is read). */
  Binary get(int id) {
    int at = starts[id];
    return Binary.fromConstantByteArray(bytes, at, width >= 0 ? width : lengthAt(bytes, at - 4));
  }
}
