package io.sharestream.common.client;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the REST client and file reader: timeouts, retries, the User-Agent and the response formats asked.
 * Immutable; derive variants with the {@code with...} methods.
 */
public final class ClientSettings {
  /** 30 s to connect, 320 s for a response to start (the reference client's network timeout), 120 s idle body. */
  public static final ClientSettings DEFAULT = new ClientSettings(Duration.ofSeconds(30), Duration.ofSeconds(320),
      Duration.ofSeconds(120), RetrySettings.DEFAULT, "sharestream/0.1", Sleeper.REAL, ResponseFormat.AUTO);

  private final Duration connectTimeout;
  private final Duration requestTimeout;
  private final Duration readTimeout;
  private final RetrySettings retry;
  private final String userAgent;
  private final Sleeper sleeper;
  private final ResponseFormat responseFormat;

  public ClientSettings(Duration connectTimeout, Duration requestTimeout, Duration readTimeout, RetrySettings retry,
      String userAgent, Sleeper sleeper, ResponseFormat responseFormat) {
    this.connectTimeout = Objects.requireNonNull(connectTimeout);
    this.requestTimeout = Objects.requireNonNull(requestTimeout);
    this.readTimeout = Objects.requireNonNull(readTimeout);
    this.retry = Objects.requireNonNull(retry);
    this.userAgent = Objects.requireNonNull(userAgent);
    this.sleeper = Objects.requireNonNull(sleeper);
    this.responseFormat = Objects.requireNonNull(responseFormat);
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** Until a response's status and headers arrive. */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** Longest wait for the next bytes of a body before the read fails (and is retried). */
  public Duration readTimeout() {
    return readTimeout;
  }

  public RetrySettings retry() {
    return retry;
  }

  public String userAgent() {
    return userAgent;
  }

  /** How backoff waits are taken (tests substitute a recorder). */
  public Sleeper sleeper() {
    return sleeper;
  }

  /** The answer formats asked of the server. */
  public ResponseFormat responseFormat() {
    return responseFormat;
  }

  public ClientSettings withRetry(RetrySettings r) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, r, userAgent, sleeper, responseFormat);
  }

  public ClientSettings withTimeouts(Duration connect, Duration request, Duration read) {
    return new ClientSettings(connect, request, read, retry, userAgent, sleeper, responseFormat);
  }

  public ClientSettings withUserAgent(String ua) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, ua, sleeper, responseFormat);
  }

  public ClientSettings withResponseFormat(ResponseFormat f) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, f);
  }

  public ClientSettings withSleeper(Sleeper s) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, s, responseFormat);
  }
}
