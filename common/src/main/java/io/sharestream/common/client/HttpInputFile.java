package io.sharestream.common.client;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidDataFileException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.parquet.PlannedReads;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} read from a pre-signed URL with HTTP range requests, asking storage for exactly what
 * is read: the file's tail (where Parquet keeps its footer) in one request, cached and shared by all streams of the
 * file; every other read by its exact range, or, when the reader announced the column chunks it will read
 * ({@link PlannedReads}), by the announced range around it: near-adjacent chunks read by one stream are coalesced
 * into one request, chunks streamed side by side get a request each. Nothing is read ahead beyond that (a range
 * {@linkplain #prefetch opened ahead} holds a connection, not bytes), and memory holds the tail and a stream buffer,
 * never the file.
 *
 * <p>Transient failures reopen at the current position with backoff; a 403 (expired URL) asks
 * {@link SignedUrl#refresh()} for a new URL and tries once more. {@link #prefetchFooter} fetches the tail in the
 * background so the next file's footer is there when its reader opens it.
 */
public final class HttpInputFile implements InputFile, PlannedReads {
  /** Bytes of the file's end fetched at once: footers up to this size cost one request. */
  public static final int TAIL_BYTES = 64 * 1024;
  /** Chunks at most this far apart are fetched by one request; a stream skips such gaps instead of reopening. */
  public static final long COALESCE_GAP = 1024 * 1024;
  /** Where a Parquet file's first column chunk begins: after its 4-byte magic. */
  private static final long DATA_START = 4;

  private final SignedUrl url;
  private final long length;
  private final DeltaSharingClient client;
  private final ClientSettings settings;
  private final Retrier retrier;
  private final String name;
  private final long tailStart;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private volatile CompletableFuture<byte[]> tail;
  /** The data range opened ahead by {@link #prefetch}, not yet taken by a stream. */
  private CompletableFuture<InputStream> early; // guarded by this
  private volatile long[] planned = new long[0]; // start0, end0, start1, end1, ... sorted, coalesced

  /** {@code name} identifies the file in messages (e.g. its id); never the URL. */
  public HttpInputFile(DeltaSharingClient client, SignedUrl url, long length, String name) {
    this.url = url;
    this.length = length;
    this.client = client;
    this.settings = client.settings();
    this.retrier = client.retrier();
    this.name = name;
    this.tailStart = Math.max(0, length - TAIL_BYTES);
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new RangeStream();
  }

  /** HTTP requests made for this file so far (a URL refresh retry counts too). */
  public long requests() {
    return requests.get();
  }

  /** Bytes received from storage for this file so far. */
  public long bytesRead() {
    return bytes.get();
  }

  /** Starts fetching the file's tail (its footer) on {@code executor}; readers then find it there. */
  public HttpInputFile prefetchFooter(Executor executor) {
    synchronized (this) {
      if (tail == null) {
        tail = CompletableFuture.supplyAsync(this::fetchTail, executor);
      }
    }
    return this;
  }

  /**
   * As {@link #prefetchFooter}, then opens the range from the file's first data byte to its tail, so that a reader
   * also finds its first bytes on the way: against distant storage, both round trips of a file are made while the
   * one before it is read. The open range holds a connection, not bytes (the reader takes it, or a reader needing
   * another range drops it); {@link #abandon()} drops it when the file will not be read.
   */
  public HttpInputFile prefetch(Executor executor) {
    synchronized (this) {
      prefetchFooter(executor);
      if (early == null && tailStart > DATA_START) {
        early = tail.thenApplyAsync(t -> openRange(DATA_START, tailStart), executor);
      }
    }
    return this;
  }

  /** Drops the range {@link #prefetch} opened, if no stream took it: the file will not be read after all. */
  public void abandon() {
    drop(claimEarly());
  }

  /** The range opened ahead, now no other stream's to take (null if none). */
  private synchronized CompletableFuture<InputStream> claimEarly() {
    CompletableFuture<InputStream> e = early;
    early = null;
    return e;
  }

  /** Closes the range opened ahead once it is open (or at once if it is). */
  private static void drop(CompletableFuture<InputStream> e) {
    if (e != null) {
      e.thenAccept(HttpInputFile::closeQuietly);
    }
  }

  /**
   * The range opened ahead, skipped to {@code pos}, when {@code pos} is at most {@link #COALESCE_GAP} into it; else
   * null (and a range opened ahead is dropped: the reader starts elsewhere).
   */
  private InputStream takeEarly(long pos) {
    CompletableFuture<InputStream> e = claimEarly();
    if (e == null) {
      return null;
    }
    if (pos < DATA_START || pos >= tailStart || pos - DATA_START > COALESCE_GAP) {
      drop(e);
      return null;
    }
    InputStream in;
    try {
      in = e.get();
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      drop(e);
      return null;
    } catch (ExecutionException failed) {
      return null; // opened again by the reader, with its own retries and errors
    }
    try {
      skipFully(in, pos - DATA_START);
      bytes.addAndGet(pos - DATA_START);
      return in;
    } catch (IOException failed) {
      closeQuietly(in);
      return null;
    }
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // dropping the connection
    }
  }

  @Override
  public void willRead(List<long[]> ranges, boolean oneStream) {
    long[][] sorted = ranges.toArray(new long[0][]);
    Arrays.sort(sorted, (a, b) -> Long.compare(a[0], b[0]));
    long[] out = new long[sorted.length * 2];
    int n = 0;
    for (long[] r : sorted) {
      if (oneStream && n > 0 && r[0] - out[n - 1] <= COALESCE_GAP) {
        out[n - 1] = Math.max(out[n - 1], r[1]);
      } else {
        out[n++] = r[0];
        out[n++] = r[1];
      }
    }
    planned = Arrays.copyOf(out, n);
  }

  /** The end of the announced range holding {@code pos}, or -1. */
  private long plannedEnd(long pos) {
    long[] p = planned;
    for (int i = 0; i < p.length; i += 2) {
      if (pos >= p[i] && pos < p[i + 1]) {
        return p[i + 1];
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return "HttpInputFile{" + name + ", " + length + " bytes}";
  }

  private byte[] tail() throws IOException {
    CompletableFuture<byte[]> t;
    synchronized (this) {
      if (tail == null) {
        tail = CompletableFuture.completedFuture(fetchTail());
      }
      t = tail;
    }
    try {
      return t.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading the footer of file " + name);
    } catch (ExecutionException e) {
      synchronized (this) {
        tail = null; // a failed prefetch is tried again by the reader itself
      }
      Throwable c = e.getCause();
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      throw new IOException("cannot read the footer of file " + name, c);
    }
  }

  private byte[] fetchTail() {
    return read(tailStart, (int) (length - tailStart));
  }

  /**
   * Bytes {@code [from, from + count)} of the file in one request (retried, with one URL refresh on 403), e.g. a
   * deletion vector stored inside a larger file.
   */
  public byte[] read(long from, int count) {
    byte[] out = new byte[count];
    String what = "reading " + count + " bytes at " + from + " of file " + name;
    retrier.call(what, () -> {
      try (InputStream in = openRange(from, from + count)) {
        int done = 0;
        while (done < out.length) {
          int n = in.read(out, done, out.length - done);
          if (n < 0) {
            throw new TransientFailure("the body of " + what + " ended early", null, null);
          }
          done += n;
          bytes.addAndGet(n);
        }
      }
      return null;
    });
    return out;
  }

  /** Bytes from {@code from} to {@code toExclusive}, streamed; opened with retries and at most one URL refresh. */
  private InputStream openRange(long from, long toExclusive) {
    String what = "reading bytes " + from + "-" + (toExclusive - 1) + " of file " + name;
    return retrier.call(what, () -> {
      boolean refreshed = false;
      while (true) {
        requests.incrementAndGet();
        Answer c = client.storageGet(url.current(), "bytes=" + from + "-" + (toExclusive - 1), what);
        int status = c.status();
        if (status == 206 || status == 200) {
          checkLongEnough(c, toExclusive);
          InputStream body = client.storageBody(c);
          if (status == 200 && from > 0) { // storage ignored the range: skip to it
            skipFully(body, from);
          }
          return body;
        }
        String body = Http.readSmall(c.body(), 4096); // read and closed, so the connection can serve the next request
        // a URL refused or expired (S3 answers a signature made with expired credentials 400 ExpiredToken, GCS an
        // expired token 401): once anew
        boolean expired = status == 400 && body.contains("ExpiredToken");
        if ((status == 401 || status == 403 || expired) && !refreshed) {
          url.refresh();
          refreshed = true;
          continue;
        }
        if (status == 429 || status >= 500) {
          Duration retryAfter = Http.retryAfter(c);
          throw new TransientFailure("storage answered HTTP " + status, retryAfter, null);
        }
        if (status == 401 || status == 403) {
          throw new UnauthorizedException("Storage refused file " + name + " (HTTP " + status + ") even with a "
              + "freshly signed URL. The server's pre-signed URLs may expire too quickly or the clocks disagree.");
        }
        if (status == 404 || status == 416) {
          throw new VersionNotAvailableException("File " + name + " is no longer in the table's storage (HTTP "
              + status + "): the provider removed it (VACUUM). Restart from a later version.");
        }
        throw new IOException("storage answered HTTP " + status + " for " + Errors.safeUrl(url.current()));
      }
    });
  }

  /** A file shorter than the range asked (its {@code Content-Range} total says so) is an error, not a cut body. */
  private void checkLongEnough(Answer c, long toExclusive) {
    String range = c.header("Content-Range");
    int slash = range == null ? -1 : range.lastIndexOf('/');
    if (slash < 0 || range.endsWith("*")) {
      return;
    }
    try {
      long total = Long.parseLong(range.substring(slash + 1).trim());
      if (total < toExclusive) {
        try {
          c.body().close(); // before its end: the exchange is aborted
        } catch (IOException ignored) {
          // nothing was wanted from it
        }
        throw new InvalidDataFileException("File " + name + " is " + total + " bytes long, shorter than the "
            + toExclusive + " bytes read from it needs.");
      }
    } catch (NumberFormatException ignored) {
      // a malformed header: let the body tell
    }
  }

  private static void skipFully(InputStream in, long n) throws IOException {
    long left = n;
    while (left > 0) {
      long s = in.skip(left);
      if (s <= 0) {
        if (in.read() < 0) {
          throw new EOFException("body ended while skipping to the requested range");
        }
        s = 1;
      }
      left -= s;
    }
  }

  /** A seekable stream: the tail from the shared cache, other bytes from range requests. */
  private final class RangeStream extends SeekableInputStream {
    private long pos;
    private InputStream body;
    private long bodyPos;
    private long bodyEnd;
    /** Whether the open body is a range opened ahead not yet read from (storage may have dropped it meanwhile). */
    private boolean bodyUnread;

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
      if (newPos < 0 || newPos > length) {
        throw new EOFException("seek to " + newPos + " outside file " + name + " of " + length + " bytes");
      }
      if (body != null && newPos >= bodyPos && newPos < bodyEnd && newPos - bodyPos <= COALESCE_GAP) {
        skipFully(body, newPos - bodyPos); // a gap within the open range is cheaper than a new request
        bytes.addAndGet(newPos - bodyPos);
        bodyPos = newPos;
      } else if (body != null && newPos != bodyPos) {
        closeBody();
      }
      pos = newPos;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return read(b, off, len, len);
    }

    /** Reads up to {@code len} bytes; a range opened here covers {@code wanted} bytes (the caller's whole read). */
    private int read(byte[] b, int off, int len, long wanted) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (pos >= length) {
        return -1;
      }
      if (pos >= tailStart && (body == null || bodyPos != pos)) {
        byte[] t = tail();
        int n = (int) Math.min(len, length - pos);
        System.arraycopy(t, (int) (pos - tailStart), b, off, n);
        pos += n;
        return n;
      }
      for (int attempt = 0; ; attempt++) {
        ensureOpen(wanted);
        try {
          int n = body.read(b, off, (int) Math.min(len, bodyEnd - bodyPos));
          if (n < 0) {
            throw new EOFException("range body ended early");
          }
          pos += n;
          bodyPos += n;
          bytes.addAndGet(n);
          bodyUnread = false;
          if (bodyPos >= bodyEnd) {
            closeBody();
          }
          return n;
        } catch (IOException e) {
          boolean stale = bodyUnread; // a range opened ahead that storage dropped while it waited: not a retry
          closeBody(); // reopen at the same position: the range request carries its own retries
          if (e instanceof InterruptedIOException || (!stale && attempt >= settings.retry().maxAttempts())) {
            throw e;
          }
        }
      }
    }

    /** Opens the announced range holding {@code pos}, else exactly {@code wanted} bytes (never into the tail). */
    private void ensureOpen(long wanted) {
      if (body == null) {
        long end = plannedEnd(pos);
        if (end < 0) {
          end = Math.min(length, pos + wanted);
        }
        if (pos < tailStart && tail != null) {
          end = Math.min(end, tailStart); // the cached tail serves the rest
        }
        InputStream ahead = takeEarly(pos);
        body = ahead != null ? ahead : openRange(pos, end);
        bodyPos = pos;
        bodyEnd = ahead != null ? tailStart : end;
        bodyUnread = ahead != null;
      }
    }

    private void closeBody() {
      if (body != null) {
        closeQuietly(body);
        body = null;
      }
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
      readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
      int done = 0;
      while (done < len) {
        int n = read(bytes, start + done, len - done);
        if (n < 0) {
          throw new EOFException("reached the end of file " + name + " with " + (len - done) + " bytes missing");
        }
        done += n;
      }
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
      if (buf.hasArray()) {
        int n = read(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
        if (n > 0) {
          buf.position(buf.position() + n);
        }
        return n;
      }
      byte[] tmp = new byte[Math.min(buf.remaining(), 64 * 1024)];
      int n = read(tmp, 0, tmp.length, buf.remaining());
      if (n > 0) {
        buf.put(tmp, 0, n);
      }
      return n;
    }

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
      while (buf.hasRemaining()) {
        if (read(buf) < 0) {
          throw new EOFException("reached the end of file " + name + " with " + buf.remaining() + " bytes missing");
        }
      }
    }

    @Override
    public void close() {
      closeBody();
    }
  }
}
