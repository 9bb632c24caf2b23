package io.sharestream.common.client;

import io.sharestream.common.errors.InvalidSettingException;
import java.time.Duration;

/**
 * How transient failures (429, 5xx, connection resets, truncated bodies, timeouts) are retried: up to
 * {@code maxAttempts} attempts in all, waiting {@code initialBackoff} doubling up to {@code maxBackoff}, with
 * jitter, never less than a server's {@code Retry-After}, and giving up once {@code maxTotal} would be exceeded.
 */
public final class RetrySettings {
  /** 5 attempts, 1 s doubling to 30 s, 10 minutes in all. */
  public static final RetrySettings DEFAULT = new RetrySettings(5, Duration.ofSeconds(1), Duration.ofSeconds(30),
      Duration.ofMinutes(10));

  private final int maxAttempts;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Duration maxTotal;

  public RetrySettings(int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration maxTotal) {
    if (maxAttempts < 1) {
      throw new InvalidSettingException("retry attempts must be at least 1, not " + maxAttempts);
    }
    if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0 || maxTotal.isNegative()) {
      throw new InvalidSettingException("retry backoff must satisfy 0 <= initial <= max and total >= 0");
    }
    this.maxAttempts = maxAttempts;
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.maxTotal = maxTotal;
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration initialBackoff() {
    return initialBackoff;
  }

  public Duration maxBackoff() {
    return maxBackoff;
  }

  public Duration maxTotal() {
    return maxTotal;
  }

  @Override
  public String toString() {
    return "RetrySettings{maxAttempts=" + maxAttempts + ", initialBackoff=" + initialBackoff + ", maxBackoff="
        + maxBackoff + ", maxTotal=" + maxTotal + "}";
  }
}
