package io.sharestream.common.deletionvectors;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.roaringbitmap.RoaringBitmap;

/**
 * An immutable set of 64-bit row indexes: the rows a deletion vector marks. Stored as Delta stores it, one 32-bit
 * {@link RoaringBitmap} per distinct high 32 bits ("bucket"), so a set of millions of rows takes a few bytes per
 * row at most.
 */
public final class RowIndexSet {
  /** The set without rows. */
  public static final RowIndexSet EMPTY = new RowIndexSet(new int[0], new RoaringBitmap[0]);

  private static final int PORTABLE_MAGIC = 1681511377;
  private static final int NATIVE_MAGIC = 1681511376;

  private final int[] keys;
  private final RoaringBitmap[] buckets;
  private final long cardinality;

  private RowIndexSet(int[] keys, RoaringBitmap[] buckets) {
    this.keys = keys;
    this.buckets = buckets;
    long n = 0;
    for (RoaringBitmap b : buckets) {
      n += b.getLongCardinality();
    }
    this.cardinality = n;
  }

  /** The set of the given row indexes (tests and small sets). */
  public static RowIndexSet of(long... rows) {
    long[] sorted = rows.clone();
    Arrays.sort(sorted);
    int[] keys = new int[sorted.length];
    RoaringBitmap[] buckets = new RoaringBitmap[sorted.length];
    int n = 0;
    for (long r : sorted) {
      if (r < 0) {
        throw new IllegalArgumentException("negative row index " + r);
      }
      int key = (int) (r >>> 32);
      if (n == 0 || keys[n - 1] != key) {
        keys[n] = key;
        buckets[n++] = new RoaringBitmap();
      }
      buckets[n - 1].add((int) r);
    }
    return new RowIndexSet(Arrays.copyOf(keys, n), Arrays.copyOf(buckets, n));
  }

  /**
   * Decodes Delta's serialized bitmap (little-endian): the portable format (magic 1681511377, a 64-bit bucket
   * count, then per bucket its 32-bit key and a portable 32-bit Roaring bitmap) or the legacy native one (magic
   * 1681511376, a 32-bit count, then per bucket a 32-bit length and the bitmap; keys are positions).
   *
   * @throws IllegalArgumentException naming what is wrong with the bytes
   */
  public static RowIndexSet deserialize(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (in.remaining() < 4) {
      throw new IllegalArgumentException("the bitmap is " + bytes.length + " bytes, too short for its magic number");
    }
    int magic = in.getInt();
    try {
      if (magic == PORTABLE_MAGIC) {
        return portable(in);
      }
      if (magic == NATIVE_MAGIC) {
        return nativeFormat(in);
      }
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("the bitmap cannot be decoded (" + e.getMessage() + ")", e);
    }
    throw new IllegalArgumentException("unexpected bitmap magic number " + magic + " (expected " + PORTABLE_MAGIC
        + ")");
  }

  private static RowIndexSet portable(ByteBuffer in) throws IOException {
    long count = in.getLong();
    if (count < 0 || count > in.remaining() / 12 + 1) {
      throw new IllegalArgumentException("bucket count " + count + " does not fit the " + in.remaining()
          + " bytes left");
    }
    int[] keys = new int[(int) count];
    RoaringBitmap[] buckets = new RoaringBitmap[(int) count];
    int previous = -1;
    for (int i = 0; i < count; i++) {
      int key = in.getInt();
      if (key < 0 || key <= previous) {
        throw new IllegalArgumentException("bucket key " + key + " is negative or out of order");
      }
      keys[i] = key;
      buckets[i] = bitmap(in);
      previous = key;
    }
    return new RowIndexSet(keys, buckets);
  }

  private static RowIndexSet nativeFormat(ByteBuffer in) throws IOException {
    int count = in.getInt();
    if (count < 0 || count > in.remaining() / 4) {
      throw new IllegalArgumentException("bitmap count " + count + " does not fit the " + in.remaining()
          + " bytes left");
    }
    int[] keys = new int[count];
    RoaringBitmap[] buckets = new RoaringBitmap[count];
    for (int i = 0; i < count; i++) {
      int length = in.getInt();
      int start = in.position();
      keys[i] = i;
      buckets[i] = bitmap(in);
      if (in.position() - start != length) {
        throw new IllegalArgumentException("bitmap " + i + " is " + (in.position() - start) + " bytes, not "
            + length);
      }
    }
    return new RowIndexSet(keys, buckets);
  }

  /** A portable 32-bit bitmap at the buffer's position; the position moves past it. */
  private static RoaringBitmap bitmap(ByteBuffer in) throws IOException {
    RoaringBitmap b = new RoaringBitmap();
    b.deserialize(in.slice().order(ByteOrder.LITTLE_ENDIAN));
    in.position(in.position() + b.serializedSizeInBytes());
    return b;
  }

  /** Rows in the set. */
  public long cardinality() {
    return cardinality;
  }

  public boolean isEmpty() {
    return cardinality == 0;
  }

  public boolean contains(long row) {
    int i = bucket((int) (row >>> 32));
    return i >= 0 && buckets[i].contains((int) row);
  }

  /** Rows of the set in {@code [from, to)}. */
  public long count(long from, long to) {
    long n = 0;
    for (int i = 0; i < keys.length && from < to; i++) {
      long base = (long) keys[i] << 32;
      long lo = Math.max(from, base) - base;
      long hi = Math.min(to, base + (1L << 32)) - base;
      if (lo < hi) {
        n += buckets[i].rangeCardinality(lo, hi);
      }
    }
    return n;
  }

  /** The smallest row of the set at or after {@code row}, or -1 when none is. */
  public long next(long row) {
    int key = (int) (row >>> 32);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] < key) {
        continue;
      }
      long low = keys[i] == key ? buckets[i].nextValue((int) row) : buckets[i].isEmpty() ? -1
          : buckets[i].first() & 0xFFFFFFFFL;
      if (low >= 0) {
        return ((long) keys[i] << 32) | low;
      }
    }
    return -1;
  }

  /** The rows of this set that are not in {@code other}. */
  public RowIndexSet andNot(RowIndexSet other) {
    if (isEmpty() || other.isEmpty()) {
      return this;
    }
    int[] k = keys.clone();
    RoaringBitmap[] b = new RoaringBitmap[keys.length];
    for (int i = 0; i < keys.length; i++) {
      int j = other.bucket(keys[i]);
      b[i] = j < 0 ? buckets[i] : RoaringBitmap.andNot(buckets[i], other.buckets[j]);
    }
    return new RowIndexSet(k, b);
  }

  /** The rows in this set or in {@code other}. */
  public RowIndexSet or(RowIndexSet other) {
    if (other.isEmpty()) {
      return this;
    }
    if (isEmpty()) {
      return other;
    }
    int[] k = new int[keys.length + other.keys.length];
    RoaringBitmap[] b = new RoaringBitmap[k.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < keys.length || j < other.keys.length) {
      if (j == other.keys.length || (i < keys.length && keys[i] < other.keys[j])) {
        k[n] = keys[i];
        b[n++] = buckets[i++];
      } else if (i == keys.length || other.keys[j] < keys[i]) {
        k[n] = other.keys[j];
        b[n++] = other.buckets[j++];
      } else {
        k[n] = keys[i];
        b[n++] = RoaringBitmap.or(buckets[i++], other.buckets[j++]);
      }
    }
    return new RowIndexSet(Arrays.copyOf(k, n), Arrays.copyOf(b, n));
  }

  private int bucket(int key) {
    return Arrays.binarySearch(keys, key);
  }

  @Override
  public String toString() {
    return "RowIndexSet{" + cardinality + " rows}";
  }
}
