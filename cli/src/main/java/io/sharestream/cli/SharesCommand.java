package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shares}: the names of the shares the profile can see, one a line. */
@Command(name = "shares", description = "List the shares the profile can see, one a line.")
final class SharesCommand implements Callable<Integer> {
  @Mixin
  private HelpOption help;
  @Mixin
  private ConnectionOptions connection;
  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (DeltaSharingClient client = connection.connect()) {
      client.listShares().forEachRemaining(s -> out.println(s.name()));
    }
    out.flush();
    return 0;
  }
}
