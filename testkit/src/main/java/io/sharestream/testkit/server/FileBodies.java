package io.sharestream.testkit.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The body of a file download, shared by the kit's storage endpoints (pre-signed URLs and the object store): after
 * any hold on the file ({@link Faults#holdDownloads}), {@code length} bytes from {@code from}, slowed by
 * {@link Faults#slowStorage}.
 */
final class FileBodies {
  private static final int CHUNK = 64 * 1024;
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

  private FileBodies() {}

  /**
   * The bytes a {@code Range} header asks of an object of {@code size} bytes, as object stores read it: a single
   * {@code bytes=from-to}, {@code bytes=from-} or suffix {@code bytes=-n}; null for no header or one ignored
   * (malformed, several ranges), which asks for the whole object.
   */
  static ByteRange range(String header, long size) {
    Matcher m = header == null ? null : RANGE.matcher(header.trim());
    if (m == null || !m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
      return null;
    }
    if (m.group(1).isEmpty()) {
      long n = Long.parseLong(m.group(2));
      return new ByteRange(Math.max(0, size - n), size - 1, n > 0 && size > 0);
    }
    long from = Long.parseLong(m.group(1));
    long to = m.group(2).isEmpty() ? size - 1 : Math.min(size - 1, Long.parseLong(m.group(2)));
    return new ByteRange(from, to, from < size && from <= to);
  }

  /** Bytes {@code from} to {@code to} of an object, inclusive; unsatisfiable when it holds none of them. */
  static final class ByteRange {
    final long from;
    final long to;
    final boolean satisfiable;

    ByteRange(long from, long to, boolean satisfiable) {
      this.from = from;
      this.to = to;
      this.satisfiable = satisfiable;
    }

    long length() {
      return to - from + 1;
    }

    /** The {@code Content-Range} of the answer: the range sent, or {@code *} when unsatisfiable. */
    String contentRange(long size) {
      return satisfiable ? "bytes " + from + "-" + to + "/" + size : "bytes */" + size;
    }
  }

  /** Waits out {@link Faults#storageLatency}, as a storage request does before it is answered. */
  static void awaitLatency(DeltaSharingServer server) {
    Duration latency = server.faults().storageLatency();
    if (!latency.isZero()) {
      sleep(latency);
    }
  }

  static void send(DeltaSharingServer server, HttpExchange exchange, Path file, String heldAs, long from,
      long length) throws IOException {
    try {
      server.faults().awaitHeld(heldAs); // the answer has begun, its body waits
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    Duration delay = server.faults().storageDelayPerChunk();
    try (SeekableByteChannel channel = Files.newByteChannel(file);
        InputStream in = Channels.newInputStream(channel.position(from));
        OutputStream out = exchange.getResponseBody()) {
      byte[] buf = new byte[CHUNK];
      long left = length;
      while (left > 0) {
        if (!delay.isZero()) {
          sleep(delay);
        }
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          break;
        }
        out.write(buf, 0, n);
        left -= n;
      }
    }
  }

  static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
