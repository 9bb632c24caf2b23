package io.sharestream.common.client;

import io.sharestream.common.errors.EndpointUnreachableException.Target;
import io.sharestream.common.errors.Errors;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.auth.AuthScope;
import org.apache.hc.client5.http.auth.UsernamePasswordCredentials;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.auth.BasicCredentialsProvider;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.routing.SystemDefaultRoutePlanner;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * The HTTP of the sharing server's API, of OAuth token endpoints and of storage downloads: Apache HttpClient 5's
 * classic client, which runs on Java 8 as the Spark 3.1 jar must and reads bodies on the caller's thread, over one
 * connection pool per client, through the proxies and with the trust of its {@link NetworkSettings} (the JVM's proxy
 * properties and trust store when it sets none; proxy Basic authentication answered when challenged, CONNECT
 * tunnels for {@code https://} targets, host names always verified). It sends one request at a time per
 * caller and reads its body on the caller's thread. An exchange can be aborted from any thread at any point, waiting
 * for its answer or reading its body ({@link #close()} aborts them all, an idle-timeout watchdog one, and
 * {@link InterruptWatch} that of an interrupted caller): its socket is closed at once and the blocked call fails. A body closed before its end aborts its exchange rather than reading
 * the rest. No request is retried or redirected here beyond what the caller asks ({@link Retrier} retries).
 */
final class HttpTransport implements AutoCloseable {
  /** Exchanges one client may have open at once to one host (listings of many tables; an executor's downloads). */
  private static final int MAX_CONNECTIONS_PER_HOST = 128;
  /** And to all hosts together (the sharing server, its token endpoint, storage). */
  private static final int MAX_CONNECTIONS = 256;

  private final CloseableHttpClient http;
  private final Duration connectTimeout;
  private final Set<HttpUriRequestBase> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Connections time out after {@code connectTimeout}; an answer must start within {@code responseTimeout} (unless
   * a request says otherwise); requests go as {@code network} says.
   */
  HttpTransport(Duration connectTimeout, Duration responseTimeout, NetworkSettings network) {
    this.connectTimeout = connectTimeout;
    PoolingHttpClientConnectionManagerBuilder pool = PoolingHttpClientConnectionManagerBuilder.create()
        .useSystemProperties()
        .setDefaultConnectionConfig(ConnectionConfig.custom().setConnectTimeout(timeout(connectTimeout))
            .setSocketTimeout(timeout(responseTimeout)).build())
        .setMaxConnPerRoute(MAX_CONNECTIONS_PER_HOST).setMaxConnTotal(MAX_CONNECTIONS);
    SSLContext tls = network.trust().sslContext();
    if (tls != null) {
      pool.setTlsSocketStrategy(new DefaultClientTlsStrategy(tls)); // the default host name verifier
    }
    HttpClientBuilder client = HttpClients.custom().setConnectionManager(pool.build())
        .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(timeout(responseTimeout)).build())
        .disableAutomaticRetries().disableCookieManagement().useSystemProperties();
    if (network.proxiesSet()) {
      client.setRoutePlanner(new SystemDefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE, network.selector()));
    }
    BasicCredentialsProvider proxyCredentials = new BasicCredentialsProvider();
    for (NetworkSettings.ProxyAddress p : new NetworkSettings.ProxyAddress[] {network.httpsProxy(),
        network.httpProxy()}) {
      if (p != null && p.username() != null) {
        proxyCredentials.setCredentials(new AuthScope(p.host(), p.port()), new UsernamePasswordCredentials(
            p.username(), p.password() == null ? new char[0] : p.password().toCharArray()));
      }
    }
    this.http = client.setDefaultCredentialsProvider(proxyCredentials).build();
  }

  /**
   * Sends {@code method} to {@code uri} with {@code headers} and {@code body} (null: none) of {@code contentType},
   * and waits for the answer's status and headers; its body must be closed. A request that never reached the
   * endpoint fails with {@link Unreachable} naming {@code target}.
   */
  Answer send(String method, URI uri, Map<String, String> headers, String body, String contentType, Target target)
      throws IOException {
    return send(method, uri, headers, body, contentType, target, null);
  }

  /** As above, the answer (and each read of its body) waited for at most {@code responseTimeout} (null: default). */
  Answer send(String method, URI uri, Map<String, String> headers, String body, String contentType, Target target,
      Duration responseTimeout) throws IOException {
    HttpUriRequestBase request = new HttpUriRequestBase(method, uri);
    if (responseTimeout != null) {
      request.setConfig(RequestConfig.custom().setResponseTimeout(timeout(responseTimeout)).build());
    }
    headers.forEach(request::setHeader);
    if (body != null) {
      request.setEntity(new StringEntity(body, ContentType.parse(contentType).withCharset(StandardCharsets.UTF_8)));
    }
    track(request);
    ClassicHttpResponse response;
    try {
      if (closed) {
        request.cancel();
      }
      response = http.executeOpen(null, request, null);
    } catch (IOException e) {
      untrack(request);
      throw Unreachable.classify(e, target, uri, connectTimeout, false);
    } catch (RuntimeException e) {
      untrack(request);
      throw e;
    }
    if (response.getCode() == 407) { // from the proxy: the request never reached its endpoint
      untrack(request);
      request.cancel();
      response.close();
      throw Unreachable.proxyRefused(target, uri);
    }
    Map<String, String> first = new LinkedHashMap<>();
    for (Header h : response.getHeaders()) {
      first.putIfAbsent(h.getName(), h.getValue());
    }
    HttpEntity entity = response.getEntity();
    InputStream content = entity == null ? null : entity.getContent();
    return new Answer(response.getCode(), first, new Body(content, request));
  }

  /** Aborts {@code body}'s exchange (an {@link Answer#body()} of this transport): its blocked read fails now. */
  static void abort(InputStream body) {
    if (body instanceof Body) {
      ((Body) body).abort();
    }
  }

  private void track(HttpUriRequestBase request) {
    open.add(request);
    InterruptWatch.watch(request);
  }

  private void untrack(HttpUriRequestBase request) {
    open.remove(request);
    InterruptWatch.forget(request);
  }

  /** Aborts every exchange in flight; later sends fail at once. */
  @Override
  public void close() {
    closed = true;
    for (HttpUriRequestBase r : open) {
      r.cancel();
    }
    http.close(CloseMode.IMMEDIATE);
  }

  private static Timeout timeout(Duration d) {
    return Timeout.ofMilliseconds(Math.max(1, d.toMillis()));
  }

  /** A body that aborts its exchange when closed before its end, and that {@link #abort} can cut short. */
  private final class Body extends FilterInputStream {
    private final HttpUriRequestBase request;
    private boolean ended;

    Body(InputStream in, HttpUriRequestBase request) {
      super(in == null ? new java.io.ByteArrayInputStream(new byte[0]) : in);
      this.request = request;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      ended |= b < 0;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      ended |= n < 0;
      return n;
    }

    void abort() {
      request.cancel();
    }

    @Override
    public void close() throws IOException {
      untrack(request);
      if (!ended) {
        request.cancel(); // the rest is not wanted: drop the connection rather than read it to its end
      }
      try {
        super.close();
      } catch (IOException afterAbort) {
        if (ended) {
          throw afterAbort;
        } // the aborted connection's stream fails to close; nothing was lost
      }
    }

    @Override
    public String toString() {
      return "body of " + Errors.safeUrl(String.valueOf(request.getRequestUri()));
    }
  }
}
