package io.sharestream.common.client;

import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.errors.Secrets;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How requests reach the sharing server, its OAuth token endpoint and storage alike: through which proxy (one for
 * {@code https://} targets, one for {@code http://} ones, each with optional Basic credentials), past which hosts
 * ({@code noProxy}), and trusting which certificates ({@link TrustSettings}; hostname verification is always on).
 * {@link #SYSTEM}: the JVM's own (its {@code https.proxyHost} and {@code http.proxyHost} properties, its default trust
 * store). Immutable; {@link #toString()} shows no password.
 */
public final class NetworkSettings implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** The JVM's proxies (system properties) and trust store. */
  public static final NetworkSettings SYSTEM = new NetworkSettings(null, null, Collections.<String>emptyList(),
      TrustSettings.SYSTEM);

  private final ProxyAddress httpsProxy;
  private final ProxyAddress httpProxy;
  private final List<String> noProxy;
  private final TrustSettings trust;

  private NetworkSettings(ProxyAddress httpsProxy, ProxyAddress httpProxy, List<String> noProxy,
      TrustSettings trust) {
    this.httpsProxy = httpsProxy;
    this.httpProxy = httpProxy;
    this.noProxy = Collections.unmodifiableList(new ArrayList<>(noProxy));
    this.trust = Objects.requireNonNull(trust);
  }

  /** These settings sending {@code https://} requests through {@code proxy} (null: the JVM's). */
  public NetworkSettings withHttpsProxy(ProxyAddress proxy) {
    return new NetworkSettings(proxy, httpProxy, noProxy, trust);
  }

  /** These settings sending {@code http://} requests through {@code proxy} (null: the JVM's). */
  public NetworkSettings withHttpProxy(ProxyAddress proxy) {
    return new NetworkSettings(httpsProxy, proxy, noProxy, trust);
  }

  /** Both kinds of requests through {@code proxy}. */
  public NetworkSettings withProxy(ProxyAddress proxy) {
    return new NetworkSettings(proxy, proxy, noProxy, trust);
  }

  /**
   * Hosts reached directly, as {@code NO_PROXY} lists them: a name ({@code example.com}, also matching its
   * subdomains), a suffix ({@code .example.com} or {@code *.example.com}), an IP address, or {@code *} for all.
   */
  public NetworkSettings withNoProxy(List<String> hosts) {
    List<String> clean = new ArrayList<>();
    for (String h : hosts) {
      String t = h.trim().toLowerCase(Locale.ROOT);
      if (!t.isEmpty()) {
        clean.add(t.startsWith("*.") ? t.substring(2) : t.startsWith(".") ? t.substring(1) : t);
      }
    }
    return new NetworkSettings(httpsProxy, httpProxy, clean, trust);
  }

  public NetworkSettings withTrust(TrustSettings t) {
    return new NetworkSettings(httpsProxy, httpProxy, noProxy, t);
  }

  public ProxyAddress httpsProxy() {
    return httpsProxy;
  }

  public ProxyAddress httpProxy() {
    return httpProxy;
  }

  public List<String> noProxy() {
    return noProxy;
  }

  public TrustSettings trust() {
    return trust;
  }

  /** Whether a proxy is set here (else the JVM's proxy properties apply). */
  boolean proxiesSet() {
    return httpsProxy != null || httpProxy != null || !noProxy.isEmpty();
  }

  /** The proxy {@code target} is reached through; null for a direct connection. */
  ProxyAddress proxyFor(URI target) {
    ProxyAddress p = "https".equalsIgnoreCase(target.getScheme()) ? httpsProxy : httpProxy;
    return p == null || bypassed(target.getHost()) ? null : p;
  }

  /** Whether {@code host} is on the no-proxy list. */
  boolean bypassed(String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    for (String n : noProxy) {
      if (n.equals("*") || h.equals(n) || h.endsWith("." + n)) {
        return true;
      }
    }
    return false;
  }

  /** These settings as a {@link ProxySelector}, for the HTTP client's route planner. */
  ProxySelector selector() {
    return new ProxySelector() {
      @Override
      public List<Proxy> select(URI uri) {
        ProxyAddress p = proxyFor(uri);
        return Collections.singletonList(p == null ? Proxy.NO_PROXY
            : new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(p.host(), p.port())));
      }

      @Override
      public void connectFailed(URI uri, SocketAddress sa, java.io.IOException ioe) {}
    };
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof NetworkSettings)) {
      return false;
    }
    NetworkSettings n = (NetworkSettings) o;
    return Objects.equals(httpsProxy, n.httpsProxy) && Objects.equals(httpProxy, n.httpProxy)
        && noProxy.equals(n.noProxy) && trust.equals(n.trust);
  }

  @Override
  public int hashCode() {
    return Objects.hash(httpsProxy, httpProxy, noProxy, trust);
  }

  @Override
  public String toString() {
    return "NetworkSettings{httpsProxy=" + httpsProxy + ", httpProxy=" + httpProxy + ", noProxy=" + noProxy
        + ", trust=" + trust + "}";
  }

  /** A forward proxy: host, port and optional Basic credentials. */
  public static final class ProxyAddress implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final String host;
    private final int port;
    private final String username;
    private final String password;

    public ProxyAddress(String host, int port, String username, String password) {
      this.host = Objects.requireNonNull(host);
      this.port = port;
      this.username = username;
      this.password = password;
      Secrets.register(password);
    }

    /**
     * Parses {@code http://[user:password@]host:port} (the scheme may be left out; port 80 when none is given);
     * explicit {@code username}/{@code password} win over the URL's. A bad value fails naming {@code setting}.
     */
    public static ProxyAddress parse(String url, String username, String password, String setting) {
      String u = url.trim();
      if (!u.contains("://")) {
        u = "http://" + u;
      }
      URI uri;
      try {
        uri = new URI(u);
      } catch (java.net.URISyntaxException e) {
        throw new InvalidSettingException(setting + " must be a proxy URL such as http://proxy.example.com:3128, not '"
            + io.sharestream.common.errors.Errors.redact(url) + "'.");
      }
      if (uri.getHost() == null || !(uri.getScheme().equalsIgnoreCase("http"))) {
        throw new InvalidSettingException(setting + " must be an http:// proxy URL such as "
            + "http://proxy.example.com:3128 (a proxy reached over TLS is not supported), not '" + uri.getScheme()
            + "://" + uri.getHost() + "'.");
      }
      String user = username;
      String pass = password;
      String info = uri.getRawUserInfo();
      if (user == null && info != null) {
        int colon = info.indexOf(':');
        user = decode(colon < 0 ? info : info.substring(0, colon));
        pass = pass != null ? pass : colon < 0 ? null : decode(info.substring(colon + 1));
      }
      return new ProxyAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort(), user, pass);
    }

    private static String decode(String s) {
      try {
        return java.net.URLDecoder.decode(s, "UTF-8");
      } catch (java.io.UnsupportedEncodingException e) {
        throw new IllegalStateException(e);
      }
    }

    public String host() {
      return host;
    }

    public int port() {
      return port;
    }

    /** The Basic authentication user; null for none. */
    public String username() {
      return username;
    }

    public String password() {
      return password;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof ProxyAddress)) {
        return false;
      }
      ProxyAddress p = (ProxyAddress) o;
      return host.equals(p.host) && port == p.port && Objects.equals(username, p.username)
          && Objects.equals(password, p.password);
    }

    @Override
    public int hashCode() {
      return Objects.hash(host, port, username);
    }

    @Override
    public String toString() {
      return "http://" + (username == null ? "" : username + ":<redacted>@") + host + ":" + port;
    }
  }
}
