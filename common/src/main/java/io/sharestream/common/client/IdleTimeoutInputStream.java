package io.sharestream.common.client;

import io.sharestream.common.errors.CancelledException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A response body of one client, which the client can {@link #cancel}: a read blocked in java.net.http ignores
 * thread interrupts (Java 17), so closing the body is the one way to free the reader; it then fails with a
 * {@link CancelledException}. java.net.http has no read timeout either, so a watchdog closes bodies on which no byte
 * arrived for the timeout, and the blocked read ends with an {@link IOException} the retry logic handles.
 *
 * <p>A body read from a socket with its own timeout ({@link #unwatched}, an {@link java.net.HttpURLConnection}'s) is
 * not closed from another thread, as closing it waits for the read in progress: a cancel flags it, and the read fails
 * as soon as its next bytes arrive or its socket times out.
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
  private final Set<IdleTimeoutInputStream> owner;
  private volatile long lastProgress = System.nanoTime();
  private volatile boolean timedOut;
  private volatile boolean cancelled;

  /** A body of {@code owner}'s (the open bodies of one client), failed after {@code timeout} without a byte. */
  IdleTimeoutInputStream(InputStream in, Duration timeout, Set<IdleTimeoutInputStream> owner) {
    super(in);
    this.timeoutNanos = timeout == null ? -1 : timeout.toNanos();
    this.owner = owner;
    if (timeout != null) {
      OPEN.add(this);
    }
    owner.add(this);
  }

  /** A body of {@code owner}'s whose socket times out by itself and that cancels at its next bytes. */
  static IdleTimeoutInputStream unwatched(InputStream in, Set<IdleTimeoutInputStream> owner) {
    return new IdleTimeoutInputStream(in, null, owner);
  }

  /** Cancels the body from another thread: a read blocked on it fails with {@link CancelledException}. */
  void cancel() {
    cancelled = true;
    if (timeoutNanos >= 0) {
      try {
        close();
      } catch (IOException | RuntimeException ignored) {
        // closing is best effort; the reader sees the cancellation either way
      }
    }
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
    int b;
    try {
      b = super.read();
    } catch (IOException | CancellationException e) {
      throw failure(e);
    }
    lastProgress = System.nanoTime();
    return guard(b);
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n;
    try {
      n = super.read(b, off, len);
    } catch (IOException | CancellationException e) {
      throw failure(e);
    }
    lastProgress = System.nanoTime();
    return guard(n);
  }

  /** What a failed read throws: java.net.http fails a body with a CancellationException once close() aborted it. */
  private IOException failure(Exception e) {
    if (cancelled || e instanceof CancellationException) {
      throw cancellation();
    }
    return timedOut ? timeout() : (IOException) e;
  }

  private int guard(int result) throws IOException {
    if (cancelled) {
      throw cancellation();
    }
    if (timedOut) {
      throw timeout();
    }
    return result;
  }

  private static CancelledException cancellation() {
    return new CancelledException("The read was cancelled: its client was closed.");
  }

  private IOException timeout() {
    return new IOException("no data received for " + Duration.ofNanos(timeoutNanos).getSeconds() + " s (read timeout)");
  }

  @Override
  public void close() throws IOException {
    OPEN.remove(this);
    owner.remove(this);
    super.close();
  }
}
