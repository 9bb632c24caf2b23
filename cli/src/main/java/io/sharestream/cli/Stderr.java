package io.sharestream.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Where the running command's notes go: its stderr, one line each as {@code sharestream: <text>}, in the CLI's
 * terms ({@link CliTerms}). Failures, the core's hints and retries, and status lines all pass here.
 */
final class Stderr {
  private static volatile PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err,
      StandardCharsets.UTF_8), true);
  private static volatile String command = "";
  /** Whether a status line is showing (it is cleared before the next note). */
  private static boolean statusShown;

  private Stderr() {}

  /** The running command ({@code command} its name) writes its notes to {@code to}. */
  static void use(PrintWriter to, String commandName) {
    err = to;
    command = commandName;
  }

  /** One note line. */
  static synchronized void note(String text) {
    clearStatus();
    err.println("sharestream: " + CliTerms.of(text, command));
    err.flush();
  }

  /** A status line that the next note or status replaces: shown only where stderr is a terminal. */
  static synchronized void status(String text) {
    if (!Terminal.stderrIsTerminal()) {
      return;
    }
    clearStatus();
    err.print("sharestream: " + text);
    err.flush();
    statusShown = true;
  }

  /** Removes a status line, if one shows. */
  static synchronized void clearStatus() {
    if (statusShown) {
      err.print("\r\033[2K");
      err.flush();
      statusShown = false;
    }
  }
}
