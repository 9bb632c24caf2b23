package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sharestream.testkit.delta.DeltaLog;
import io.sharestream.testkit.delta.Snapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.NavigableMap;
import java.util.function.Function;

/**
 * The Delta Sharing REST API under the server's prefix: bearer-token auth, fault injection, routing, the list
 * endpoints, table version and the {@code fileidhash} header. Metadata, query and changes are answered by
 * {@link TableResponses}, async queries and their polls by {@link AsyncQueries}, temporary table credentials by
 * {@link CredentialVending}; query and changes of a table without {@link AccessMode#URL} access are refused.
 */
final class ApiHandler implements HttpHandler {
  static final String FILE_ID_HASH = "fileidhash";

  private final DeltaSharingServer server;
  private final TableResponses responses;
  private final AsyncQueries async;
  private final CredentialVending vending;

  ApiHandler(DeltaSharingServer server) {
    this.server = server;
    this.responses = new TableResponses(server);
    this.async = new AsyncQueries(server, responses);
    this.vending = new CredentialVending(server);
  }

  /** The log entry of the request this thread answers: its status is logged before the headers go out. */
  private static final ThreadLocal<RequestLog.Entry> ANSWERING = new ThreadLocal<>();

  /**
   * Logs {@code status} as the answer to the request this thread handles, before its headers are sent: a client may
   * look at the log as soon as it has read the answer.
   */
  static void logStatus(int status) {
    RequestLog.Entry e = ANSWERING.get();
    if (e != null) {
      e.status = status;
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      answer(exchange);
    } finally {
      ANSWERING.remove();
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    Request req = new Request(exchange, server.prefix());
    Endpoint endpoint = route(req);
    RequestLog.Entry entry = server.requests().add(new RequestLog.Entry(endpoint, req.method,
        exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(),
        exchange.getRequestHeaders().getFirst("delta-sharing-capabilities"),
        exchange.getRequestHeaders().getFirst("User-Agent"), null));
    ANSWERING.set(entry);
    if (endpoint == Endpoint.QUERY_STATUS) {
      entry.queryId = req.segments.get(7);
    }
    try {
      if (!server.authorized(exchange.getRequestHeaders().getFirst("Authorization"))) {
        entry.status = 401;
        sendUnauthorized(exchange);
        return;
      }
      if (endpoint == Endpoint.QUERY) { // logged before any fault answers it, so retries can be compared
        entry.idempotencyKey = AsyncQueries.idempotencyKey(req.body());
        entry.idempotencyKeyNames = AsyncQueries.idempotencyKeyNames(req.body());
      }
      long latency = server.faults().apiLatency().toMillis();
      if (latency > 0) {
        sleep(latency);
      }
      String table = req.segments.size() > 5 && req.segments.get(4).equals("tables") ? req.segments.get(5) : null;
      Faults.Rule fault = server.faults().claim(endpoint, table);
      if (fault != null && fault.kind == Faults.Kind.DELAY) {
        sleep(fault.delay.toMillis());
        fault = null;
      }
      if (fault != null && fault.kind == Faults.Kind.STATUS) {
        if (fault.retryAfterSeconds != null) {
          exchange.getResponseHeaders().set("Retry-After", Integer.toString(fault.retryAfterSeconds));
        }
        throw new ProtocolError(fault.status, fault.status == 429 ? "RESOURCE_EXHAUSTED" : ProtocolError.INTERNAL,
            fault.message != null ? fault.message : "injected failure: HTTP " + fault.status);
      }
      entry.status = dispatch(endpoint, req, fault, entry);
    } catch (ProtocolError e) {
      if (exchange.getResponseCode() != -1) {
        throw e;
      }
      entry.status = e.status;
      sendError(exchange, e);
    } catch (RuntimeException e) {
      if (exchange.getResponseCode() != -1) {
        // the body has started (or a fault truncates it): drop the connection so the client sees a cut body,
        // never a clean end without the end marker
        entry.status = exchange.getResponseCode();
        throw e;
      }
      entry.status = 500;
      sendError(exchange, new ProtocolError(500, ProtocolError.INTERNAL, String.valueOf(e.getMessage())));
    }
    exchange.close();
  }

  private static Endpoint route(Request r) {
    List<String> s = r.segments;
    if (s.isEmpty() || !s.get(0).equals("shares")) {
      return Endpoint.UNKNOWN;
    }
    switch (s.size()) {
      case 1: return Endpoint.LIST_SHARES;
      case 2: return Endpoint.GET_SHARE;
      case 3: return s.get(2).equals("schemas") ? Endpoint.LIST_SCHEMAS
          : s.get(2).equals("all-tables") ? Endpoint.LIST_ALL_TABLES : Endpoint.UNKNOWN;
      case 5: return s.get(2).equals("schemas") && s.get(4).equals("tables") ? Endpoint.LIST_TABLES : Endpoint.UNKNOWN;
      case 6: return s.get(2).equals("schemas") && s.get(4).equals("tables") ? Endpoint.VERSION : Endpoint.UNKNOWN;
      case 7:
        if (!s.get(2).equals("schemas") || !s.get(4).equals("tables")) {
          return Endpoint.UNKNOWN;
        }
        switch (s.get(6)) {
          case "version": return Endpoint.VERSION;
          case "metadata": return Endpoint.METADATA;
          case "query": return Endpoint.QUERY;
          case "changes": return Endpoint.CHANGES;
          case "temporary-table-credentials": return Endpoint.TEMPORARY_CREDENTIALS;
          default: return Endpoint.UNKNOWN;
        }
      case 8:
        return s.get(2).equals("schemas") && s.get(4).equals("tables") && s.get(6).equals("queries")
            ? Endpoint.QUERY_STATUS : Endpoint.UNKNOWN;
      default: return Endpoint.UNKNOWN;
    }
  }

  private int dispatch(Endpoint endpoint, Request req, Faults.Rule fault, RequestLog.Entry entry) throws IOException {
    switch (endpoint) {
      case LIST_SHARES:
        requireMethod(req, "GET");
        return page(req, server.tables().shares(), this::shareItem);
      case GET_SHARE: {
        requireMethod(req, "GET");
        ObjectNode body = Lines.JSON.createObjectNode();
        body.set("share", shareItem(share(req)));
        return sendJson(req.exchange, 200, body);
      }
      case LIST_SCHEMAS: {
        requireMethod(req, "GET");
        String share = share(req);
        return page(req, server.tables().schemas(share),
            name -> Lines.JSON.createObjectNode().put("name", name).put("share", share));
      }
      case LIST_TABLES: {
        requireMethod(req, "GET");
        String share = share(req);
        String schema = req.segments.get(3);
        if (server.tables().schemas(share).stream().noneMatch(schema::equalsIgnoreCase)) {
          throw ProtocolError.notFound("[Share/Schema] '" + share + "/" + schema + "' does not exist, "
              + "please contact your share provider for further information.");
        }
        return page(req, server.tables().tables(share, schema), this::tableItem);
      }
      case LIST_ALL_TABLES: {
        requireMethod(req, "GET");
        return page(req, server.tables().tables(share(req), null), this::tableItem);
      }
      case VERSION:
        return version(req);
      case METADATA:
        requireMethod(req, "GET");
        return responses.metadata(req, table(req), fault);
      case QUERY:
        requireMethod(req, "POST");
        echoFileIdHash(req);
        return async.query(req, urlTable(req), fault, entry);
      case QUERY_STATUS:
        requireMethod(req, "POST");
        echoFileIdHash(req);
        return async.poll(req, urlTable(req), fault);
      case CHANGES:
        requireMethod(req, "GET");
        echoFileIdHash(req);
        return responses.changes(req, urlTable(req), fault);
      case TEMPORARY_CREDENTIALS:
        requireMethod(req, "POST");
        return vending.answer(req, table(req));
      default:
        return notFoundAsAWebServer(req.exchange);
    }
  }

  /**
   * Refuses a {@code fileidhash} header other than {@code parquet} or {@code delta} and echoes a valid one, lower-cased
   * (file lines then use its scheme); a server set not to honour the header ignores it.
   */
  private void echoFileIdHash(Request req) {
    if (!server.honourFileIdHash() || req.fileIdHash == null) {
      return;
    }
    if (!req.fileIdHash.equals("parquet") && !req.fileIdHash.equals("delta")) {
      throw ProtocolError.invalid("Invalid value '" + req.fileIdHash + "' of the " + FILE_ID_HASH + " header: "
          + "supported values are parquet and delta.");
    }
    req.exchange.getResponseHeaders().set(FILE_ID_HASH, req.fileIdHash);
  }

  /** A share's name, and its id when configured (the reference server sends none otherwise). */
  private ObjectNode shareItem(String share) {
    ObjectNode n = Lines.JSON.createObjectNode().put("name", share);
    String id = server.tables().shareId(share);
    if (id != null) {
      n.put("id", id);
    }
    return n;
  }

  private ObjectNode tableItem(SharedTable t) {
    ObjectNode n = Lines.JSON.createObjectNode().put("name", t.name).put("schema", t.schema).put("share", t.share);
    String shareId = server.tables().shareId(t.share);
    if (shareId != null) {
      n.put("shareId", shareId);
    }
    n.put("id", t.id);
    ObjectNode access = ObjectStore.accessFields(t);
    if (access != null) {
      n.setAll(access);
    }
    return n;
  }

  private String share(Request req) {
    String share = req.segments.get(1);
    if (!server.tables().hasShare(share)) {
      throw ProtocolError.notFound("share '" + share + "' not found");
    }
    return server.tables().shares().stream().filter(share::equalsIgnoreCase).findFirst().orElse(share);
  }

  private SharedTable table(Request req) {
    List<String> s = req.segments;
    SharedTable t = server.tables().find(s.get(1), s.get(3), s.get(5)).orElseThrow(() -> ProtocolError.notFound(
        "[Share/Schema/Table] '" + s.get(1) + "/" + s.get(3) + "/" + s.get(5) + "' does not exist, "
            + "please contact your share provider for further information."));
    if (t.accessDenied()) {
      throw ProtocolError.permissionDenied("User does not have permission to access table " + t.fullName() + ".");
    }
    return t;
  }

  /**
   * The table of a query, poll or changes request: refused (400 {@code UNSUPPORTED_OPERATION}) when it is shared for
   * directory-based access only, as a protocol server without URL access for it answers a client that ignores
   * {@code accessModes}.
   */
  private SharedTable urlTable(Request req) {
    SharedTable t = table(req);
    if (!t.accessModes().contains(AccessMode.URL)) {
      throw new ProtocolError(400, ProtocolError.UNSUPPORTED, "Table " + t.fullName() + " is shared for "
          + "directory-based access only (accessModes " + CredentialVending.modes(t) + "): its files have no "
          + "pre-signed URLs. Read it from its location (" + t.storageLocation() + ") with credentials from the "
          + "temporary-table-credentials API.");
    }
    return t;
  }

  /**
   * {@code GET .../version} (and the legacy {@code HEAD .../tables/{t}}): the version in a header, no body; a view
   * answers without one.
   */
  private int version(Request req) throws IOException {
    boolean legacy = req.segments.size() == 6;
    requireMethod(req, legacy ? "HEAD" : "GET");
    SharedTable table = table(req);
    if (table.view && server.viewVersionRefused()) {
      throw ProtocolError.invalid(table.fullName() + " is a view: it has no version.");
    }
    if (table.view && req.param("startingTimestamp") == null) {
      TableResponses.log(table);
      logStatus(200);
      req.exchange.sendResponseHeaders(200, -1);
      return 200;
    }
    DeltaLog log = TableResponses.log(table);
    long version = log.latestVersion();
    String ts = req.param("startingTimestamp");
    if (ts != null) {
      TableResponses.requireHistory(table);
      Instant t = TableResponses.parseTimestamp(ts, "startingTimestamp");
      version = server.timestampResolution() == DeltaSharingServer.TimestampResolution.REFERENCE
          ? referenceVersionAt(log, t)
          : TableResponses.firstVersionAtOrAfter(log, t, ProtocolError.MALFORMED);
    }
    req.exchange.getResponseHeaders().set("Delta-Table-Version", Long.toString(version));
    logStatus(200);
    req.exchange.sendResponseHeaders(200, -1);
    return 200;
  }

  /** The reference server's answer: (the version as of {@code t}) + 1; 0 before the first retained commit. */
  private static long referenceVersionAt(DeltaLog log, Instant t) {
    NavigableMap<Long, Long> ts = log.timestamps();
    if (t.toEpochMilli() < ts.firstEntry().getValue()) {
      return 0;
    }
    long next = TableResponses.versionAsOf(log, t, ProtocolError.MALFORMED) + 1;
    if (next > ts.lastKey()) {
      throw ProtocolError.malformed("Cannot load table version " + next + " as it does not exist. Please use a "
          + "timestamp less than the latest commit timestamp.");
    }
    return next;
  }

  private <T> int page(Request req, List<T> items, Function<T, ObjectNode> render) throws IOException {
    Long maxResults = req.longParam("maxResults");
    int pageSize = maxResults == null ? 500 : (int) Math.min(maxResults, 500);
    int start = 0;
    String token = req.param("pageToken");
    if (token != null && !token.isEmpty()) {
      start = Tokens.decode(token, "pageToken").path("offset").asInt(-1);
      if (start < 0 || start > items.size()) {
        throw ProtocolError.invalid("invalid pageToken");
      }
    }
    ObjectNode body = Lines.JSON.createObjectNode();
    ArrayNode arr = body.putArray("items");
    int end = Math.min(items.size(), start + pageSize);
    for (int i = start; i < end; i++) {
      arr.add(render.apply(items.get(i)));
    }
    if (end < items.size()) {
      body.put("nextPageToken", Tokens.encode(Lines.JSON.createObjectNode().put("offset", end)));
    }
    return sendJson(req.exchange, 200, body);
  }

  private static void requireMethod(Request req, String method) {
    if (!req.method.equals(method)) {
      throw new ProtocolError(405, ProtocolError.MALFORMED, req.method + " is not allowed here; use " + method);
    }
  }

  static int sendJson(HttpExchange exchange, int status, ObjectNode body) throws IOException {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    logStatus(status);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
    return status;
  }

  /** The reference server's 401: a plain-text body, not the JSON error form. */
  private static void sendUnauthorized(HttpExchange exchange) throws IOException {
    byte[] bytes = "401 Unauthorized".getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    boolean head = exchange.getRequestMethod().equalsIgnoreCase("HEAD");
    exchange.sendResponseHeaders(401, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
    exchange.close();
  }

  /** A path the protocol does not have: 404 in plain text, as the reference server's web framework answers it. */
  private static int notFoundAsAWebServer(HttpExchange exchange) throws IOException {
    byte[] body = "Status: 404\nDescription: Not Found".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    logStatus(404);
    exchange.sendResponseHeaders(404, body.length);
    try (var out = exchange.getResponseBody()) {
      out.write(body);
    }
    return 404;
  }

  private static void sendError(HttpExchange exchange, ProtocolError e) throws IOException {
    exchange.getResponseHeaders().remove(FILE_ID_HASH); // echoes belong to answers only
    exchange.getResponseHeaders().remove(NdjsonResponse.CAPABILITIES);
    if (exchange.getRequestMethod().equalsIgnoreCase("HEAD")) {
      exchange.sendResponseHeaders(e.status, -1); // a HEAD answer has no body
      return;
    }
    ObjectNode body = Lines.JSON.createObjectNode().put("errorCode", e.errorCode).put("message", e.getMessage());
    sendJson(exchange, e.status, body);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The snapshot at {@code version}; a version that cannot be loaded answers 400 with {@code errorCode}. */
  static Snapshot snapshot(DeltaLog log, long version, String errorCode) {
    try {
      return log.snapshot(version);
    } catch (NoSuchElementException e) {
      throw new ProtocolError(400, errorCode, "Cannot load table version " + version + ": " + e.getMessage());
    }
  }

  /** Protocol and metadata at {@code version} (no files); errors as {@link #snapshot}. */
  static Snapshot tableState(DeltaLog log, long version, String errorCode) {
    try {
      return log.tableState(version);
    } catch (NoSuchElementException e) {
      throw new ProtocolError(400, errorCode, "Cannot load table version " + version + ": " + e.getMessage());
    }
  }
}
