package io.sharestream.testkit.server;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.IOException;

/**
 * A streamed NDJSON body: headers go out first (chunked), then each line as it is produced, so no response is ever
 * held whole in memory. Applies the request's fault, if any: truncation, a pause, or an error end marker.
 */
final class NdjsonResponse {
  static final String CAPABILITIES = "delta-sharing-capabilities";
  /** Lines are flushed to the socket in 16 KB blocks, not one by one (only a fault flushes mid-body). */
  private static final ObjectWriter LINE = Lines.JSON.writer().without(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);

  /** Thrown to make the HTTP server drop the connection mid-body. */
  static final class Truncated extends RuntimeException {
    Truncated() {
      super("response truncated by fault injection", null, false, false);
    }
  }

  private final HttpExchange exchange;
  private final Faults.Rule fault;
  /** Writes the lines as UTF-8 straight into the body: a listing of a million file lines is no million strings. */
  private JsonGenerator out;
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
    out = Lines.JSON.getFactory().createGenerator(new BufferedOutputStream(exchange.getResponseBody(), 16 * 1024));
    out.setRootValueSeparator(null);
  }

  void line(JsonNode node) throws IOException {
    LINE.writeValue(out, node);
    out.writeRaw('\n');
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
      LINE.writeValue(out, wrapper);
      out.writeRaw('\n');
    }
    out.close();
  }
}
