package io.sharestream.common.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A response body that fails when no byte arrives for {@code timeout}: java.net.http has no read timeout, so a
 * watchdog closes stalled bodies, and the blocked read ends with an {@link IOException} the retry logic handles.
 */
final class IdleTimeoutInputStream extends FilterInputStream {
  private static final Set<IdleTimeoutInputStream> OPEN = ConcurrentHashMap.newKeySet();
  private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "delta-sharing-read-timeout");
    t.setDaemon(true);
    return t;
  });

  static {
    WATCHDOG.scheduleWithFixedDelay(IdleTimeoutInputStream::sweep, 1, 1, TimeUnit.SECONDS);
  }

  private final long timeoutNanos;
  private volatile long lastProgress = System.nanoTime();
  private volatile boolean timedOut;

  IdleTimeoutInputStream(InputStream in, Duration timeout) {
    super(in);
    this.timeoutNanos = timeout.toNanos();
    OPEN.add(this);
  }

  private static void sweep() {
    long now = System.nanoTime();
    for (IdleTimeoutInputStream s : OPEN) {
      if (now - s.lastProgress > s.timeoutNanos) {
        s.timedOut = true;
        OPEN.remove(s);
        try {
          s.in.close();
        } catch (IOException | RuntimeException ignored) {
          // closing is best effort; the reader sees the failure either way
        }
      }
    }
  }

  @Override
  public int read() throws IOException {
    int b = guard(super.read());
    lastProgress = System.nanoTime();
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n;
    try {
      n = super.read(b, off, len);
    } catch (IOException e) {
      throw timedOut ? timeout() : e;
    }
    lastProgress = System.nanoTime();
    return guard(n);
  }

  private int guard(int result) throws IOException {
    if (timedOut) {
      throw timeout();
    }
    return result;
  }

  private IOException timeout() {
    return new IOException("no data received for " + Duration.ofNanos(timeoutNanos).getSeconds() + " s (read timeout)");
  }

  @Override
  public void close() throws IOException {
    OPEN.remove(this);
    super.close();
  }
}
