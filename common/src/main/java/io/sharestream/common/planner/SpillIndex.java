package io.sharestream.common.planner;

import io.sharestream.common.model.FileAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sort keys of spilled file lines, compactly: each id's UTF-8 bytes in shared blocks, its first eight bytes as a
 * number, its kind, where the line is in the spill and its size (about 70 bytes a line for 32-character ids).
 * {@link #sorted} orders the lines as the planner orders a version's files: by id (as {@link String#compareTo}), then
 * kind; ids that differ in their first eight ASCII bytes (hex ids nearly always do) compare as two numbers.
 */
final class SpillIndex {
  private static final int BLOCK_BITS = 20;
  private static final int BLOCK = 1 << BLOCK_BITS;
  /** No ASCII prefix has its top bit set. */
  private static final long NOT_ASCII = -1L;

  private final List<byte[]> blocks = new ArrayList<>();
  private int blockUsed = BLOCK;
  private int[] idAt = new int[1024];
  private int[] idLength = new int[1024];
  /** The first eight bytes of each id, big-endian, zero-padded; {@link #NOT_ASCII} when one of them is not ASCII. */
  private long[] prefixes = new long[1024];
  private byte[] kinds = new byte[1024];
  private long[] offsets = new long[1024];
  private long[] sizes = new long[1024];
  private int count;
  private int removes;
  private int changeData;

  /** Notes {@code f}, spilled at {@code offset}. */
  void add(FileAction f, long offset) {
    if (count == idAt.length) {
      int n = count + (count >> 1);
      idAt = Arrays.copyOf(idAt, n);
      idLength = Arrays.copyOf(idLength, n);
      prefixes = Arrays.copyOf(prefixes, n);
      kinds = Arrays.copyOf(kinds, n);
      offsets = Arrays.copyOf(offsets, n);
      sizes = Arrays.copyOf(sizes, n);
    }
    byte[] id = f.id().getBytes(StandardCharsets.UTF_8);
    if (blocks.isEmpty() || BLOCK - blockUsed < id.length) {
      blocks.add(new byte[Math.max(BLOCK, id.length)]);
      blockUsed = 0;
    }
    System.arraycopy(id, 0, blocks.get(blocks.size() - 1), blockUsed, id.length);
    idAt[count] = (blocks.size() - 1) << BLOCK_BITS | blockUsed;
    idLength[count] = id.length;
    blockUsed += id.length;
    prefixes[count] = prefix(id);
    kinds[count] = (byte) f.kind().ordinal();
    removes += f.kind() == FileAction.Kind.REMOVE ? 1 : 0;
    changeData += f.kind() == FileAction.Kind.CDF ? 1 : 0;
    offsets[count] = offset;
    sizes[count] = f.size();
    count++;
  }

  /** The lines of {@code spill} in planner order; this index is spent. */
  SpilledFiles sorted(FileSpill spill) {
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    mergeSort(order, new int[count], 0, count);
    long[] sortedOffsets = new long[count];
    long[] bytesBefore = new long[count + 1];
    for (int i = 0; i < count; i++) {
      sortedOffsets[i] = offsets[order[i]];
      bytesBefore[i + 1] = bytesBefore[i] + sizes[order[i]];
    }
    blocks.clear();
    idAt = idLength = null;
    prefixes = null;
    offsets = sizes = null;
    kinds = null;
    return new SpilledFiles(spill, sortedOffsets, bytesBefore, removes, changeData);
  }

  private void mergeSort(int[] a, int[] tmp, int from, int to) {
    if (to - from < 16) {
      for (int i = from + 1; i < to; i++) {
        int x = a[i];
        int j = i - 1;
        for (; j >= from && compare(a[j], x) > 0; j--) {
          a[j + 1] = a[j];
        }
        a[j + 1] = x;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(a, tmp, from, mid);
    mergeSort(a, tmp, mid, to);
    if (compare(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, from, tmp, from, to - from);
    for (int i = from, l = from, r = mid; i < to; i++) {
      a[i] = r >= to || (l < mid && compare(tmp[l], tmp[r]) <= 0) ? tmp[l++] : tmp[r++];
    }
  }

  /** The first eight bytes of {@code id} as an unsigned number (zero-padded), or {@link #NOT_ASCII}. */
  private static long prefix(byte[] id) {
    long p = 0;
    for (int k = 0; k < 8; k++) {
      int b = k < id.length ? id[k] : 0;
      if (b < 0) {
        return NOT_ASCII;
      }
      p = p << 8 | b;
    }
    return p;
  }

  /** Lines {@code i} and {@code j} by id (UTF-16 order, as {@link String#compareTo}), then kind. */
  private int compare(int i, int j) {
    long pi = prefixes[i];
    long pj = prefixes[j];
    if (pi != pj && pi != NOT_ASCII && pj != NOT_ASCII) {
      // the first difference is an ASCII byte, or one id ending (zero padding) where the other goes on
      return Long.compare(pi, pj);
    }
    byte[] a = blocks.get(idAt[i] >>> BLOCK_BITS);
    byte[] b = blocks.get(idAt[j] >>> BLOCK_BITS);
    int ao = idAt[i] & (BLOCK - 1);
    int bo = idAt[j] & (BLOCK - 1);
    int n = Math.min(idLength[i], idLength[j]);
    for (int k = 0; k < n; k++) {
      int x = a[ao + k] & 0xff;
      int y = b[bo + k] & 0xff;
      if (x != y) {
        // equal bytes so far end on a character boundary: two ASCII bytes compare as their characters do
        return x < 0x80 && y < 0x80 ? x - y : id(i).compareTo(id(j));
      }
    }
    int byLength = Integer.compare(idLength[i], idLength[j]);
    return byLength != 0 ? byLength : Integer.compare(kinds[i], kinds[j]);
  }

  private String id(int i) {
    return new String(blocks.get(idAt[i] >>> BLOCK_BITS), idAt[i] & (BLOCK - 1), idLength[i], StandardCharsets.UTF_8);
  }
}
