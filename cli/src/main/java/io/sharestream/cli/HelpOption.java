package io.sharestream.cli;

import picocli.CommandLine.Option;

/** {@code -h}/{@code --help} of a subcommand (whose {@code --version} may mean a table version). */
final class HelpOption {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  private boolean help;
}
