package io.sharestream.common.client;

import io.sharestream.common.errors.CancelledException;
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
 * A response body of one client, which the client can {@link #cancel}: a sharing-server body ({@link HttpTransport})
 * is aborted, its socket closed, so a read blocked on it ends at once with a {@link CancelledException}. A watchdog
 * aborts such bodies when no byte arrived for the read timeout, and the blocked read ends with an
 * {@link IOException} the retry logic handles (the transport's own socket timeout is the longer time an answer may
 * take to start).
 *
 * <p>A body read from a socket with its own timeout ({@link #unwatched}: a storage download, whose request's timeout
 * is the read timeout) has no watchdog; a cancel aborts it all the same.
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

  /** A body of {@code owner}'s whose socket times out by itself. */
  static IdleTimeoutInputStream unwatched(InputStream in, Set<IdleTimeoutInputStream> owner) {
    return new IdleTimeoutInputStream(in, null, owner);
  }

  /** Cancels the body from another thread: a read blocked on it fails with {@link CancelledException}. */
  void cancel() {
    cancelled = true;
    HttpTransport.abort(in);
  }

  private static void sweep() {
    long now = System.nanoTime();
    for (IdleTimeoutInputStream s : OPEN) {
      if (now - s.lastProgress > s.timeoutNanos) {
        s.timedOut = true;
        OPEN.remove(s);
        HttpTransport.abort(s.in);
      }
    }
  }

  @Override
  public int read() throws IOException {
    int b;
    try {
      b = super.read();
    } catch (IOException e) {
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
    } catch (IOException e) {
      throw failure(e);
    }
    lastProgress = System.nanoTime();
    return guard(n);
  }

  /** What a failed read throws: a cancelled body's read fails with the closed socket's exception. */
  private IOException failure(IOException e) {
    if (cancelled) {
      throw cancellation();
    }
    return timedOut ? timeout() : e;
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
