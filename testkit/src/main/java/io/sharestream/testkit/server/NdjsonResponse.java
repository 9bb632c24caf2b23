package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A streamed NDJSON body: headers go out first (chunked), then each line as it is produced, so no response is ever
 * held whole in memory. Applies the request's fault, if any: truncation, a pause, or an error end marker.
 */
final class NdjsonResponse {
  static final String CAPABILITIES = "delta-sharing-capabilities";

  /** Thrown to make the HTTP server drop the connection mid-body. */
  static final class Truncated extends RuntimeException {
    Truncated() {
      super("response truncated by fault injection", null, false, false);
    }
  }

  private final HttpExchange exchange;
  private final Faults.Rule fault;
  private OutputStream out;
  private long lines;
  private boolean wantsEnd;

  NdjsonResponse(HttpExchange exchange, Faults.Rule fault) {
    this.exchange = exchange;
    this.fault = fault;
  }

  /**
   * Sends the 200 status and headers: {@code Delta-Table-Version} unless {@code tableVersion} is null (a view's
   * answer); {@code endStreamAction} says whether the body will close with one, and {@code asked} whether the client
   * asked for it (only then the capabilities header says so). Capabilities set on the exchange before (the
   * {@code asyncquery=true} echo of an async query's answer) follow the response format's.
   */
  void start(Long tableVersion, String responseFormat, boolean endStreamAction, boolean asked) throws IOException {
    String capabilities = "responseformat=" + responseFormat + (asked ? ";includeendstreamaction=true" : "");
    String preset = exchange.getResponseHeaders().getFirst(CAPABILITIES); // the reference's order first
    open(tableVersion, preset == null ? capabilities : capabilities + ";" + preset, endStreamAction);
  }

  /** Sends the headers of an async query's status answer: no table version, the capabilities set before if any. */
  void startStatus() throws IOException {
    open(null, exchange.getResponseHeaders().getFirst(CAPABILITIES), false);
  }

  private void open(Long tableVersion, String capabilities, boolean endStreamAction) throws IOException {
    this.wantsEnd = endStreamAction;
    exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson; charset=utf-8");
    if (tableVersion != null) {
      exchange.getResponseHeaders().set("Delta-Table-Version", Long.toString(tableVersion));
    }
    if (capabilities != null) {
      exchange.getResponseHeaders().set(CAPABILITIES, capabilities);
    }
    ApiHandler.logStatus(200);
    exchange.sendResponseHeaders(200, 0);
    out = new BufferedOutputStream(exchange.getResponseBody(), 16 * 1024);
  }

  void line(JsonNode node) throws IOException {
    out.write(node.toString().getBytes(StandardCharsets.UTF_8));
    out.write('\n');
    lines++;
    if (fault == null || lines != fault.afterLines) {
      return;
    }
    if (fault.kind == Faults.Kind.TRUNCATE) {
      out.flush();
      throw new Truncated();
    }
    if (fault.kind == Faults.Kind.PAUSE) {
      out.flush();
      fault.reached.countDown();
      try {
        fault.release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while paused", e);
      }
    }
  }

  long lines() {
    return lines;
  }

  /** Closes the body, with the end marker when one was promised (carrying the fault's error, if any). */
  void finish(ObjectNode endStreamAction) throws IOException {
    if (fault != null && fault.kind == Faults.Kind.TRUNCATE) {
      out.flush();
      throw new Truncated();
    }
    if (fault != null && fault.kind == Faults.Kind.END_STREAM_ERROR) {
      endStreamAction.put("errorMessage", fault.message);
      endStreamAction.put("httpStatusErrorCode", 500);
      wantsEnd = true;
    }
    if (wantsEnd) {
      ObjectNode wrapper = endStreamAction.objectNode();
      wrapper.set("endStreamAction", endStreamAction);
      out.write(wrapper.toString().getBytes(StandardCharsets.UTF_8));
      out.write('\n');
    }
    out.close();
  }
}
