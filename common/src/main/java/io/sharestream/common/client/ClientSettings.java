package io.sharestream.common.client;

import io.sharestream.common.model.ProtocolInfo;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings of the REST client and file reader: timeouts, retries, the User-Agent, the response formats asked and the
 * Delta reader features the engine reads. Immutable; derive variants with the {@code with...} methods.
 */
public final class ClientSettings {
  /** How long before a bearer token expires a warning is logged, unless set otherwise. */
  public static final Duration DEFAULT_EXPIRY_WARNING = Duration.ofDays(7);
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
  private final Set<String> readerFeatures;
  private final Duration expiryWarning;
  private final NetworkSettings network;
  private final AccessSettings access;

  /** Settings reading the {@link ProtocolInfo#SUPPORTED_READER_FEATURES}. */
  public ClientSettings(Duration connectTimeout, Duration requestTimeout, Duration readTimeout, RetrySettings retry,
      String userAgent, Sleeper sleeper, ResponseFormat responseFormat) {
    this(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, responseFormat,
        ProtocolInfo.SUPPORTED_READER_FEATURES, DEFAULT_EXPIRY_WARNING, NetworkSettings.SYSTEM, AccessSettings.DEFAULT);
  }

  private ClientSettings(Duration connectTimeout, Duration requestTimeout, Duration readTimeout, RetrySettings retry,
      String userAgent, Sleeper sleeper, ResponseFormat responseFormat, Set<String> readerFeatures,
      Duration expiryWarning, NetworkSettings network, AccessSettings access) {
    this.connectTimeout = Objects.requireNonNull(connectTimeout);
    this.requestTimeout = Objects.requireNonNull(requestTimeout);
    this.readTimeout = Objects.requireNonNull(readTimeout);
    this.retry = Objects.requireNonNull(retry);
    this.userAgent = Objects.requireNonNull(userAgent);
    this.sleeper = Objects.requireNonNull(sleeper);
    this.responseFormat = Objects.requireNonNull(responseFormat);
    Set<String> features = new TreeSet<>();
    for (String f : readerFeatures) {
      features.add(f.toLowerCase(Locale.ROOT));
    }
    this.readerFeatures = Collections.unmodifiableSet(features);
    this.expiryWarning = Objects.requireNonNull(expiryWarning);
    this.network = Objects.requireNonNull(network);
    this.access = Objects.requireNonNull(access);
  }

  /** Whether tables are read through URLs or from their directories, and how storage is reached for the latter. */
  public AccessSettings access() {
    return access;
  }

  public ClientSettings withAccess(AccessSettings a) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, responseFormat,
        readerFeatures, expiryWarning, network, a);
  }

  /** Proxies and trusted certificates of every request (the API, OAuth token endpoints, storage). */
  public NetworkSettings network() {
    return network;
  }

  public ClientSettings withNetwork(NetworkSettings n) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, responseFormat,
        readerFeatures, expiryWarning, n, access);
  }

  /** How long before the profile's bearer token expires a warning is logged (zero: never). */
  public Duration expiryWarning() {
    return expiryWarning;
  }

  public ClientSettings withExpiryWarning(Duration ahead) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, responseFormat,
        readerFeatures, ahead, network, access);
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

  /**
   * The Delta reader features the engine reads (lower case, sorted): declared in the {@code delta-sharing-capabilities}
   * header of delta-format requests, and a table (or a version) needing any other is refused naming the feature.
   * Default: {@link ProtocolInfo#SUPPORTED_READER_FEATURES}.
   */
  public Set<String> readerFeatures() {
    return readerFeatures;
  }

  public ClientSettings withRetry(RetrySettings r) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, r, userAgent, sleeper, responseFormat,
        readerFeatures, expiryWarning, network, access);
  }

  public ClientSettings withTimeouts(Duration connect, Duration request, Duration read) {
    return new ClientSettings(connect, request, read, retry, userAgent, sleeper, responseFormat, readerFeatures,
        expiryWarning, network, access);
  }

  public ClientSettings withUserAgent(String ua) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, ua, sleeper, responseFormat,
        readerFeatures, expiryWarning, network, access);
  }

  public ClientSettings withResponseFormat(ResponseFormat f) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, f,
        readerFeatures, expiryWarning, network, access);
  }

  public ClientSettings withSleeper(Sleeper s) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, s, responseFormat,
        readerFeatures, expiryWarning, network, access);
  }

  /**
   * These settings reading {@code features} (any case) instead
   * of the current ones. The engine must read what it declares: the server may then send tables needing them.
   */
  public ClientSettings withReaderFeatures(Set<String> features) {
    return new ClientSettings(connectTimeout, requestTimeout, readTimeout, retry, userAgent, sleeper, responseFormat,
        Objects.requireNonNull(features), expiryWarning, network, access);
  }
}
