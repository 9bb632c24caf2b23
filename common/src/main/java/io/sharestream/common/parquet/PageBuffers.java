package io.sharestream.common.parquet;

import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Arrays for decompressed pages, handed back when a reader is done with a page and reused by the next page of about
 * the same size, in this JVM. A task reading many tables keeps several files open over several polls; their pages,
 * allocated anew for each file, outlived the young generation and were promoted, then collected from the old one:
 * most of what a 200-table worker promoted (flight recordings of its collections). Reused, they stay put.
 *
 * <p>Sizes are rounded up to an eighth of their power of two (a page needs at most 12.5% more), pages under
 * {@link #MIN} are not kept (short-lived and cheap), nor are more than {@link #IDLE_LIMIT} bytes of arrays waiting.
 * An array must be handed back only when nothing reads it any more: by the thread that read its page, once the next
 * page or row group replaced it.
 */
final class PageBuffers {
  static final int MIN = 16 * 1024;
  static final int MAX = 16 * 1024 * 1024;
  static final long IDLE_LIMIT = 16L * 1024 * 1024;

  private static final Map<Integer, Deque<byte[]>> IDLE = new ConcurrentHashMap<>();
  private static final AtomicLong IDLE_BYTES = new AtomicLong();

  private PageBuffers() {}

  /** An array of at least {@code size} bytes: one handed back before, or a new one. */
  static byte[] take(int size) {
    if (size < MIN || size > MAX) {
      return new byte[size];
    }
    int rounded = rounded(size);
    Deque<byte[]> idle = IDLE.get(rounded);
    byte[] b = idle == null ? null : idle.pollFirst();
    if (b == null) {
      return new byte[rounded];
    }
    IDLE_BYTES.addAndGet(-b.length);
    return b;
  }

  /** Hands {@code b} back for another page (ignored for arrays this class did not size, or above the limit). */
  static void give(byte[] b) {
    if (b == null || b.length < MIN || b.length > MAX || rounded(b.length) != b.length) {
      return;
    }
    if (IDLE_BYTES.addAndGet(b.length) > IDLE_LIMIT) {
      IDLE_BYTES.addAndGet(-b.length);
      return;
    }
    IDLE.computeIfAbsent(b.length, k -> new ConcurrentLinkedDeque<>()).offerFirst(b);
  }

  /** {@code size} rounded up to a multiple of an eighth of its highest power of two. */
  static int rounded(int size) {
    int granule = Math.max(1, Integer.highestOneBit(size) >>> 3);
    return (size + granule - 1) / granule * granule;
  }
}
