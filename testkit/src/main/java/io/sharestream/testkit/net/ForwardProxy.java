package io.sharestream.testkit.net;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP forward proxy on 127.0.0.1, as corporate networks put between a recipient and the internet: {@code CONNECT
 * host:port} opens a tunnel (for {@code https://} targets, TLS end to end), and a request in absolute form
 * ({@code GET http://host:port/path}) is forwarded. With credentials set, a request without the matching
 * {@code Proxy-Authorization: Basic} header is answered {@code 407} with a {@code Proxy-Authenticate} challenge on the
 * same connection. Every request is recorded ({@link #requests()}: method, target and whether it was let through).
 */
public final class ForwardProxy implements Closeable {
  /** One request the proxy received. */
  public static final class Request {
    public final String method;
    /** {@code host:port} for CONNECT, else the absolute URI. */
    public final String target;
    public final boolean allowed;

    Request(String method, String target, boolean allowed) {
      this.method = method;
      this.target = target;
      this.allowed = allowed;
    }

    @Override
    public String toString() {
      return method + " " + target + (allowed ? "" : " (407)");
    }
  }

  private final ServerSocket server;
  private final String expectedAuthorization;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "kit-forward-proxy");
    t.setDaemon(true);
    return t;
  });

  private ForwardProxy(String username, String password) throws IOException {
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.expectedAuthorization = username == null ? null : "Basic " + Base64.getEncoder().encodeToString(
        (username + ":" + password).getBytes(StandardCharsets.UTF_8));
    threads.execute(this::accept);
  }

  /** A proxy letting every request through. */
  public static ForwardProxy open() throws IOException {
    return new ForwardProxy(null, null);
  }

  /** A proxy asking for Basic credentials {@code username}:{@code password}. */
  public static ForwardProxy withBasicAuth(String username, String password) throws IOException {
    return new ForwardProxy(username, password);
  }

  public int port() {
    return server.getLocalPort();
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + port();
  }

  public List<Request> requests() {
    return new ArrayList<>(requests);
  }

  /** The requests let through (credentials accepted, or none needed). */
  public long allowed() {
    return requests.stream().filter(r -> r.allowed).count();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        threads.execute(() -> serve(client));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket client) {
    try (Socket c = client) {
      InputStream in = c.getInputStream();
      OutputStream out = c.getOutputStream();
      while (true) {
        String requestLine = line(in);
        if (requestLine == null || requestLine.isEmpty()) {
          return;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
          int colon = h.indexOf(':');
          if (colon > 0) {
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
          }
        }
        String[] parts = requestLine.split(" ");
        String method = parts[0];
        String target = parts.length > 1 ? parts[1] : "";
        boolean allowed = expectedAuthorization == null
            || expectedAuthorization.equals(headers.get("proxy-authorization"));
        requests.add(new Request(method, target, allowed));
        if (!allowed) {
          skipBody(in, headers);
          out.write(("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"kit\"\r\n"
              + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          out.flush();
          continue; // the client answers the challenge on this connection
        }
        if (method.equalsIgnoreCase("CONNECT")) {
          tunnel(c, target);
        } else {
          forward(in, out, method, URI.create(target), headers);
        }
        return;
      }
    } catch (IOException e) {
      // the client or the target went away
    } finally {
      sockets.remove(client);
    }
  }

  private void tunnel(Socket client, String target) throws IOException {
    int colon = target.lastIndexOf(':');
    try (Socket upstream = new Socket()) {
      upstream.connect(new InetSocketAddress(target.substring(0, colon), Integer.parseInt(target.substring(colon
          + 1))), 10_000);
      sockets.add(upstream);
      client.getOutputStream().write("HTTP/1.1 200 Connection Established\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      client.getOutputStream().flush();
      threads.execute(() -> pump(upstream, client));
      pump(client, upstream);
    }
  }

  /** Forwards one plain-HTTP request in origin form, asking the target to close after it, and relays the answer. */
  private void forward(InputStream in, OutputStream out, String method, URI target, Map<String, String> headers)
      throws IOException {
    try (Socket upstream = new Socket(target.getHost(), target.getPort() < 0 ? 80 : target.getPort())) {
      sockets.add(upstream);
      StringBuilder head = new StringBuilder(method).append(' ').append(target.getRawPath() == null
          || target.getRawPath().isEmpty() ? "/" : target.getRawPath())
          .append(target.getRawQuery() == null ? "" : "?" + target.getRawQuery()).append(" HTTP/1.1\r\n");
      for (Map.Entry<String, String> h : headers.entrySet()) {
        if (!h.getKey().startsWith("proxy-") && !h.getKey().equals("connection")) {
          head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
      }
      head.append("connection: close\r\n\r\n");
      OutputStream up = upstream.getOutputStream();
      up.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      long length = headers.containsKey("content-length") ? Long.parseLong(headers.get("content-length")) : 0;
      copy(in, up, length);
      up.flush();
      InputStream answer = upstream.getInputStream();
      byte[] buffer = new byte[8192];
      for (int n = answer.read(buffer); n >= 0; n = answer.read(buffer)) {
        out.write(buffer, 0, n);
      }
      out.flush();
    }
  }

  private static void skipBody(InputStream in, Map<String, String> headers) throws IOException {
    long length = headers.containsKey("content-length") ? Long.parseLong(headers.get("content-length")) : 0;
    copy(in, new ByteArrayOutputStream(), length);
  }

  private static void copy(InputStream in, OutputStream out, long length) throws IOException {
    byte[] buffer = new byte[8192];
    for (long left = length; left > 0; ) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw new IOException("body cut short");
      }
      out.write(buffer, 0, n);
      left -= n;
    }
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16384];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one side closed
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  /** A line up to CRLF (ISO-8859-1), or null at the end of the stream. */
  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c >= 0; c = in.read()) {
      if (c == '\n') {
        String s = b.toString("ISO-8859-1");
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      b.write(c);
    }
    return b.size() == 0 ? null : b.toString("ISO-8859-1");
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // closing
    }
    for (Socket s : sockets) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }
    threads.shutdownNow();
  }
}
