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

/**
 * The body of a file download, shared by the kit's storage endpoints (pre-signed URLs and the object store): after
 * any hold on the file ({@link Faults#holdDownloads}), {@code length} bytes from {@code from}, slowed by
 * {@link Faults#slowStorage}.
 */
final class FileBodies {
  private static final int CHUNK = 64 * 1024;

  private FileBodies() {}

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
