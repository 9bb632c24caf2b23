package io.sharestream.testkit.server;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One API request: method, decoded path segments, query parameters, the capabilities header's entries and the
 * {@code fileidhash} header.
 */
final class Request {
  private byte[] body;
  final HttpExchange exchange;
  final String method;
  final List<String> segments;
  final Map<String, String> params = new HashMap<>();
  final Map<String, Set<String>> capabilities = new HashMap<>();
  /** The {@code fileidhash} header, trimmed and lower-cased (not validated), or null. */
  final String fileIdHash;

  Request(HttpExchange exchange, String prefix) {
    this.exchange = exchange;
    this.method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
    String raw = exchange.getRequestURI().getRawPath().substring(prefix.length());
    this.segments = new ArrayList<>();
    for (String s : raw.split("/")) {
      if (!s.isEmpty()) {
        segments.add(percentDecode(s));
      }
    }
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        params.put(k, v);
      }
    }
    String caps = exchange.getRequestHeaders().getFirst("delta-sharing-capabilities");
    if (caps != null) { // as the reference server: lower-cased, key=v1,v2 entries with exactly one '='
      for (String entry : caps.toLowerCase(Locale.ROOT).split(";")) {
        String[] kv = entry.split("=", -1);
        if (kv.length == 2) {
          Set<String> values = new TreeSet<>();
          for (String v : kv[1].split(",")) {
            values.add(v.trim());
          }
          capabilities.put(kv[0].trim(), values);
        }
      }
    }
    String ids = exchange.getRequestHeaders().getFirst("fileidhash");
    this.fileIdHash = ids == null ? null : ids.trim().toLowerCase(Locale.ROOT);
  }

  boolean capability(String key, String value) {
    return capabilities.getOrDefault(key, Set.of()).contains(value);
  }

  String param(String name) {
    return params.get(name);
  }

  /** A non-negative long query parameter, or null when absent. */
  Long longParam(String name) {
    String v = params.get(name);
    if (v == null) {
      return null;
    }
    try {
      long n = Long.parseLong(v);
      if (n < 0) {
        throw ProtocolError.invalid(name + " cannot be negative: " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw ProtocolError.invalid("invalid " + name + ": " + v);
    }
  }

  /** The request body, read once. */
  byte[] body() {
    if (body == null) {
      try (java.io.InputStream in = exchange.getRequestBody()) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        body = out.toByteArray();
      } catch (java.io.IOException e) {
        throw ProtocolError.malformed("cannot read the request body");
      }
    }
    return body;
  }

  static String percentDecode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length()) {
        out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
      }
    }
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }
}
