package io.sharestream.common.client;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;

/**
 * Aborts the exchange of a thread that was interrupted while it waits for an answer or reads a body: blocking socket
 * I/O does not notice interrupts, and an engine stops work by interrupting its thread (Spark a query's, or a task's).
 * A daemon thread looks every {@value #PERIOD_MS} ms at the exchanges in flight; the aborted call fails at once and
 * the interrupted caller reports the stop.
 */
final class InterruptWatch {
  static final long PERIOD_MS = 100;
  /** Each exchange in flight, with the thread that sent it. */
  private static final Map<HttpUriRequestBase, Thread> CALLERS = new ConcurrentHashMap<>();
  private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sharestream-interrupt-watch");
    t.setDaemon(true);
    return t;
  });

  static {
    WATCH.scheduleWithFixedDelay(InterruptWatch::abortInterrupted, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
  }

  private InterruptWatch() {}

  /** Watches {@code request}, sent by the current thread, until {@link #forget}. */
  static void watch(HttpUriRequestBase request) {
    CALLERS.put(request, Thread.currentThread());
  }

  static void forget(HttpUriRequestBase request) {
    CALLERS.remove(request);
  }

  private static void abortInterrupted() {
    CALLERS.forEach((request, caller) -> {
      if (caller.isInterrupted()) {
        CALLERS.remove(request);
        request.cancel();
      }
    });
  }
}
