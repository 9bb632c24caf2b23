package io.sharestream.common.client;

import io.sharestream.common.storage.SignedRequest;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request headers a signed storage request needs (GCS's {@code Authorization: Bearer}), carried in its URL's
 * fragment so that they go wherever a file's URL goes (Spark's executors, refreshed URLs) and reach the storage
 * request, never the wire as part of the URL: {@code <url>#sharestream-headers:<name>=<value>&...} (form-encoded).
 * {@link io.sharestream.common.errors.Errors#safeUrl} leaves fragments out; the values are registered secrets.
 */
final class UrlHeaders {
  private static final String MARK = "sharestream-headers:";

  private UrlHeaders() {}

  /** {@code request}'s URL, with its headers in the fragment if it has any. */
  static String attach(SignedRequest request) {
    if (request.headers().isEmpty()) {
      return request.url();
    }
    StringBuilder b = new StringBuilder(request.url()).append('#').append(MARK);
    String sep = "";
    for (Map.Entry<String, String> h : request.headers().entrySet()) {
      b.append(sep).append(encode(h.getKey())).append('=').append(encode(h.getValue()));
      sep = "&";
    }
    return b.toString();
  }

  /** The URL to request: {@code url} without the headers' fragment. */
  static URI target(String url) {
    int at = url.indexOf('#' + MARK);
    return URI.create(at < 0 ? url : url.substring(0, at));
  }

  /** The headers carried in {@code url}'s fragment; none when it carries none. */
  static Map<String, String> headers(String url) {
    int at = url.indexOf('#' + MARK);
    if (at < 0) {
      return Collections.emptyMap();
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : url.substring(at + 1 + MARK.length()).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
      }
    }
    return out;
  }

  private static String encode(String s) {
    try {
      return URLEncoder.encode(s, StandardCharsets.UTF_8.name());
    } catch (java.io.UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8.name());
    } catch (java.io.UnsupportedEncodingException e) {
      throw new IllegalStateException(e);
    }
  }
}
