package io.sharestream.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;

/** Runs {@code sharestream} in this JVM through picocli, with stdout and stderr captured. */
final class Cli {
  private Cli() {}

  /** A finished run: its exit code and what it printed. */
  record Run(int code, String out, String err) {
    List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
  }

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = run(out, err, args);
    return new Run(code, out.toString(), err.toString());
  }

  /** Runs with stdout and stderr going to {@code out} and {@code err} as they are printed. */
  static int run(Writer out, Writer err, String... args) {
    var cl = Sharestream.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  /** {@code lines} joined as a command prints them. */
  static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }
}
