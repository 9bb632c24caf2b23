package io.sharestream.common.client;

import java.io.InputStream;
import java.util.Map;
import java.util.TreeMap;

/** An HTTP answer: its status, its headers (names in any case) and its body, open until closed. */
final class Answer {
  private final int status;
  private final Map<String, String> headers;
  private final InputStream body;

  /** {@code headers}: the first value of each header. */
  Answer(int status, Map<String, String> headers, InputStream body) {
    this.status = status;
    this.headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    this.headers.putAll(headers);
    this.body = body;
  }

  int status() {
    return status;
  }

  /** The header's first value, or null. */
  String header(String name) {
    return headers.get(name);
  }

  /** The header's first value, or {@code orElse}. */
  String header(String name, String orElse) {
    String v = headers.get(name);
    return v == null ? orElse : v;
  }

  InputStream body() {
    return body;
  }

  /** This answer with its body read through {@code wrapped} (a buffer, a timeout). */
  Answer withBody(InputStream wrapped) {
    return new Answer(status, headers, wrapped);
  }
}
