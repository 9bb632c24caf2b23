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

  /** A pipe whose reader ends after {@code lines} lines, as {@code | head -n lines}: later writes fail. */
  static final class ClosingPipe extends Writer {
    final StringWriter read = new StringWriter();
    private int lines;

    ClosingPipe(int lines) {
      this.lines = lines;
    }

    @Override
    public synchronized void write(char[] buf, int off, int len) throws java.io.IOException {
      for (int i = off; i < off + len; i++) {
        if (lines == 0) {
          throw new java.io.IOException("Broken pipe");
        }
        read.write(buf[i]);
        if (buf[i] == '\n') {
          lines--;
        }
      }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  }

  /** {@code lines} joined as a command prints them. */
  static String lines(String... lines) {
    return String.join("\n", lines) + "\n";
  }
}
