package io.sharestream.bench;

import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;

/**
 * The kit's server answering one {@code query} to a client that only drains it: plain HTTP, the NDJSON lines counted
 * as they arrive, nothing parsed or kept. How fast the kit serves a listing, whatever a client does with it: the
 * ceiling of any listing figure measured against the kit.
 */
final class KitListing {
  /** Lines of the answer (protocol, metaData and file lines), its bytes, and seconds to its first file line and end. */
  final long lines;
  final long bytes;
  final double firstFileSeconds;
  final double seconds;

  private KitListing(long lines, long bytes, double firstFileSeconds, double seconds) {
    this.lines = lines;
    this.bytes = bytes;
    this.firstFileSeconds = firstFileSeconds;
    this.seconds = seconds;
  }

  /** File lines (all but the protocol and metaData lines and a final end-of-stream line, if any). */
  long files() {
    return Math.max(0, lines - 2);
  }

  double filesPerSecond() {
    return files() / seconds;
  }

  /** POST {@code .../tables/<table>/query} with {@code body} (e.g. {@code {"version": 1}}), drained. */
  static KitListing drain(DeltaSharingServer server, String share, String schema, String table, String body)
      throws Exception {
    long t0 = System.nanoTime();
    URL url = new URL(server.endpoint() + "/shares/" + share + "/schemas/" + schema + "/tables/" + table + "/query");
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    c.setRequestProperty("Authorization", "Bearer " + server.bearerToken());
    c.setRequestProperty("Content-Type", "application/json; charset=utf-8");
    c.setReadTimeout(600_000);
    try (OutputStream out = c.getOutputStream()) {
      out.write(body.getBytes(StandardCharsets.UTF_8));
    }
    if (c.getResponseCode() != 200) {
      throw new IllegalStateException("query " + body + ": HTTP " + c.getResponseCode());
    }
    long lines = 0;
    long bytes = 0;
    long first = 0;
    byte[] buf = new byte[1 << 16];
    try (InputStream in = c.getInputStream()) {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        bytes += n;
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            lines++;
            if (lines == 3 && first == 0) {
              first = System.nanoTime();
            }
          }
        }
      }
    } finally {
      c.disconnect();
    }
    long end = System.nanoTime();
    return new KitListing(lines, bytes, first == 0 ? -1 : (first - t0) / 1e9, (end - t0) / 1e9);
  }
}
