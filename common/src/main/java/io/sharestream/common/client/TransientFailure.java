package io.sharestream.common.client;

import java.time.Duration;

/**
 * A failure worth retrying: HTTP 429/5xx, a connection reset, a timeout, a truncated body. Carries the server's
 * {@code Retry-After}, if any, and the final error to raise when retries run out.
 */
final class TransientFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient Duration retryAfter;

  TransientFailure(String message, Duration retryAfter, Throwable cause) {
    super(message, cause, false, false);
    this.retryAfter = retryAfter;
  }

  Duration retryAfter() {
    return retryAfter;
  }
}
