package io.sharestream.cli;

/**
 * Whether stderr is a terminal, for status lines a person watches and a script must not get. Java 17 cannot ask
 * about stderr alone: the {@code sharestream} script tests it ({@code [ -t 2 ]}) and passes
 * {@value #PROPERTY}; without it, a console on stdin and stdout is taken as the answer.
 */
final class Terminal {
  static final String PROPERTY = "sharestream.stderr.tty";

  private Terminal() {}

  static boolean stderrIsTerminal() {
    String told = System.getProperty(PROPERTY);
    return told != null ? Boolean.parseBoolean(told) : System.console() != null;
  }
}
