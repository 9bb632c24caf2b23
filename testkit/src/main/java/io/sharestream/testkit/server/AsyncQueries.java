package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import io.sharestream.testkit.delta.DeltaLog;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Databricks' asynchronous queries. {@code POST .../query} from a client announcing {@code asyncquery=true} to a
 * table whose {@link AsyncMode} says so is answered with one pending line {@code {"queryStatus":{"queryId":..,
 * "status":"pending"}}}; the client polls {@code POST .../queries/{queryId}} with {@code {"maxFiles":..,
 * "pageToken":..}} until the answer is the synchronous query's own, at the latest version as of submission, paged by
 * the poll's fields (each falling back to the submission's). A submission needs an idempotency key; a retry with the
 * same key and body (the key aside, paging fields included) gets the same queryId. Queries are forgotten
 * {@link #TTL} after their last use, the least recently used beyond {@value #CAP}.
 */
final class AsyncQueries {
  static final String IDEMPOTENCY_KEY = "idempotencyKey";
  static final String IDEMPOTENCY_KEY_SNAKE = "idempotency_key";
  static final Duration TTL = Duration.ofMinutes(10);
  static final int CAP = 4096;

  /** One submitted query: its table, body (without the key) and the latest version at submission. */
  private static final class Query {
    final String id;
    final SharedTable table;
    final SharedTable.Location location;
    final ObjectNode body;
    final String key;
    final long pinned;
    final AsyncMode mode;
    final long submittedNanos = System.nanoTime();
    long lastUsedNanos = submittedNanos;
    int polls;

    Query(String id, SharedTable table, ObjectNode body, String key, long pinned, AsyncMode mode) {
      this.id = id;
      this.table = table;
      this.location = table.location();
      this.body = body;
      this.key = key;
      this.pinned = pinned;
      this.mode = mode;
    }
  }

  private final DeltaSharingServer server;
  private final TableResponses responses;
  private final SecureRandom random = new SecureRandom();
  /** By queryId, least recently used first. */
  private final LinkedHashMap<String, Query> queries = new LinkedHashMap<>(16, 0.75f, true);
  /** By table id and idempotency key: the last submission with that key. */
  private final Map<String, Query> byKey = new HashMap<>();

  AsyncQueries(DeltaSharingServer server, TableResponses responses) {
    this.server = server;
    this.responses = responses;
  }

  /**
   * {@code POST .../query}: synchronous unless the client announces {@code asyncquery=true} and the table's mode makes
   * this query asynchronous; then its parameters are checked, and it is answered pending.
   */
  int query(Request req, SharedTable table, Faults.Rule fault, RequestLog.Entry entry) throws IOException {
    ObjectNode body = QueryParams.read(req, false);
    if (body.has(IDEMPOTENCY_KEY) && body.has(IDEMPOTENCY_KEY_SNAKE)) {
      // one field under its JSON name and its proto name: a proto3 JSON parser (the reference server's) refuses it
      throw ProtocolError.invalid("Field idempotency_key is set twice (as idempotencyKey and idempotency_key).");
    }
    String key = idempotencyKey(body);
    entry.idempotencyKey = key;
    AsyncMode mode = table.asyncMode();
    if (mode.kind == AsyncMode.Kind.NEVER || !req.capability("asyncquery", "true")) {
      if (mode.kind == AsyncMode.Kind.SLOWER_THAN) {
        sleep(mode.duration);
      }
      return responses.query(req, table, fault, body, null);
    }
    ObjectNode params = body.deepCopy();
    params.remove(List.of(IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_SNAKE));
    QueryParams p = new QueryParams(params);
    if (p.given() > 0) {
      TableResponses.requireHistory(table);
    }
    long pinned = TableResponses.log(table).latestVersion();
    if (mode.kind == AsyncMode.Kind.OVER_FILES && fileLines(table.location().log, p, pinned) <= mode.maxFiles) {
      return responses.query(req, table, fault, body, null);
    }
    if (key == null) {
      throw ProtocolError.invalid("idempotencyKey is required for async query.");
    }
    Query q = submit(table, params, key, pinned, mode);
    entry.queryId = q.id;
    return status(req, fault, q, null, null);
  }

  /**
   * {@code POST .../queries/{queryId}}: the pending line, the failed line of a {@link Faults#queryFails} fault, or the
   * answer; 404 for a query unknown, expired or of another table.
   */
  int poll(Request req, SharedTable table, Faults.Rule fault) throws IOException {
    String id = req.segments.get(7);
    ObjectNode pollBody = QueryParams.read(req, true);
    Query q = find(id, table);
    if (fault != null && fault.kind == Faults.Kind.QUERY_FAILED) {
      return status(req, fault, q, fault.message, fault.errorCode);
    }
    if (pending(q)) {
      return status(req, fault, q, null, null);
    }
    ObjectNode body = q.body.deepCopy();
    for (String paging : List.of("maxFiles", "pageToken")) {
      if (pollBody.hasNonNull(paging)) {
        body.set(paging, pollBody.get(paging));
      }
    }
    if (server.asyncAdvertised()) {
      req.exchange.getResponseHeaders().set(NdjsonResponse.CAPABILITIES, "asyncquery=true");
    }
    return responses.query(req, table, fault, body, q.pinned);
  }

  /** The idempotency key of a query body (either spelling), or null; a body that is not JSON has none. */
  static String idempotencyKey(byte[] body) {
    try {
      com.fasterxml.jackson.databind.JsonNode n = Lines.JSON.readTree(body);
      return n != null && n.isObject() ? idempotencyKey((ObjectNode) n) : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** The names a query body gives its idempotency key under, in {@code idempotencyKey}, {@code idempotency_key} order. */
  static List<String> idempotencyKeyNames(byte[] body) {
    try {
      com.fasterxml.jackson.databind.JsonNode n = Lines.JSON.readTree(body);
      return n == null || !n.isObject() ? List.of() : List.of(IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_SNAKE).stream()
          .filter(n::has).collect(java.util.stream.Collectors.toList());
    } catch (java.io.IOException e) {
      return List.of();
    }
  }

  private static String idempotencyKey(ObjectNode body) {
    for (String field : List.of(IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_SNAKE)) {
      if (body.hasNonNull(field) && !body.get(field).asText().isEmpty()) {
        return body.get(field).asText();
      }
    }
    return null;
  }

  private synchronized Query submit(SharedTable table, ObjectNode params, String key, long pinned, AsyncMode mode) {
    expire();
    String byKeyId = table.id + '\n' + key;
    Query q = byKey.get(byKeyId);
    if (q != null && q.location == table.location() && q.body.equals(params) && queries.get(q.id) == q) {
      q.lastUsedNanos = System.nanoTime();
      return q;
    }
    byte[] id = new byte[16];
    random.nextBytes(id);
    q = new Query(FileUrls.hex(id), table, params, byKeyId, pinned, mode);
    queries.put(q.id, q);
    byKey.put(byKeyId, q);
    expire();
    return q;
  }

  private synchronized Query find(String id, SharedTable table) {
    expire();
    Query q = queries.get(id);
    if (q == null || q.table != table || q.location != table.location()) {
      throw ProtocolError.notFound("Query " + id + " does not exist for table " + table.fullName()
          + " or has expired.");
    }
    q.lastUsedNanos = System.nanoTime();
    return q;
  }

  /** Whether a poll of {@code q} answers pending (counting it among the pending polls). */
  private synchronized boolean pending(Query q) {
    if (q.mode.kind == AsyncMode.Kind.SLOWER_THAN) {
      return System.nanoTime() - q.submittedNanos < q.mode.duration.toNanos();
    }
    if (q.polls < q.mode.pendingPolls) {
      q.polls++;
      return true;
    }
    return false;
  }

  /** Forgets the queries unused for {@link #TTL}, and the least recently used beyond {@value #CAP}. */
  private void expire() {
    long now = System.nanoTime();
    for (Iterator<Query> it = queries.values().iterator(); it.hasNext(); ) {
      Query q = it.next();
      if (queries.size() <= CAP && now - q.lastUsedNanos < TTL.toNanos()) {
        return; // least recently used first: the rest are fresher
      }
      it.remove();
      byKey.remove(q.key, q);
    }
  }

  /**
   * A status line answer ({@code pending}, or {@code failed} with {@code errorMessage} and {@code errorCode} when
   * given), with the async echo.
   */
  private int status(Request req, Faults.Rule fault, Query q, String errorMessage, String errorCode)
      throws IOException {
    Headers headers = req.exchange.getResponseHeaders();
    // the reference server never echoes asyncquery; its stub answers in parquet format
    headers.set(NdjsonResponse.CAPABILITIES, server.asyncAdvertised() ? "asyncquery=true" : "responseformat=parquet");
    if (errorMessage == null && q.mode.retryAfterSeconds != null) {
      headers.set("Retry-After", Integer.toString(q.mode.retryAfterSeconds));
    }
    ObjectNode status = Lines.JSON.createObjectNode().put("queryId", q.id)
        .put("status", errorMessage == null ? "pending" : "failed");
    if (errorMessage != null) {
      status.put("errorMessage", errorMessage);
    }
    if (errorCode != null) {
      status.put("errorCode", errorCode);
    }
    NdjsonResponse out = new NdjsonResponse(req.exchange, fault);
    out.startStatus();
    ObjectNode line = Lines.JSON.createObjectNode();
    line.set("queryStatus", status);
    out.line(line);
    out.finish(Lines.JSON.createObjectNode());
    return 200;
  }

  /**
   * The file lines the answer would list before hints and paging: the snapshot's files, or the data change actions
   * of the range; 0 when they cannot be counted (the synchronous answer then gives the error).
   */
  private static long fileLines(DeltaLog log, QueryParams p, long pinned) {
    try {
      if (p.startingVersion == null) {
        long v = p.version != null ? p.version : p.timestamp != null ? TableResponses.versionAsOf(log,
            TableResponses.parseTimestamp(p.timestamp, "timestamp"), ProtocolError.MALFORMED) : pinned;
        return log.snapshot(v).files().size();
      }
      long end = p.endingVersion == null ? pinned : Math.min(p.endingVersion, pinned);
      long[] count = {0};
      for (long v = p.startingVersion; v <= end; v++) {
        log.forEachAction(v, a -> count[0] += dataChange(a) ? 1 : 0);
      }
      return count[0];
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private static boolean dataChange(DeltaAction a) {
    return a instanceof AddFile ? ((AddFile) a).dataChange : a instanceof RemoveFile && ((RemoveFile) a).dataChange;
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
