package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sharestream.testkit.storage.Mount;
import io.sharestream.testkit.storage.SessionCredentials;
import io.sharestream.testkit.storage.SigV4Verifier;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@link ObjectStore}'s files through Google Cloud Storage's JSON API ({@code /storage/v1/b/kit/o}), for tables
 * {@linkplain SharedTable#storedInGcs stored in GCS}: objects.list ({@code prefix}, {@code startOffset},
 * {@code pageToken}, {@code maxResults}; names in byte order, sizes as strings, {@code updated} in RFC 3339) and
 * objects.get with {@code alt=media} (a single {@code Range}: 206). Each request needs {@code Authorization: Bearer}
 * with an OAuth token the server vended ({@code ya29.<id>.<secret>}): none, an unknown or expired one is 401, a key
 * outside its location 403, as GCS answers. Logged and faulted as {@link Endpoint#OBJECT_STORE}.
 */
final class GcsHandler implements HttpHandler {
  static final String PATH = "/storage/v1/b/";
  private static final Pattern BEARER = Pattern.compile("Bearer ya29\\.([A-Z2-7]+)\\.(\\S+)");
  private static final int PAGE = 1000;

  private final DeltaSharingServer server;

  GcsHandler(DeltaSharingServer server) {
    this.server = server;
  }

  /** The token a client sends for {@code c}: {@code ya29.<access key id>.<secret>}. */
  static String token(SessionCredentials c) {
    return "ya29." + c.accessKeyId() + "." + c.secretAccessKey();
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String rawPath = exchange.getRequestURI().getRawPath();
    String range = exchange.getRequestHeaders().getFirst("Range");
    RequestLog.Entry entry = server.requests().add(new RequestLog.Entry(Endpoint.OBJECT_STORE,
        exchange.getRequestMethod(), rawPath, exchange.getRequestURI().getRawQuery(), null,
        exchange.getRequestHeaders().getFirst("User-Agent"), range));
    try {
      serve(exchange, entry, rawPath, range);
    } catch (GcsError e) {
      entry.status = e.status;
      send(exchange, e.status, error(e.status, e.getMessage()));
    } catch (IOException e) {
      entry.status = -1;
      throw e;
    } finally {
      exchange.close();
    }
  }

  private void serve(HttpExchange exchange, RequestLog.Entry entry, String rawPath, String range)
      throws IOException {
    FileBodies.awaitLatency(server);
    String rest = rawPath.substring(PATH.length()); // <bucket>/o[/<object>]
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String objects = slash < 0 ? "" : rest.substring(slash + 1);
    String key = objects.startsWith("o/") ? Request.percentDecode(objects.substring(2)) : null;
    SharedTable table = key == null ? null : server.objectStore().tableOf(key);
    Faults.Rule fault = server.faults().claim(Endpoint.OBJECT_STORE, table == null ? null : table.name);
    if (fault != null && fault.kind == Faults.Kind.DELAY) {
      FileBodies.sleep(fault.delay);
    } else if (fault != null && fault.kind == Faults.Kind.STATUS) {
      throw new GcsError(fault.status, fault.message != null ? fault.message : "injected failure");
    }
    SessionCredentials c = authorize(exchange.getRequestHeaders().getFirst("Authorization"));
    entry.accessKeyId = c.accessKeyId();
    if (!exchange.getRequestMethod().equals("GET") || !bucket.equals(ObjectStore.BUCKET)
        || !(objects.equals("o") || key != null)) {
      throw new GcsError(404, "Not Found");
    }
    List<String[]> query = SigV4Verifier.parseQuery(exchange.getRequestURI().getRawQuery());
    if (key == null) {
      list(exchange, entry, c, query);
    } else if ("media".equals(param(query, "alt"))) {
      media(exchange, entry, c, key, range);
    } else {
      throw new GcsError(400, "This store serves objects with alt=media only");
    }
  }

  private SessionCredentials authorize(String authorization) {
    Matcher m = authorization == null ? null : BEARER.matcher(authorization);
    SessionCredentials c = m != null && m.matches() ? server.objectStore().vault().find(m.group(1)) : null;
    if (c == null || !c.secretAccessKey().equals(m.group(2))) {
      throw new GcsError(401, "Invalid Credentials");
    }
    if (c.expiredAt(System.currentTimeMillis())) {
      throw new GcsError(401, "Invalid Credentials"); // what GCS says of an expired token too
    }
    return c;
  }

  private void list(HttpExchange exchange, RequestLog.Entry entry, SessionCredentials c, List<String[]> query)
      throws IOException {
    String prefix = param(query, "prefix") == null ? "" : param(query, "prefix");
    if (!c.grants(ObjectStore.BUCKET, prefix)) {
      throw new GcsError(403, "The caller does not have storage.objects.list access to the bucket");
    }
    String from = param(query, "pageToken") != null ? param(query, "pageToken") : param(query, "startOffset");
    int max = param(query, "maxResults") == null ? PAGE : Math.min(PAGE, Integer.parseInt(param(query, "maxResults")));
    Mount mount = server.objectStore().mountOf(prefix);
    List<Mount.Entry> all = mount == null ? List.of() : mount.list(prefix);
    ObjectNode body = Lines.JSON.createObjectNode().put("kind", "storage#objects");
    ArrayNode items = body.putArray("items");
    int n = 0;
    for (Mount.Entry e : all) {
      if (from != null && e.key.compareTo(from) < 0) {
        continue;
      }
      if (n == max) {
        body.put("nextPageToken", e.key);
        break;
      }
      items.addObject().put("kind", "storage#object").put("name", e.key).put("bucket", ObjectStore.BUCKET)
          .put("size", Long.toString(e.size)).put("updated", Instant.ofEpochMilli(e.lastModifiedMillis).toString());
      n++;
    }
    entry.status = 200;
    send(exchange, 200, body.toString().getBytes(StandardCharsets.UTF_8));
  }

  private void media(HttpExchange exchange, RequestLog.Entry entry, SessionCredentials c, String key, String range)
      throws IOException {
    if (!c.grants(ObjectStore.BUCKET, key)) {
      throw new GcsError(403, "The caller does not have storage.objects.get access to the object");
    }
    Mount mount = server.objectStore().mountOf(key);
    Path file = mount == null ? null : mount.file(key);
    if (file == null) {
      throw new GcsError(404, "No such object: " + ObjectStore.BUCKET + "/" + key);
    }
    long size = Files.size(file);
    long from = 0;
    long to = size - 1;
    int status = 200;
    FileBodies.ByteRange r = FileBodies.range(range, size);
    if (r != null) {
      exchange.getResponseHeaders().set("Content-Range", r.contentRange(size));
      if (!r.satisfiable) {
        throw new GcsError(416, "The requested range cannot be satisfied.");
      }
      from = r.from;
      to = r.to;
      status = 206;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    entry.status = status;
    exchange.sendResponseHeaders(status, to - from + 1);
    FileBodies.send(server, exchange, file, key.substring(mount.root.length() + 1), from, to - from + 1);
  }

  private static String param(List<String[]> query, String name) {
    return SigV4Verifier.param(query, name);
  }

  /** GCS's JSON error body. */
  private static byte[] error(int status, String message) {
    ObjectNode body = Lines.JSON.createObjectNode();
    ObjectNode e = body.putObject("error").put("code", status).put("message", message);
    e.putArray("errors").addObject().put("message", message).put("domain", "global")
        .put("reason", status == 401 ? "authError" : status == 403 ? "forbidden" : status == 404 ? "notFound"
            : "backendError");
    return body.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** A refusal as GCS's JSON API words it. */
  private static final class GcsError extends RuntimeException {
    final int status;

    GcsError(int status, String message) {
      super(message);
      this.status = status;
    }
  }
}
