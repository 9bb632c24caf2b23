package io.sharestream.cli;

import java.io.PrintWriter;

/**
 * Standard output was closed (the reader of a pipe ended, as {@code | head -2} does): the command stops at once,
 * reading no more, and exits with {@link Failures#OUTPUT_CLOSED} without a message, as Unix tools end on SIGPIPE.
 */
final class OutputClosed extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private OutputClosed() {
    super("standard output closed", null, false, false);
  }

  /** Throws when a write to {@code out} failed (a {@link PrintWriter} keeps its errors to itself). */
  static void check(PrintWriter out) {
    if (out.checkError()) {
      throw new OutputClosed();
    }
  }
}
