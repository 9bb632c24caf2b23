package io.sharestream.testkit.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sharestream.testkit.storage.Mount;
import io.sharestream.testkit.storage.ObjectListing;
import io.sharestream.testkit.storage.S3Error;
import io.sharestream.testkit.storage.SessionCredentials;
import io.sharestream.testkit.storage.SigV4Verifier;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.UUID;

/**
 * Answers the {@link ObjectStore}'s requests ({@code /kit} and {@code /kit/<key>}): logs each as
 * {@link Endpoint#OBJECT_STORE}, applies its faults, verifies its signature and scope, then lists, or serves an
 * object's bytes (a single {@code Range}: 206 with {@code Content-Range}; a range beyond the object: 416
 * {@code InvalidRange}; a malformed or multiple one is ignored, as S3 does).
 */
final class ObjectStoreHandler implements HttpHandler {
  private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

  private final DeltaSharingServer server;

  ObjectStoreHandler(DeltaSharingServer server) {
    this.server = server;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String rawPath = exchange.getRequestURI().getRawPath();
    String rawQuery = exchange.getRequestURI().getRawQuery();
    String range = exchange.getRequestHeaders().getFirst("Range");
    RequestLog.Entry entry = server.requests().add(new RequestLog.Entry(Endpoint.OBJECT_STORE,
        exchange.getRequestMethod(), rawPath, withoutSigning(rawQuery), null,
        exchange.getRequestHeaders().getFirst("User-Agent"), range));
    String requestId = UUID.randomUUID().toString().replace("-", "").substring(0, 16).toUpperCase();
    exchange.getResponseHeaders().set("x-amz-request-id", requestId);
    try {
      serve(exchange, entry, rawPath, rawQuery, range);
    } catch (S3Error e) {
      if (exchange.getResponseCode() != -1) {
        throw e;
      }
      error(exchange, entry, e, requestId);
    } catch (IOException e) {
      entry.status = -1; // client went away mid-download
      throw e;
    } finally {
      exchange.close();
    }
  }

  private void serve(HttpExchange exchange, RequestLog.Entry entry, String rawPath, String rawQuery, String range)
      throws IOException {
    FileBodies.awaitLatency(server);
    String path = rawPath.length() > 1 ? rawPath.substring(1) : "";
    int slash = path.indexOf('/');
    String bucket = slash < 0 ? path : path.substring(0, slash);
    String key = slash < 0 ? "" : decode(path.substring(slash + 1));
    SharedTable table = key.isEmpty() ? null : server.objectStore().tableOf(key);
    Faults.Rule fault = server.faults().claim(Endpoint.OBJECT_STORE, table == null ? null : table.name);
    if (fault != null && fault.kind == Faults.Kind.DELAY) {
      FileBodies.sleep(fault.delay);
    } else if (fault != null && fault.kind == Faults.Kind.STATUS) {
      if (fault.retryAfterSeconds != null) {
        exchange.getResponseHeaders().set("Retry-After", Integer.toString(fault.retryAfterSeconds));
      }
      throw injected(fault);
    }
    String method = exchange.getRequestMethod();
    if (!bucket.equals(ObjectStore.BUCKET)) {
      throw new S3Error(404, "NoSuchBucket", "The specified bucket does not exist").with("BucketName", bucket);
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      throw new S3Error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.")
          .with("Method", method).with("ResourceType", key.isEmpty() ? "BUCKET" : "OBJECT");
    }
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readNBytes(1 << 20);
    }
    SessionCredentials c = server.objectStore().verifier().verify(method, rawPath, rawQuery,
        name -> exchange.getRequestHeaders().get(name), body, System.currentTimeMillis());
    entry.accessKeyId = c.accessKeyId();
    if (key.isEmpty()) {
      list(exchange, entry, c, rawQuery);
    } else {
      object(exchange, entry, c, key, range);
    }
  }

  private void list(HttpExchange exchange, RequestLog.Entry entry, SessionCredentials c, String rawQuery)
      throws IOException {
    List<String[]> query = SigV4Verifier.parseQuery(rawQuery);
    boolean v2 = "2".equals(SigV4Verifier.param(query, "list-type"));
    String prefix = SigV4Verifier.param(query, "prefix");
    if (!exchange.getRequestMethod().equals("GET") || (!v2 && SigV4Verifier.param(query, "prefix") == null)) {
      throw S3Error.accessDenied("Access Denied"); // bucket-level calls (HeadBucket, GetBucketLocation, ...)
    }
    if (!c.grants(ObjectStore.BUCKET, prefix == null ? "" : prefix)) {
      throw S3Error.accessDenied("Access Denied");
    }
    if (!v2) {
      throw new S3Error(501, "NotImplemented", "A header you provided implies functionality that is not "
          + "implemented: this store answers ListObjectsV2 (list-type=2) only.");
    }
    Mount mount = server.objectStore().mountOf(prefix);
    if (mount == null) { // under the credentials' location, but no longer shared
      mount = new Mount(ObjectStore.BUCKET, c.prefix(), Path.of("/nonexistent-" + UUID.randomUUID()));
    }
    byte[] xml = ObjectListing.listV2(mount, query).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    entry.status = 200;
    exchange.sendResponseHeaders(200, xml.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(xml);
    }
  }

  private void object(HttpExchange exchange, RequestLog.Entry entry, SessionCredentials c, String key, String range)
      throws IOException {
    if (!c.grants(ObjectStore.BUCKET, key)) {
      throw S3Error.accessDenied("Access Denied");
    }
    Mount mount = server.objectStore().mountOf(key);
    Path file = mount == null ? null : mount.file(key);
    if (file == null) {
      throw new S3Error(404, "NoSuchKey", "The specified key does not exist.").with("Key", key);
    }
    long size = Files.size(file);
    long modified = Files.getLastModifiedTime(file).toMillis();
    String etag = Mount.etag(file, size, modified);
    com.sun.net.httpserver.Headers h = exchange.getResponseHeaders();
    h.set("ETag", etag);
    h.set("Last-Modified", HTTP_DATE.format(Instant.ofEpochMilli(modified)));
    h.set("Accept-Ranges", "bytes");
    String ifMatch = exchange.getRequestHeaders().getFirst("If-Match");
    if (ifMatch != null && !ifMatch.equals(etag) && !ifMatch.equals("*")) {
      throw new S3Error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
          .with("Condition", "If-Match");
    }
    if (etag.equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
      entry.status = 304;
      exchange.sendResponseHeaders(304, -1);
      return;
    }
    long from = 0;
    long to = size - 1;
    int status = 200;
    FileBodies.ByteRange r = FileBodies.range(range, size);
    if (r != null) {
      h.set("Content-Range", r.contentRange(size));
      if (!r.satisfiable) {
        throw new S3Error(416, "InvalidRange", "The requested range is not satisfiable")
            .with("RangeRequested", range).with("ActualObjectSize", Long.toString(size));
      }
      from = r.from;
      to = r.to;
      status = 206;
    }
    long length = to - from + 1;
    h.set("Content-Type", "application/octet-stream");
    if (exchange.getRequestMethod().equals("HEAD")) {
      h.set("Content-Length", Long.toString(length));
      entry.status = status;
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    entry.status = status;
    exchange.sendResponseHeaders(status, length);
    FileBodies.send(server, exchange, file, key.substring(mount.root.length() + 1), from, length);
  }

  /** An injected failure as S3 words it for its status. */
  private static S3Error injected(Faults.Rule fault) {
    String code;
    switch (fault.status) {
      case 403: code = "AccessDenied"; break;
      case 404: code = "NoSuchKey"; break;
      case 429: case 503: code = "SlowDown"; break;
      case 400: code = "InvalidRequest"; break;
      default: code = "InternalError"; break;
    }
    return new S3Error(fault.status, code, fault.message != null ? fault.message
        : "injected failure: HTTP " + fault.status);
  }

  private static void error(HttpExchange exchange, RequestLog.Entry entry, S3Error e, String requestId)
      throws IOException {
    entry.status = e.status;
    if (exchange.getRequestMethod().equals("HEAD")) { // S3 answers a HEAD's error with its status only
      exchange.sendResponseHeaders(e.status, -1);
      return;
    }
    byte[] xml = e.xml(requestId).getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    exchange.sendResponseHeaders(e.status, xml.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(xml);
    }
  }

  /** The query without its {@code X-Amz-} parameters (signature, credential, session token), for the log. */
  private static String withoutSigning(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (String pair : rawQuery.split("&")) {
      if (!pair.isEmpty() && !pair.regionMatches(true, 0, "X-Amz-", 0, 6)) {
        b.append(b.length() == 0 ? "" : "&").append(pair);
      }
    }
    return b.length() == 0 ? null : b.toString();
  }

  private static String decode(String rawKey) {
    try {
      return Request.percentDecode(rawKey);
    } catch (RuntimeException e) {
      throw new S3Error(400, "InvalidURI", "Couldn't parse the specified URI.");
    }
  }

}
