package io.sharestream.testkit.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves data files behind pre-signed URLs like cloud storage does: the signature and expiry are checked (403 when
 * wrong or expired, with no retry hint), {@code Range: bytes=...} gets 206 with {@code Content-Range}, and files are
 * streamed from disk in 64 KiB chunks (optionally slowed down by {@link Faults#slowStorage}).
 */
final class StorageHandler implements HttpHandler {
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

  private final DeltaSharingServer server;

  StorageHandler(DeltaSharingServer server) {
    this.server = server;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String rawPath = exchange.getRequestURI().getRawPath();
    String range = exchange.getRequestHeaders().getFirst("Range");
    RequestLog.Entry entry = server.requests().add(new RequestLog.Entry(Endpoint.STORAGE,
        exchange.getRequestMethod(), rawPath, null, null, exchange.getRequestHeaders().getFirst("User-Agent"), range));
    try {
      serve(exchange, entry, rawPath, range);
    } catch (IOException e) {
      entry.status = -1; // client went away mid-download
      throw e;
    } finally {
      exchange.close();
    }
  }

  private void serve(HttpExchange exchange, RequestLog.Entry entry, String rawPath, String range)
      throws IOException {
    FileBodies.awaitLatency(server);
    Faults.Rule fault = server.faults().claim(Endpoint.STORAGE);
    if (fault != null && fault.kind == Faults.Kind.DELAY) {
      FileBodies.sleep(fault.delay);
    } else if (fault != null && fault.kind == Faults.Kind.STATUS) {
      if (fault.retryAfterSeconds != null) {
        exchange.getResponseHeaders().set("Retry-After", Integer.toString(fault.retryAfterSeconds));
      }
      text(exchange, entry, fault.status, "injected failure: HTTP " + fault.status);
      return;
    }
    // /storage/<tableKey>/<file path as in the log>
    String rest = rawPath.substring("/storage/".length());
    int slash = rest.indexOf('/');
    Params p = Params.parse(exchange.getRequestURI().getRawQuery());
    if (slash < 0 || p.expires == null || p.signature == null) {
      text(exchange, entry, 403, "AccessDenied: missing signature");
      return;
    }
    String tableKey = rest.substring(0, slash);
    String filePath = rest.substring(slash + 1);
    if (!server.urls().verify(tableKey, filePath, p.expires, p.signature)) {
      text(exchange, entry, 403, "SignatureDoesNotMatch");
      return;
    }
    if (System.currentTimeMillis() > p.expires) {
      text(exchange, entry, 403, "AccessDenied: Request has expired");
      return;
    }
    Optional<SharedTable> table = server.tables().byKey(tableKey);
    if (table.isEmpty()) {
      text(exchange, entry, 403, "AccessDenied: the table behind this URL is no longer shared here");
      return;
    }
    Path root = table.get().dir().toAbsolutePath().normalize();
    Path file = table.get().location().log.resolve(filePath).toAbsolutePath().normalize();
    if (!file.startsWith(root) || !Files.isRegularFile(file)) {
      text(exchange, entry, 404, "NoSuchKey");
      return;
    }
    long size = Files.size(file);
    long from = 0;
    long to = size - 1;
    int status = 200;
    if (range != null) {
      Matcher m = RANGE.matcher(range.trim());
      if (!m.matches() || (m.group(1).isEmpty() && m.group(2).isEmpty())) {
        rangeNotSatisfiable(exchange, entry, size);
        return;
      }
      if (m.group(1).isEmpty()) {
        from = Math.max(0, size - Long.parseLong(m.group(2)));
      } else {
        from = Long.parseLong(m.group(1));
        if (!m.group(2).isEmpty()) {
          to = Math.min(to, Long.parseLong(m.group(2)));
        }
      }
      if (from >= size || from > to) {
        rangeNotSatisfiable(exchange, entry, size);
        return;
      }
      status = 206;
      exchange.getResponseHeaders().set("Content-Range", "bytes " + from + "-" + to + "/" + size);
    }
    long length = to - from + 1;
    exchange.getResponseHeaders().set("Accept-Ranges", "bytes");
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    if (exchange.getRequestMethod().equalsIgnoreCase("HEAD")) {
      exchange.getResponseHeaders().set("Content-Length", Long.toString(length));
      sendHeaders(exchange, entry, status, -1);
      return;
    }
    sendHeaders(exchange, entry, status, length);
    FileBodies.send(server, exchange, file, filePath, from, length);
  }

  /** Sends the status line, logged first: a client may look at the log as soon as it has the body. */
  private static void sendHeaders(HttpExchange exchange, RequestLog.Entry entry, int status, long length)
      throws IOException {
    entry.status = status;
    exchange.sendResponseHeaders(status, length);
  }

  private static void rangeNotSatisfiable(HttpExchange exchange, RequestLog.Entry entry, long size)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Range", "bytes */" + size);
    text(exchange, entry, 416, "InvalidRange");
  }

  private static void text(HttpExchange exchange, RequestLog.Entry entry, int status, String message)
      throws IOException {
    byte[] body = message.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    sendHeaders(exchange, entry, status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** The signature parameters of a storage URL. */
  private static final class Params {
    Long expires;
    String signature;

    static Params parse(String rawQuery) {
      Params p = new Params();
      if (rawQuery == null) {
        return p;
      }
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String k = pair.substring(0, eq);
        String v = pair.substring(eq + 1);
        if (k.equals("X-Expires")) {
          try {
            p.expires = Long.parseLong(v);
          } catch (NumberFormatException e) {
            p.expires = null;
          }
        } else if (k.equals("X-Signature")) {
          p.signature = v;
        }
      }
      return p;
    }
  }
}
