package io.sharestream.common.client;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.VersionNotAvailableException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} read from a pre-signed URL with HTTP range requests: each read opens (or continues) a
 * range of at least {@code readAhead} bytes from the current position and streams it, so memory holds a small
 * buffer, never the file. Transient failures reopen at the current position with backoff; a 403 (expired URL)
 * asks {@link SignedUrl#refresh()} for a new URL and tries once more.
 */
public final class HttpInputFile implements InputFile {
  /** Default bytes asked per range request. */
  public static final int DEFAULT_READ_AHEAD = 4 * 1024 * 1024;

  private final SignedUrl url;
  private final long length;
  private final HttpClient http;
  private final ClientSettings settings;
  private final Retrier retrier;
  private final int readAhead;
  private final String name;

  /** {@code name} identifies the file in messages (e.g. its id); never the URL. */
  public HttpInputFile(DeltaSharingClient client, SignedUrl url, long length, String name, int readAhead) {
    this.url = url;
    this.length = length;
    this.http = client.http();
    this.settings = client.settings();
    this.retrier = client.retrier();
    this.readAhead = readAhead;
    this.name = name;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new RangeStream();
  }

  @Override
  public String toString() {
    return "HttpInputFile{" + name + ", " + length + " bytes}";
  }

  /** Bytes from {@code from} to {@code toExclusive}, streamed; opened with retries and at most one URL refresh. */
  private InputStream openRange(long from, long toExclusive) {
    String what = "reading bytes " + from + "-" + (toExclusive - 1) + " of file " + name;
    return retrier.call(what, () -> {
      boolean refreshed = false;
      while (true) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url.current())).timeout(settings.requestTimeout())
            .header("Range", "bytes=" + from + "-" + (toExclusive - 1))
            .header("User-Agent", settings.userAgent()).GET().build();
        HttpResponse<InputStream> r;
        try {
          r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while " + what);
        }
        int status = r.statusCode();
        if (status == 206 || status == 200) {
          InputStream body = new IdleTimeoutInputStream(r.body(), settings.readTimeout());
          if (status == 200 && from > 0) { // storage ignored the range: skip to it
            skipFully(body, from);
          }
          return body;
        }
        Http.readSmall(r.body(), 4096);
        if (status == 403 && !refreshed) {
          url.refresh();
          refreshed = true;
          continue;
        }
        if (status == 429 || status >= 500) {
          throw new TransientFailure("storage answered HTTP " + status, Http.retryAfter(r.headers()), null);
        }
        if (status == 403) {
          throw new UnauthorizedException("Storage refused file " + name + " (HTTP 403) even with a freshly signed "
              + "URL. The server's pre-signed URLs may expire too quickly or the clocks disagree.");
        }
        if (status == 404 || status == 416) {
          throw new VersionNotAvailableException("File " + name + " is no longer in the table's storage (HTTP "
              + status + "): the provider removed it (VACUUM). Restart from a later version.");
        }
        throw new java.io.IOException("storage answered HTTP " + status + " for " + Errors.safeUrl(url.current()));
      }
    });
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

  /** Seekable stream over range requests. */
  private final class RangeStream extends SeekableInputStream {
    private long pos;
    private InputStream body;
    private long bodyPos;
    private long bodyEnd;

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
      if (newPos < 0 || newPos > length) {
        throw new EOFException("seek to " + newPos + " outside file " + name + " of " + length + " bytes");
      }
      if (body != null && newPos >= bodyPos && newPos < bodyEnd && newPos - bodyPos <= 256 * 1024) {
        skipFully(body, newPos - bodyPos); // a short skip forward within the open range is cheaper than a request
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
      if (len == 0) {
        return 0;
      }
      if (pos >= length) {
        return -1;
      }
      for (int attempt = 0; ; attempt++) {
        ensureOpen(len);
        try {
          int n = body.read(b, off, (int) Math.min(len, bodyEnd - bodyPos));
          if (n < 0) {
            throw new EOFException("range body ended early");
          }
          pos += n;
          bodyPos += n;
          if (bodyPos >= bodyEnd) {
            closeBody();
          }
          return n;
        } catch (IOException e) {
          closeBody(); // reopen at the same position: the range request carries its own retries
          if (attempt >= settings.retry().maxAttempts()) {
            throw e;
          }
        }
      }
    }

    private void ensureOpen(int wanted) {
      if (body == null) {
        long end = Math.min(length, pos + Math.max(readAhead, wanted));
        body = openRange(pos, end);
        bodyPos = pos;
        bodyEnd = end;
      }
    }

    private void closeBody() {
      if (body != null) {
        try {
          body.close();
        } catch (IOException ignored) {
          // dropping the connection
        }
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
      int n = read(tmp, 0, tmp.length);
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
