package io.sharestream.spark;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.NetworkSettings;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.client.TrustSettings;
import io.sharestream.common.errors.InvalidSettingException;
import java.io.Serializable;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.spark.network.util.JavaUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark session confs the source reads (session-wide, not per read): its own {@code spark.sharestream.*} and the
 * reference client's {@code spark.delta.sharing.*} that shape a stream or its requests, with the reference's meaning,
 * so that a session configured for delta-sharing-spark behaves the same. Each is read when a query resolves the
 * table; a bad value fails naming the conf. Reference confs about things this source does differently are listed in
 * {@link #NOT_APPLIED}: setting one logs once that it has no effect.
 */
final class SessionConfs implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SessionConfs.class);

  // conf names; what each means is in CONFS
  static final String VERSION_POLL_INTERVAL_MS = "spark.sharestream.versionPollIntervalMs";
  static final String EXPIRY_WARNING_DAYS = "spark.sharestream.credentialsExpiryWarningDays";
  static final long VERSION_POLL_INTERVAL_DEFAULT_MS = 1000;
  static final String QUERY_TABLE_VERSION_INTERVAL = "spark.delta.sharing.streaming.queryTableVersionIntervalSeconds";
  private static final long MIN_QUERY_TABLE_VERSION_INTERVAL_SECONDS = 10;
  static final String NUM_RETRIES = "spark.delta.sharing.network.numRetries";
  static final String MAX_RETRY_DURATION = "spark.delta.sharing.network.maxRetryDuration";
  static final String TIMEOUT = "spark.delta.sharing.network.timeout";
  static final String JSON_PREDICATE_HINTS = "spark.delta.sharing.jsonPredicateHints.enabled";
  static final String LIMIT_PUSHDOWN = "spark.delta.sharing.limitPushdown.enabled";
  static final String QUERY_PAGINATION = "spark.delta.sharing.queryPagination.enabled";
  static final String MAX_FILES_PER_QUERY_REQUEST = "spark.delta.sharing.maxFilesPerQueryRequest";
  static final String PROXY_HOST = "spark.delta.sharing.network.proxyHost";
  static final String PROXY_PORT = "spark.delta.sharing.network.proxyPort";
  static final String NO_PROXY_HOSTS = "spark.delta.sharing.network.noProxyHosts";
  static final String SSL_TRUST_ALL = "spark.delta.sharing.network.sslTrustAll";
  private static final int MAX_FILES_PER_QUERY_REQUEST_DEFAULT = 100_000;

  /** Every conf read, with its default and meaning (the reference client's where it has the conf). */
  static final List<DeltaSharingOptions.Doc> CONFS = Arrays.asList(
      new DeltaSharingOptions.Doc(VERSION_POLL_INTERVAL_MS, String.valueOf(VERSION_POLL_INTERVAL_DEFAULT_MS),
          "How often, at most, a stream asks the server for the table's latest version, in milliseconds (a default "
          + "trigger polls for new data continuously). Takes precedence over " + QUERY_TABLE_VERSION_INTERVAL + "."),
      new DeltaSharingOptions.Doc(EXPIRY_WARNING_DAYS, "7", "How many days before the profile's bearer token "
          + "expires (its expirationTime) the driver logs a warning, once an hour; a stream's progress reports the "
          + "seconds left as credentialsExpireInSeconds. 0: no warning."),
      new DeltaSharingOptions.Doc(QUERY_TABLE_VERSION_INTERVAL, "unset (the reference: 30s)", "The reference's "
          + "version poll interval, a time string (30s, 1m; a bare number is seconds), at least "
          + MIN_QUERY_TABLE_VERSION_INTERVAL_SECONDS + " seconds as in the reference. Used when "
          + VERSION_POLL_INTERVAL_MS + " is not set."),
      new DeltaSharingOptions.Doc(NUM_RETRIES, "4 (the reference: 10)", "Retries of a failed request (429, 5xx, "
          + "resets, timeouts, truncated bodies) after the first attempt."),
      new DeltaSharingOptions.Doc(MAX_RETRY_DURATION, "600000 (10 minutes)", "Longest time spent retrying one "
          + "request, in milliseconds."),
      new DeltaSharingOptions.Doc(TIMEOUT, "30s to connect, 320s for a response, 120s idle in a body", "Connect, "
          + "response and idle-read timeout of every request, a time string; set, it is all three, as in the "
          + "reference."),
      new DeltaSharingOptions.Doc(JSON_PREDICATE_HINTS, "true", "false: no jsonPredicateHints are sent (Spark "
          + "still applies every filter)."),
      new DeltaSharingOptions.Doc(LIMIT_PUSHDOWN, "true", "false: no limitHint is sent for a LIMIT (Spark still "
          + "applies it)."),
      new DeltaSharingOptions.Doc(QUERY_PAGINATION, "false", "true: query and changes requests are paged by "
          + MAX_FILES_PER_QUERY_REQUEST + " files, unless the read sets maxFilesPerRpc."),
      new DeltaSharingOptions.Doc(MAX_FILES_PER_QUERY_REQUEST, String.valueOf(MAX_FILES_PER_QUERY_REQUEST_DEFAULT),
          "The page size of paged requests."),
      new DeltaSharingOptions.Doc(PROXY_HOST, "unset (the JVM's https.proxyHost)", "The forward proxy of every "
          + "read in the session (a read's proxyHost option wins), as in the reference: the API, OAuth token "
          + "endpoints and storage go through it."),
      new DeltaSharingOptions.Doc(PROXY_PORT, "80", "Its port."),
      new DeltaSharingOptions.Doc(NO_PROXY_HOSTS, "", "Hosts reached directly, comma-separated (a read's "
          + "noProxyHosts option wins)."),
      new DeltaSharingOptions.Doc(SSL_TRUST_ALL, "false", "true: server certificates are not checked (host names "
          + "still are), as in the reference; each query start logs a warning. For test servers only: prefer a "
          + "read's sslTrustStore option."));

  /** Reference confs with no effect here: the source has its own client (its connection pool sized by itself),
   *  reads profiles itself and always asks for the end-of-stream marker it checks listings by. */
  static final List<String> NOT_APPLIED = Arrays.asList("spark.delta.sharing.network.maxConnections",
      "spark.delta.sharing.network.never.use.https", "spark.delta.sharing.network.useAsyncQuery",
      "spark.delta.sharing.client.class", "spark.delta.sharing.profile.provider.class",
      "spark.delta.sharing.query.includeEndStreamAction", "spark.delta.sharing.jsonPredicateV2Hints.enabled");
  private static final java.util.Set<String> WARNED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final java.time.ZoneId timeZone;
  private final long versionPollIntervalMs;
  private final Integer numRetries;
  private final long maxRetryDurationMs;
  private final Long timeoutMs;
  private final boolean predicateHints;
  private final boolean limitHints;
  private final Integer filesPerRequest;
  private final long expiryWarningDays;
  private final NetworkSettings network;

  private SessionConfs(Function<String, String> conf, java.time.ZoneId timeZone) {
    this.timeZone = timeZone;
    String reference = conf.apply(QUERY_TABLE_VERSION_INTERVAL);
    long pollMs = VERSION_POLL_INTERVAL_DEFAULT_MS;
    if (reference != null) {
      pollMs = millis(QUERY_TABLE_VERSION_INTERVAL, reference);
      if (pollMs < TimeUnit.SECONDS.toMillis(MIN_QUERY_TABLE_VERSION_INTERVAL_SECONDS)) {
        throw new InvalidSettingException(QUERY_TABLE_VERSION_INTERVAL + " must not be less than "
            + MIN_QUERY_TABLE_VERSION_INTERVAL_SECONDS + " seconds (it is '" + reference + "'); for faster polls set "
            + VERSION_POLL_INTERVAL_MS + " (milliseconds).");
      }
    }
    String own = conf.apply(VERSION_POLL_INTERVAL_MS);
    this.versionPollIntervalMs = own == null ? pollMs : nonNegative(VERSION_POLL_INTERVAL_MS, own);
    String retries = conf.apply(NUM_RETRIES);
    this.numRetries = retries == null ? null : Math.toIntExact(Math.min(nonNegative(NUM_RETRIES, retries), 1000));
    String maxRetry = conf.apply(MAX_RETRY_DURATION);
    this.maxRetryDurationMs = maxRetry == null ? RetrySettings.DEFAULT.maxTotal().toMillis()
        : nonNegative(MAX_RETRY_DURATION, maxRetry);
    String timeout = conf.apply(TIMEOUT);
    this.timeoutMs = timeout == null ? null : millis(TIMEOUT, timeout);
    if (timeoutMs != null && timeoutMs == 0) {
      throw new InvalidSettingException("Spark conf " + TIMEOUT + " must be a positive duration such as 320s, not '"
          + timeout + "'.");
    }
    this.predicateHints = bool(JSON_PREDICATE_HINTS, conf.apply(JSON_PREDICATE_HINTS), true);
    this.limitHints = bool(LIMIT_PUSHDOWN, conf.apply(LIMIT_PUSHDOWN), true);
    String pageSize = conf.apply(MAX_FILES_PER_QUERY_REQUEST);
    int pages = pageSize == null ? MAX_FILES_PER_QUERY_REQUEST_DEFAULT
        : Math.toIntExact(Math.min(Integer.MAX_VALUE, positive(MAX_FILES_PER_QUERY_REQUEST, pageSize)));
    this.filesPerRequest = bool(QUERY_PAGINATION, conf.apply(QUERY_PAGINATION), false) ? pages : null;
    String expiry = conf.apply(EXPIRY_WARNING_DAYS);
    this.expiryWarningDays = expiry == null ? ClientSettings.DEFAULT_EXPIRY_WARNING.toDays()
        : nonNegative(EXPIRY_WARNING_DAYS, expiry);
    NetworkSettings n = NetworkSettings.SYSTEM;
    String proxyHost = conf.apply(PROXY_HOST);
    if (proxyHost != null) {
      String port = conf.apply(PROXY_PORT);
      n = n.withProxy(new NetworkSettings.ProxyAddress(proxyHost, port == null ? 80
          : Math.toIntExact(Math.min(65535, positive(PROXY_PORT, port))), null, null));
    }
    String noProxy = conf.apply(NO_PROXY_HOSTS);
    if (noProxy != null) {
      n = n.withNoProxy(Arrays.asList(noProxy.split(",")));
    }
    if (bool(SSL_TRUST_ALL, conf.apply(SSL_TRUST_ALL), false)) {
      n = n.withTrust(TrustSettings.trustingAll());
    }
    this.network = n;
    TreeSet<String> ignored = new TreeSet<>();
    for (String name : NOT_APPLIED) {
      if (conf.apply(name) != null && WARNED.add(name)) {
        ignored.add(name);
      }
    }
    if (!ignored.isEmpty()) {
      LOG.warn("Spark confs {} of the reference Delta Sharing client have no effect on the deltaSharing source of "
          + "Sharestream", ignored);
    }
  }

  /** The confs as {@code conf} gives them (null: not set), in a session of time zone {@code timeZone}. */
  static SessionConfs of(Function<String, String> conf, java.time.ZoneId timeZone) {
    return new SessionConfs(name -> {
      String v = conf.apply(name);
      return v == null || v.trim().isEmpty() ? null : v.trim();
    }, timeZone);
  }

  /** The confs of the session's SQL conf. */
  static SessionConfs of(org.apache.spark.sql.internal.SQLConf conf) {
    return of(name -> conf.getConfString(name, null), java.time.ZoneId.of(conf.sessionLocalTimeZone()));
  }

  /** The session's time zone ({@code spark.sql.session.timeZone}), of instants written without an offset. */
  java.time.ZoneId timeZone() {
    return timeZone;
  }

  /** The session's proxy and trust (the reference's network confs). */
  NetworkSettings network() {
    return network;
  }

  Duration versionPollInterval() {
    return Duration.ofMillis(versionPollIntervalMs);
  }

  boolean predicateHints() {
    return predicateHints;
  }

  boolean limitHints() {
    return limitHints;
  }

  /** The page size of query and changes requests the session asks for; null: unpaged. */
  Integer filesPerRequest() {
    return filesPerRequest;
  }

  /** {@code base} with the session's timeouts and retries. */
  ClientSettings apply(ClientSettings base) {
    RetrySettings r = base.retry();
    ClientSettings s = base.withRetry(new RetrySettings(numRetries == null ? r.maxAttempts() : numRetries + 1,
        r.initialBackoff(), r.maxBackoff(), Duration.ofMillis(maxRetryDurationMs)))
        .withExpiryWarning(Duration.ofDays(expiryWarningDays));
    if (timeoutMs != null) {
      Duration t = Duration.ofMillis(timeoutMs);
      s = s.withTimeouts(t, t, t);
    }
    return s;
  }

  private static long nonNegative(String name, String v) {
    try {
      long n = Long.parseLong(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new InvalidSettingException("Spark conf " + name + " must be a number >= 0, not '" + v + "'.");
  }

  private static long positive(String name, String v) {
    long n = nonNegative(name, v);
    if (n == 0) {
      throw new InvalidSettingException("Spark conf " + name + " must be a positive number, not '" + v + "'.");
    }
    return n;
  }

  /** A Spark time string ({@code 320s}, {@code 5m}, {@code 500ms}) in milliseconds; a bare number is seconds. */
  private static long millis(String name, String v) {
    try {
      long ms = v.matches("\\d+") ? TimeUnit.SECONDS.toMillis(Long.parseLong(v))
          : JavaUtils.timeStringAs(v, TimeUnit.MILLISECONDS);
      if (ms >= 0) {
        return ms;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new InvalidSettingException("Spark conf " + name + " must be a duration such as 30s or 5m, not '" + v
        + "'.");
  }

  private static boolean bool(String name, String v, boolean unset) {
    if (v == null) {
      return unset;
    }
    switch (v.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new InvalidSettingException("Spark conf " + name + " must be true or false, not '" + v + "'.");
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SessionConfs)) {
      return false;
    }
    SessionConfs c = (SessionConfs) o;
    return timeZone.equals(c.timeZone) && versionPollIntervalMs == c.versionPollIntervalMs && Objects.equals(numRetries, c.numRetries)
        && maxRetryDurationMs == c.maxRetryDurationMs && Objects.equals(timeoutMs, c.timeoutMs)
        && predicateHints == c.predicateHints && limitHints == c.limitHints
        && Objects.equals(filesPerRequest, c.filesPerRequest) && expiryWarningDays == c.expiryWarningDays
        && network.equals(c.network);
  }

  @Override
  public int hashCode() {
    return Objects.hash(timeZone, versionPollIntervalMs, numRetries, maxRetryDurationMs, timeoutMs, predicateHints, limitHints,
        filesPerRequest);
  }
}
