package io.sharestream.testkit.jvm;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The peak of this JVM's live heap: the heap left after each collection, watched from the moment
 * {@link #watch()} is called. Unlike the committed heap or the resident set, it does not depend on how far the
 * collector chose to grow the heap, so it compares two workloads fairly.
 */
public final class LiveHeap {
  private final AtomicLong peak = new AtomicLong();

  private LiveHeap() {}

  /** Starts watching the collections of this JVM. */
  public static LiveHeap watch() {
    LiveHeap heap = new LiveHeap();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener((n, handback) -> {
        if (n.getType().equals(com.sun.management.GarbageCollectionNotificationInfo
            .GARBAGE_COLLECTION_NOTIFICATION)) {
          heap.peak.accumulateAndGet(heapAfter(com.sun.management.GarbageCollectionNotificationInfo
              .from((CompositeData) n.getUserData())), Math::max);
        }
      }, null, null);
    }
    return heap;
  }

  private static long heapAfter(com.sun.management.GarbageCollectionNotificationInfo info) {
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      String pool = e.getKey();
      if (!pool.contains("Metaspace") && !pool.contains("CodeHeap") && !pool.contains("Compressed Class")) {
        used += e.getValue().getUsed();
      }
    }
    return used;
  }

  /** The largest heap left after a collection so far, in bytes. */
  public long peak() {
    return peak.get();
  }
}
