package io.sharestream.common.client;

import io.sharestream.common.errors.EndpointUnreachableException.Target;
import io.sharestream.common.errors.Errors;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import org.apache.hc.client5.http.ConnectTimeoutException;

/**
 * A request that never reached its endpoint: connection refused, unknown host, connect timeout, no route, a TLS
 * certificate not trusted, a proxy refusing the tunnel. Retried
 * as any I/O failure; when retries run out {@link Retrier} raises {@link Errors#unreachable} with the URL tried.
 * Its URL is already fit for messages (no query; the host only for storage).
 */
final class Unreachable extends IOException {
  private static final long serialVersionUID = 1L;
  private static final String UNTRUSTED = "its TLS certificate is not trusted";
  private static final String TUNNEL_REFUSED = "the proxy refused to open a tunnel";
  final transient Target target;
  final String url;
  final String reason;
  /** Whether trying again cannot help (a certificate not trusted, a proxy refusing the credentials): not retried. */
  final boolean settled;

  private Unreachable(Target target, String url, String reason, boolean settled, Throwable cause) {
    super("cannot reach " + url + ": " + reason, cause);
    this.target = target;
    this.url = url;
    this.reason = reason;
    this.settled = settled;
  }

  /**
   * {@code e} as an {@link Unreachable} when it is a connect failure of a request to {@code uri}, else {@code e}.
   * {@code connecting}: {@code e} was raised while connecting, so any failure (a socket timeout too) is one.
   */
  static IOException classify(IOException e, Target target, URI uri, Duration connectTimeout, boolean connecting) {
    if (e instanceof Unreachable) {
      return e;
    }
    String reason = reason(e, uri, connectTimeout, connecting);
    if (reason == null) {
      return e;
    }
    String raw = uri.toString();
    return new Unreachable(target, target == Target.STORAGE ? Errors.hostOf(raw) : Errors.safeUrl(raw), reason,
        reason.startsWith(UNTRUSTED) || reason.startsWith(TUNNEL_REFUSED), e);
  }

  /** The proxy answered {@code uri}'s request with HTTP 407: it wants credentials, or refused those given. */
  static Unreachable proxyRefused(Target target, URI uri) {
    String raw = uri.toString();
    return new Unreachable(target, target == Target.STORAGE ? Errors.hostOf(raw) : Errors.safeUrl(raw),
        "the proxy refused the request (HTTP 407 Proxy Authentication Required): set the proxy user and password, "
        + "or check them", true, null);
  }

  private static String reason(IOException e, URI uri, Duration connectTimeout, boolean connecting) {
    String timedOut = "connect timed out after " + connectTimeout.toMillis() + " ms";
    if (e instanceof ConnectTimeoutException) {
      return timedOut;
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return "unknown host " + uri.getHost();
      }
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof javax.net.ssl.SSLHandshakeException || t instanceof javax.net.ssl.SSLPeerUnverifiedException) {
        return UNTRUSTED + ", or does not name " + uri.getHost() + " (" + Errors.redact(
            String.valueOf(t.getMessage())) + "): trust the authority that signed it with the trust setting (a PEM "
            + "or trust store file), and reach it by a name its certificate holds";
      }
      if (t.getClass().getSimpleName().equals("TunnelRefusedException")) {
        String m = String.valueOf(t.getMessage());
        return TUNNEL_REFUSED + " (" + Errors.redact(m) + ")" + (m.contains("407")
            ? ": it wants credentials; set the proxy user and password" : "");
      }
    }
    if (e instanceof NoRouteToHostException) {
      return "no route to host";
    }
    if (e instanceof ConnectException) {
      for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
        String m = t.getMessage();
        if (m != null && m.toLowerCase(java.util.Locale.ROOT).contains("refused")) {
          return "connection refused";
        }
      }
      String m = e.getMessage() != null ? e.getMessage() : e.getCause() != null ? e.getCause().getMessage() : null;
      return m == null ? "connection refused" : "connection failed (" + Errors.redact(m) + ")";
    }
    if (connecting) {
      return e instanceof SocketTimeoutException ? timedOut : "connection failed (" + Errors.describe(e) + ")";
    }
    return null;
  }
}
