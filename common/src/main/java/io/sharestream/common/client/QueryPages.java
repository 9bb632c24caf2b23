package io.sharestream.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.TableNotFoundException;
import io.sharestream.common.profile.TableRef;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Opens the pages of a {@code POST .../query} answer, which the server may compute asynchronously (protocol "Get
 * Query Info"). The query announces {@code asyncquery=true} with an idempotency key, the same on every resubmission
 * of this query. An answer {@code {"queryStatus":{"queryId":..,"status":"pending"}}} is polled at
 * {@code POST .../queries/{queryId}} with backoff (doubling from the retry settings' first wait to at most 10 s, never
 * less than {@code Retry-After}) until the files come or the retry settings' overall time runs out; later pages are
 * asked of the same endpoint. A {@code failed} status is an error naming the table and the server's message; a
 * closed client or an interrupted thread stops the polling at once.
 *
 * <p>A pending answer from a server that does not advertise {@code asyncquery} in its capabilities (the open-source
 * reference server's stand-in, whose results ignore the query's version and the client's reader features) makes the
 * client send its queries synchronously from then on, starting with this one.
 */
final class QueryPages implements ServerListing.PageOpener {
  private static final Duration LONGEST_POLL_WAIT = Duration.ofSeconds(10);
  /** A status line is short; a first line longer than this is the protocol line of an answer. */
  private static final int STATUS_LINE_LIMIT = 64 * 1024;

  private final DeltaSharingClient client;
  private final TableRef table;
  private final QueryRequest request;
  private final String what;
  private String idempotencyKey = UUID.randomUUID().toString();
  private String queryId;
  private long pendingSince;

  QueryPages(DeltaSharingClient client, TableRef table, QueryRequest request, String what) {
    this.client = client;
    this.table = table;
    this.request = request;
    this.what = what;
  }

  @Override
  public Answer open(String pageToken) throws IOException {
    boolean announced = queryId != null || client.asyncQueries();
    Answer r = queryId != null ? poll(pageToken) : submit(pageToken, announced);
    for (int polls = 0; ; polls++) {
      FirstLine first = FirstLine.read(r);
      JsonNode status = first.queryStatus();
      if (status == null) {
        return checkVersion(first.response());
      }
      first.response().body().close();
      String id = status.path("queryId").asText("");
      if (id.isEmpty()) {
        throw Errors.protocol(what, "a queryStatus line without a queryId");
      }
      if ("failed".equalsIgnoreCase(status.path("status").asText(""))) {
        throw Errors.asyncQueryFailed(what, id, status);
      }
      if (queryId == null) {
        if (!announced) {
          throw Errors.protocol(what, "the server answered asynchronously a query that did not announce asyncquery");
        }
        if (!advertisesAsync(r)) {
          client.stopAsyncQueries(what);
          announced = false;
          r = submit(pageToken, false);
          continue;
        }
        queryId = id;
        pendingSince = System.nanoTime();
      } else if (!queryId.equals(id)) {
        throw Errors.protocol(what, "the asynchronous query " + queryId + " was answered as query " + id);
      }
      waitBeforePoll(polls, Http.retryAfter(r));
      r = poll(pageToken);
    }
  }

  private Answer submit(String pageToken, boolean async) throws IOException {
    return client.send("POST", DeltaSharingClient.tablePath(table) + "/query", Collections.<String, String>emptyMap(),
        request.body(pageToken, async ? idempotencyKey : null), what, async ? AnswerKind.ASYNC_FILES : AnswerKind.FILES);
  }

  /** Asks the server for the query's state or its page {@code pageToken}; a forgotten query is submitted again. */
  private Answer poll(String pageToken) throws IOException {
    client.checkOpen();
    com.fasterxml.jackson.databind.node.ObjectNode body = DeltaSharingClient.JSON.createObjectNode();
    if (request.maxFiles() != null) {
      body.put("maxFiles", request.maxFiles());
    }
    if (pageToken != null) {
      body.put("pageToken", pageToken);
    }
    try {
      return client.send("POST", DeltaSharingClient.tablePath(table) + "/queries/" + Http.segment(queryId), Collections.<String, String>emptyMap(),
          body.toString(), what, AnswerKind.ASYNC_FILES);
    } catch (TableNotFoundException e) {
      String lost = queryId;
      queryId = null;
      idempotencyKey = UUID.randomUUID().toString();
      throw new TransientFailure("the server no longer knows asynchronous query " + lost + "; submitting it again",
          null, e);
    }
  }

  private void waitBeforePoll(int polls, Duration retryAfter) {
    RetrySettings retry = client.settings().retry();
    Duration longest = retry.maxBackoff().compareTo(LONGEST_POLL_WAIT) < 0 ? retry.maxBackoff() : LONGEST_POLL_WAIT;
    long base = retry.initialBackoff().toMillis() << Math.min(polls, 20);
    Duration wait = Duration.ofMillis(Math.min(base, longest.toMillis()));
    if (retryAfter != null && retryAfter.compareTo(wait) > 0) {
      wait = retryAfter;
    }
    Duration waited = Duration.ofNanos(System.nanoTime() - pendingSince);
    if (waited.plus(wait).compareTo(retry.maxTotal()) > 0) {
      throw Errors.asyncQueryTimedOut(what, queryId, waited);
    }
    try {
      client.settings().sleeper().sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancelledException("Interrupted while waiting for the server's asynchronous query for " + what);
    }
    client.checkOpen();
  }

  /** A snapshot asked at a version must be answered at that version. */
  private Answer checkVersion(Answer r) throws IOException {
    Long asked = request.version();
    Long answered = DeltaSharingClient.versionHeader(r, what);
    if (asked != null && answered != null && !asked.equals(answered)) {
      r.body().close();
      throw Errors.protocol(what, "the snapshot of version " + asked + " was answered for version " + answered);
    }
    return r;
  }

  private static boolean advertisesAsync(Answer r) {
    String caps = r.header("delta-sharing-capabilities", "");
    return caps.replace(" ", "").toLowerCase(Locale.ROOT).contains("asyncquery=true");
  }

  /** An answer whose first line was looked at: a {@code queryStatus} line, or the answer untouched. */
  private static final class FirstLine {
    private final Answer response;
    private final JsonNode queryStatus;

    private FirstLine(Answer response, JsonNode queryStatus) {
      this.response = response;
      this.queryStatus = queryStatus;
    }

    static FirstLine read(Answer r) throws IOException {
      BufferedInputStream in = new BufferedInputStream(r.body(), STATUS_LINE_LIMIT + 1);
      in.mark(STATUS_LINE_LIMIT + 1);
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int b = in.read(); b != -1 && line.size() < STATUS_LINE_LIMIT; b = in.read()) {
        if (b == '\n') {
          if (new String(line.toByteArray(), StandardCharsets.UTF_8).trim().isEmpty()) {
            line.reset();
            continue;
          }
          break;
        }
        line.write(b);
      }
      in.reset();
      Answer rewound = r.withBody(in);
      String text = new String(line.toByteArray(), StandardCharsets.UTF_8);
      if (!text.contains("\"queryStatus\"")) {
        return new FirstLine(rewound, null);
      }
      JsonNode n;
      try {
        n = DeltaSharingClient.JSON.readTree(text);
      } catch (IOException e) {
        in.close();
        throw new TransientFailure("the query status line is not JSON (truncated?)", null, e);
      }
      JsonNode status = n == null ? null : n.get("queryStatus");
      return new FirstLine(rewound, status != null && status.isObject() ? status : null);
    }

    Answer response() {
      return response;
    }

    JsonNode queryStatus() {
      return queryStatus;
    }
  }
}
