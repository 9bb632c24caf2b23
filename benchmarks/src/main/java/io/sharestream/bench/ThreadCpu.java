package io.sharestream.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * This JVM's CPU time since a start, by kind of thread: each live thread's time goes to the kind its name gives, and
 * what is left of the process's time (garbage collection, JIT compilers, threads that ended) to {@code Jvm}.
 */
final class ThreadCpu {
  private final Map<Long, Long> threadsBefore = new HashMap<>();
  private final long processBefore = processNanos();

  ThreadCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (long id : threads.getAllThreadIds()) {
      threadsBefore.put(id, Math.max(0, threads.getThreadCpuTime(id)));
    }
  }

  /** Nanoseconds by kind, in the order {@code kinds} lists them, then {@code Jvm}. */
  Map<String, Long> byKind(Function<String, String> kindOfThread, String... kinds) {
    long process = processNanos() - processBefore;
    Map<String, Long> out = new LinkedHashMap<>();
    for (String kind : kinds) {
      out.put(kind, 0L);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long allJava = 0;
    for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (t == null) {
        continue; // ended meanwhile
      }
      long cpu = Math.max(0, threads.getThreadCpuTime(t.getThreadId())
          - threadsBefore.getOrDefault(t.getThreadId(), 0L));
      out.merge(kindOfThread.apply(t.getThreadName()), cpu, Long::sum);
      allJava += cpu;
    }
    out.put("Jvm", Math.max(0, process - allJava));
    return out;
  }

  /** The whole of {@code byKind} (the process's CPU since the start), in milliseconds. */
  static long totalMs(Map<String, Long> byKind) {
    return byKind.values().stream().mapToLong(Long::longValue).sum() / 1_000_000;
  }

  /** {@code byKind} as {@code  cpu<Kind>Ms=...} pairs. */
  static String pairs(Map<String, Long> byKind) {
    StringBuilder out = new StringBuilder();
    byKind.forEach((kind, ns) -> out.append(" cpu").append(kind).append("Ms=").append(ns / 1_000_000));
    return out.toString();
  }

  /** This JVM's CPU time so far, all threads. */
  static long processNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
