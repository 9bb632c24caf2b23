package io.sharestream.testkit.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * Failure injection, switchable per test. Each rule applies to the next {@code times} requests to the given
 * endpoints, in the order rules were added; a request takes at most one rule. Storage slowness and URL lifetime are
 * settings rather than counted rules. Everything resets with {@link #clear()}.
 */
public final class Faults {
  /** What a rule does to the request it takes. */
  enum Kind { STATUS, DELAY, TRUNCATE, PAUSE, END_STREAM_ERROR, DELTA_FORMAT, QUERY_FAILED }

  static final class Rule {
    final Set<Endpoint> targets;
    final Kind kind;
    /** The only table whose requests the rule takes; null: any request to its endpoints. */
    String table;
    int remaining;
    int status;
    Integer retryAfterSeconds;
    int afterLines;
    String message;
    String errorCode;
    Duration delay;
    CountDownLatch reached;
    CountDownLatch release;

    Rule(Set<Endpoint> targets, Kind kind, int times) {
      this.targets = targets;
      this.kind = kind;
      this.remaining = times;
    }
  }

  private final List<Rule> rules = new ArrayList<>();
  private final Map<String, CountDownLatch[]> holds = new ConcurrentHashMap<>();
  private volatile Duration urlTtl;
  private volatile Duration credentialTtl;
  private volatile Duration storageDelayPerChunk = Duration.ZERO;
  private volatile Duration storageLatency = Duration.ZERO;
  private volatile Duration apiLatency = Duration.ZERO;

  /** Answers the next {@code times} requests with 429 and {@code Retry-After: retryAfterSeconds}. */
  public Faults rateLimit(Endpoint target, int times, int retryAfterSeconds) {
    Rule r = add(target, Kind.STATUS, times);
    r.status = 429;
    r.retryAfterSeconds = retryAfterSeconds;
    return this;
  }

  /** Answers the next {@code times} requests with {@code status} (e.g. 500, 503) and a JSON error body. */
  public Faults failWith(Endpoint target, int times, int status) {
    add(target, Kind.STATUS, times).status = status;
    return this;
  }

  /** As {@link #failWith(Endpoint, int, int)}, the error body's message being {@code message}. */
  public Faults failWith(Endpoint target, int times, int status, String message) {
    Rule r = add(target, Kind.STATUS, times);
    r.status = status;
    r.message = message;
    return this;
  }

  /** Waits {@code delay} before answering the next {@code times} requests (a slow server). */
  public Faults delay(Endpoint target, int times, Duration delay) {
    add(target, Kind.DELAY, times).delay = delay;
    return this;
  }

  /**
   * Closes the connection after {@code afterLines} NDJSON lines of the next {@code times} responses: the body ends
   * mid-response with no {@code endStreamAction}.
   */
  public Faults truncate(Endpoint target, int times, int afterLines) {
    add(target, Kind.TRUNCATE, times).afterLines = afterLines;
    return this;
  }

  /** Ends the next {@code times} NDJSON responses with an {@code endStreamAction} carrying {@code message}. */
  public Faults endStreamError(Endpoint target, int times, String message) {
    add(target, Kind.END_STREAM_ERROR, times).message = message;
    return this;
  }

  /**
   * Answers the next {@code times} polls of asynchronous queries ({@link Endpoint#QUERY_STATUS}) of known queries
   * with 200 and the single line {@code {"queryStatus":{"queryId":..,"status":"failed","errorMessage":message}}}.
   */
  public Faults queryFails(int times, String message) {
    add(Endpoint.QUERY_STATUS, Kind.QUERY_FAILED, times).message = message;
    return this;
  }

  /** As {@link #queryFails(int, String)}, the failed status carrying {@code errorCode} too (e.g. a refused request). */
  public Faults queryFails(int times, String errorCode, String message) {
    Rule r = add(Endpoint.QUERY_STATUS, Kind.QUERY_FAILED, times);
    r.errorCode = errorCode;
    r.message = message;
    return this;
  }

  /** Answers the next {@code times} table responses in {@code delta} response format whatever the client asked. */
  public Faults respondInDeltaFormat(Endpoint target, int times) {
    add(target, Kind.DELTA_FORMAT, times);
    return this;
  }

  /**
   * Holds the next response to {@code target} after {@code afterLines} lines (flushed to the client) until
   * {@code release} opens; {@code reached} opens when the server is holding. Lets tests see a body arrive while
   * the server has not produced the rest.
   */
  public Faults pause(Endpoint target, int afterLines, CountDownLatch reached, CountDownLatch release) {
    return pause(target, null, afterLines, reached, release);
  }

  /** As {@link #pause(Endpoint, int, CountDownLatch, CountDownLatch)}, for the next response about {@code table} only. */
  public Faults pause(Endpoint target, String table, int afterLines, CountDownLatch reached,
      CountDownLatch release) {
    Rule r = add(target, Kind.PAUSE, 1);
    r.table = table;
    r.afterLines = afterLines;
    r.reached = reached;
    r.release = release;
    return this;
  }

  /**
   * Holds every download of the data file at {@code path} (its path in the table's log; in the object store, the
   * key's path below the table's root) until {@code release}
   * opens, its answer's status and headers sent but not its body: {@code reached} counts down once per download held.
   * Lets a test stop a reader while it waits for one file and the files after it are already fetched.
   */
  public Faults holdDownloads(String path, CountDownLatch reached, CountDownLatch release) {
    holds.put(path, new CountDownLatch[] {reached, release});
    return this;
  }

  /** Waits while downloads of {@code path} are held (see {@link #holdDownloads}). */
  void awaitHeld(String path) throws InterruptedException {
    CountDownLatch[] hold = holds.get(path);
    if (hold != null) {
      hold[0].countDown();
      hold[1].await();
    }
  }

  /** Pre-signed URLs issued from now on expire after {@code ttl} (null: the server's default). */
  public Faults urlTtl(Duration ttl) {
    this.urlTtl = ttl;
    return this;
  }

  /**
   * Temporary table credentials vended from now on expire after {@code ttl} (null: the server's
   * {@link DeltaSharingServer.Builder#credentialTtl}); the object store refuses their requests after that.
   */
  public Faults credentialTtl(Duration ttl) {
    this.credentialTtl = ttl;
    return this;
  }

  /** Sleeps {@code perChunk} before each 64 KiB chunk of a file download or object store read (slow storage). */
  public Faults slowStorage(Duration perChunk) {
    this.storageDelayPerChunk = perChunk;
    return this;
  }

  /** Waits {@code latency} before answering each file download and object store request (an object store's time to
   *  first byte). */
  public Faults storageLatency(Duration latency) {
    this.storageLatency = latency;
    return this;
  }

  /** Waits {@code latency} before answering each protocol request (a server that far away). */
  public Faults apiLatency(Duration latency) {
    this.apiLatency = latency;
    return this;
  }

  public synchronized void clear() {
    rules.clear();
    holds.values().forEach(h -> h[1].countDown());
    holds.clear();
    urlTtl = null;
    credentialTtl = null;
    storageDelayPerChunk = Duration.ZERO;
    storageLatency = Duration.ZERO;
    apiLatency = Duration.ZERO;
  }

  /** Rules not yet used up. */
  public synchronized int pending() {
    return rules.stream().mapToInt(r -> r.remaining).sum();
  }

  private synchronized Rule add(Endpoint target, Kind kind, int times) {
    if (times < 1) {
      throw new IllegalArgumentException("times must be >= 1");
    }
    Rule r = new Rule(EnumSet.of(target), kind, times);
    rules.add(r);
    return r;
  }

  /** Takes the first rule for {@code endpoint}, if any, counting one use. */
  Rule claim(Endpoint endpoint) {
    return claim(endpoint, null);
  }

  /** Takes the first rule for {@code endpoint} and {@code table} (null: a request about no table), counting one use. */
  synchronized Rule claim(Endpoint endpoint, String table) {
    for (Iterator<Rule> it = rules.iterator(); it.hasNext(); ) {
      Rule r = it.next();
      if (r.targets.contains(endpoint) && (r.table == null || r.table.equals(table))) {
        if (--r.remaining == 0) {
          it.remove();
        }
        return r;
      }
    }
    return null;
  }

  Duration urlTtl() {
    return urlTtl;
  }

  Duration credentialTtl() {
    return credentialTtl;
  }

  Duration apiLatency() {
    return apiLatency;
  }

  Duration storageLatency() {
    return storageLatency;
  }

  Duration storageDelayPerChunk() {
    return storageDelayPerChunk;
  }
}
