package io.sharestream.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sharestream} command: checks a Delta Sharing profile and reads the tables it shares, from a shell.
 * Each subcommand is one class; {@link Failures} turns every failure into one stderr line and an exit code.
 */
@Command(name = "sharestream", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class,
    description = "Reads Delta Sharing tables: check a profile, look at tables, print rows, follow new commits.",
    subcommands = {CommandLine.HelpCommand.class, SharesCommand.class, TablesCommand.class, DescribeCommand.class,
        HeadCommand.class, ChangesCommand.class, TailCommand.class})
public final class Sharestream implements Runnable {
  @CommandLine.Spec
  private CommandLine.Model.CommandSpec spec;

  /** Runs a command; prints UTF-8 whatever the platform's default charset (JSON is UTF-8). */
  public static void main(String[] args) {
    CommandLine cl = commandLine();
    cl.setOut(new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true));
    cl.setErr(new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true));
    System.exit(cl.execute(args));
  }

  /** The command line with its failure handling and the exit codes in every command's help footer. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Sharestream());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setExecutionExceptionHandler(new Failures());
    cl.setParameterExceptionHandler(Sharestream::usageError);
    cl.setExecutionStrategy(parsed -> {
      CommandLine running = parsed.asCommandLineList().get(parsed.asCommandLineList().size() - 1);
      Stderr.use(cl.getErr(), running.getCommandName());
      return new CommandLine.RunLast().execute(parsed);
    });
    footer(cl);
    return cl;
  }

  /** A usage error: its message and where help is, not the whole usage (scripts and people read one line). */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    cl.getErr().println(e.getMessage());
    cl.getErr().println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
    cl.getErr().flush();
    return cl.getCommandSpec().exitCodeOnInvalidInput();
  }

  private static void footer(CommandLine cl) {
    cl.getCommandSpec().usageMessage().footer(Failures.EXIT_CODES_HELP);
    cl.getSubcommands().values().forEach(Sharestream::footer);
  }

  /** Without a subcommand: the usage help, as a usage error. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Name a command: "
        + String.join(", ", spec.subcommands().keySet()) + ".");
  }
}
