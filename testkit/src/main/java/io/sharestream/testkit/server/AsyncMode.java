package io.sharestream.testkit.server;

import java.time.Duration;

/**
 * When a shared table's {@code POST .../query} is answered asynchronously, as Databricks answers shared views and
 * large queries: only to a client announcing {@code delta-sharing-capabilities: asyncquery=true}, with a pending
 * {@code queryStatus} line whose {@code queryId} the client polls at {@code .../queries/{queryId}}. Immutable; set per
 * table with {@link DeltaSharingServer.Builder#async} or, while the server runs, {@link DeltaSharingServer#async} or
 * {@link SharedTable#asyncMode(AsyncMode)}. Tables default to {@link #NEVER}, views to {@link #ALWAYS}.
 */
public final class AsyncMode {
  /** The kinds of mode. */
  public enum Kind {
    /** Always synchronous. */
    NEVER,
    /** Always asynchronous; the first {@link #pendingPolls} polls answer pending. */
    ALWAYS,
    /** Asynchronous when the answer would list more than {@link #maxFiles} file lines (before hints and paging). */
    OVER_FILES,
    /** The query takes {@link #duration}: a synchronous answer waits that long, an async one is pending until that
     *  long after its submission. */
    SLOWER_THAN
  }

  public static final AsyncMode NEVER = new AsyncMode(Kind.NEVER, 0, Duration.ZERO, 2, null);
  public static final AsyncMode ALWAYS = new AsyncMode(Kind.ALWAYS, 0, Duration.ZERO, 2, null);

  public final Kind kind;
  /** {@link Kind#OVER_FILES}' threshold. */
  public final long maxFiles;
  /** {@link Kind#SLOWER_THAN}'s query time. */
  public final Duration duration;
  /** How many polls answer pending before the answer ({@link Kind#ALWAYS}, {@link Kind#OVER_FILES}; default 2). */
  public final int pendingPolls;
  /** The {@code Retry-After} of pending answers, or null (default) for none. */
  public final Integer retryAfterSeconds;

  private AsyncMode(Kind kind, long maxFiles, Duration duration, int pendingPolls, Integer retryAfterSeconds) {
    this.kind = kind;
    this.maxFiles = maxFiles;
    this.duration = duration;
    this.pendingPolls = pendingPolls;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Asynchronous when the answer would list more than {@code n} file lines. */
  public static AsyncMode overFiles(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("the file threshold cannot be negative: " + n);
    }
    return new AsyncMode(Kind.OVER_FILES, n, Duration.ZERO, 2, null);
  }

  /** Queries take {@code d}: asynchronous ones are pending until {@code d} after submission, others wait it. */
  public static AsyncMode slowerThan(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("the query time cannot be negative: " + d);
    }
    return new AsyncMode(Kind.SLOWER_THAN, 0, d, 2, null);
  }

  /** This mode with the first {@code polls} polls of each query answering pending. */
  public AsyncMode pendingPolls(int polls) {
    if (polls < 0) {
      throw new IllegalArgumentException("pendingPolls cannot be negative: " + polls);
    }
    return new AsyncMode(kind, maxFiles, duration, polls, retryAfterSeconds);
  }

  /** This mode with pending answers carrying {@code Retry-After: seconds}. */
  public AsyncMode retryAfterSeconds(int seconds) {
    if (seconds < 0) {
      throw new IllegalArgumentException("Retry-After cannot be negative: " + seconds);
    }
    return new AsyncMode(kind, maxFiles, duration, pendingPolls, seconds);
  }

  @Override
  public String toString() {
    String arg = kind == Kind.OVER_FILES ? "(" + maxFiles + ")" : kind == Kind.SLOWER_THAN ? "(" + duration + ")" : "";
    return kind + arg + ", pendingPolls=" + pendingPolls
        + (retryAfterSeconds == null ? "" : ", Retry-After=" + retryAfterSeconds);
  }
}
