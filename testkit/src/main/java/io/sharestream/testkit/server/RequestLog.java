package io.sharestream.testkit.server;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the server was asked, for tests that assert on client behaviour (retries, paging, refreshes). Keeps counts
 * per endpoint and the most recent {@value #KEEP} requests. Storage entries omit the URL's query (its signature);
 * object store entries keep theirs without its {@code X-Amz-} parameters (signature, credential, session token).
 */
public final class RequestLog {
  static final int KEEP = 10_000;

  /** One request and the status it was answered with. */
  public static final class Entry {
    public final Endpoint endpoint;
    public final String method;
    public final String path;
    public final String query;
    public final String capabilities;
    public final String userAgent;
    public final String range;
    public volatile int status;
    /** A query's idempotency key ({@code idempotencyKey} or {@code idempotency_key} of its body), if any. */
    public volatile String idempotencyKey;
    /** The names its body gave the idempotency key under (both, if a client sets the field twice). */
    public volatile java.util.List<String> idempotencyKeyNames = java.util.List.of();
    /** The async query a submission was answered with (pending), or the one a poll asked for. */
    public volatile String queryId;
    /** The access key id an object store request was signed with, once its signature is verified. */
    public volatile String accessKeyId;

    Entry(Endpoint endpoint, String method, String path, String query, String capabilities, String userAgent,
        String range) {
      this.endpoint = endpoint;
      this.method = method;
      this.path = path;
      this.query = query;
      this.capabilities = capabilities;
      this.userAgent = userAgent;
      this.range = range;
    }

    @Override
    public String toString() {
      return method + " " + path + (query == null ? "" : "?" + query) + " -> " + status;
    }
  }

  private final Deque<Entry> recent = new ArrayDeque<>();
  private final Map<Endpoint, Integer> counts = new EnumMap<>(Endpoint.class);

  synchronized Entry add(Entry e) {
    counts.merge(e.endpoint, 1, Integer::sum);
    recent.addLast(e);
    if (recent.size() > KEEP) {
      recent.removeFirst();
    }
    return e;
  }

  /** Requests to {@code endpoint} since start or the last {@link #clear()}. */
  public synchronized int count(Endpoint endpoint) {
    return counts.getOrDefault(endpoint, 0);
  }

  public synchronized List<Entry> entries() {
    return new ArrayList<>(recent);
  }

  public synchronized List<Entry> entries(Endpoint endpoint) {
    return recent.stream().filter(e -> e.endpoint == endpoint).collect(Collectors.toList());
  }

  public synchronized void clear() {
    recent.clear();
    counts.clear();
  }
}
