package io.sharestream.testkit.delta;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * A deletion vector's set of row indexes in Delta's portable {@code RoaringBitmapArray} form, all little-endian:
 * int32 magic {@value #PORTABLE_MAGIC}, int64 bucket count, then per bucket (ascending) its int32 key (the high 32
 * bits of the row indexes) and a 32-bit RoaringBitmap of the low 32 bits in the portable RoaringFormatSpec layout.
 * Writes array containers (up to 4096 values) and bitmap containers with cookie 12346; reads run containers too.
 */
public final class DeletionVectorBitmap {
  /** Magic number of the portable format. */
  public static final int PORTABLE_MAGIC = 1681511377;
  private static final int COOKIE_NO_RUNS = 12346;
  private static final int COOKIE_RUNS = 12347;
  private static final int MAX_ARRAY = 4096;
  private static final int BITMAP_WORDS = 1024;

  private DeletionVectorBitmap() {}

  /** Serializes non-negative row indexes. */
  public static byte[] serialize(Collection<Long> rowIndexes) {
    NavigableSet<Long> rows = new TreeSet<>(rowIndexes);
    if (!rows.isEmpty() && rows.first() < 0) {
      throw new IllegalArgumentException("row indexes cannot be negative: " + rows.first());
    }
    List<List<Long>> buckets = new ArrayList<>();
    List<Integer> keys = new ArrayList<>();
    for (long row : rows) {
      int key = (int) (row >>> 32);
      if (keys.isEmpty() || keys.get(keys.size() - 1) != key) {
        keys.add(key);
        buckets.add(new ArrayList<>());
      }
      buckets.get(buckets.size() - 1).add(row);
    }
    List<byte[]> bitmaps = new ArrayList<>();
    int size = 4 + 8;
    for (List<Long> bucket : buckets) {
      byte[] b = serialize32(bucket);
      bitmaps.add(b);
      size += 4 + b.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(PORTABLE_MAGIC).putLong(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      out.putInt(keys.get(i)).put(bitmaps.get(i));
    }
    return out.array();
  }

  /** A 32-bit RoaringBitmap of the low 32 bits of {@code rows} (ascending, one bucket). */
  private static byte[] serialize32(List<Long> rows) {
    List<int[]> containers = new ArrayList<>(); // per container: key, then its low 16-bit values
    List<Integer> current = new ArrayList<>();
    int currentKey = -1;
    for (long row : rows) {
      int key = (int) ((row >>> 16) & 0xFFFF);
      if (key != currentKey && !current.isEmpty()) {
        containers.add(container(currentKey, current));
        current.clear();
      }
      currentKey = key;
      current.add((int) (row & 0xFFFF));
    }
    if (!current.isEmpty()) {
      containers.add(container(currentKey, current));
    }
    int header = 4 + 4 + containers.size() * 4 + containers.size() * 4;
    int size = header;
    for (int[] c : containers) {
      size += bodySize(c.length - 1);
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(COOKIE_NO_RUNS).putInt(containers.size());
    for (int[] c : containers) {
      out.putShort((short) c[0]).putShort((short) (c.length - 2));
    }
    int offset = header;
    for (int[] c : containers) {
      out.putInt(offset);
      offset += bodySize(c.length - 1);
    }
    for (int[] c : containers) {
      int cardinality = c.length - 1;
      if (cardinality <= MAX_ARRAY) {
        for (int i = 1; i < c.length; i++) {
          out.putShort((short) c[i]);
        }
      } else {
        long[] words = new long[BITMAP_WORDS];
        for (int i = 1; i < c.length; i++) {
          words[c[i] >>> 6] |= 1L << (c[i] & 63);
        }
        for (long w : words) {
          out.putLong(w);
        }
      }
    }
    return out.array();
  }

  private static int[] container(int key, List<Integer> values) {
    int[] c = new int[values.size() + 1];
    c[0] = key;
    for (int i = 0; i < values.size(); i++) {
      c[i + 1] = values.get(i);
    }
    return c;
  }

  private static int bodySize(int cardinality) {
    return cardinality <= MAX_ARRAY ? 2 * cardinality : 8 * BITMAP_WORDS;
  }

  /** Parses a portable {@code RoaringBitmapArray} into its row indexes. */
  public static NavigableSet<Long> deserialize(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int magic = in.getInt();
    if (magic != PORTABLE_MAGIC) {
      throw new IllegalArgumentException("Unexpected RoaringBitmapArray magic number " + magic);
    }
    long buckets = in.getLong();
    NavigableSet<Long> rows = new TreeSet<>();
    for (long b = 0; b < buckets; b++) {
      long high = (in.getInt() & 0xFFFFFFFFL) << 32;
      read32(in, high, rows);
    }
    return rows;
  }

  /** Reads one 32-bit RoaringBitmap at the buffer's position, leaving the position after it. */
  private static void read32(ByteBuffer in, long high, NavigableSet<Long> rows) {
    int cookie = in.getInt();
    int containers;
    byte[] runFlags = null;
    if ((cookie & 0xFFFF) == COOKIE_RUNS) {
      containers = (cookie >>> 16) + 1;
      runFlags = new byte[(containers + 7) / 8];
      in.get(runFlags);
    } else if (cookie == COOKIE_NO_RUNS) {
      containers = in.getInt();
    } else {
      throw new IllegalArgumentException("not a RoaringBitmap: cookie " + cookie);
    }
    int[] keys = new int[containers];
    int[] cardinalities = new int[containers];
    for (int i = 0; i < containers; i++) {
      keys[i] = in.getShort() & 0xFFFF;
      cardinalities[i] = (in.getShort() & 0xFFFF) + 1;
    }
    if (runFlags == null || containers >= 4) {
      in.position(in.position() + 4 * containers); // offsets: the containers follow in order anyway
    }
    for (int i = 0; i < containers; i++) {
      long base = high | ((long) keys[i] << 16);
      if (runFlags != null && (runFlags[i / 8] & (1 << (i % 8))) != 0) {
        int runs = in.getShort() & 0xFFFF;
        for (int r = 0; r < runs; r++) {
          int from = in.getShort() & 0xFFFF;
          int length = in.getShort() & 0xFFFF;
          for (int v = from; v <= from + length; v++) {
            rows.add(base | v);
          }
        }
      } else if (cardinalities[i] <= MAX_ARRAY) {
        for (int v = 0; v < cardinalities[i]; v++) {
          rows.add(base | (in.getShort() & 0xFFFF));
        }
      } else {
        for (int w = 0; w < BITMAP_WORDS; w++) {
          long word = in.getLong();
          while (word != 0) {
            rows.add(base | (w * 64L + Long.numberOfTrailingZeros(word)));
            word &= word - 1;
          }
        }
      }
    }
  }
}
