package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.planner.BatchPlanner;
import io.sharestream.common.planner.StreamSettings;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code head}: the first rows of a snapshot (latest, at a version or at a timestamp), in file order. The server is
 * told the limit, and reading stops at the last row wanted: later files are never fetched.
 */
@Command(name = "head", description = "Print the first rows of the table's snapshot (latest, or at a version or "
    + "timestamp).")
final class HeadCommand implements Callable<Integer> {
  @Mixin
  private HelpOption help;
  @Mixin
  private ConnectionOptions connection;
  @Mixin
  private ReadOptions read;
  @Spec
  private CommandSpec spec;

  @Mixin
  private TableArgument table;

  @Option(names = {"-n", "--rows"}, paramLabel = "<n>", defaultValue = "10",
      description = "How many rows (default: ${DEFAULT-VALUE}).")
  private long rows;

  @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
      description = "JSON lines (default) or an aligned text table.")
  private OutputFormat format;

  @ArgGroup(exclusive = true)
  private Snapshot at = new Snapshot();

  /** Which snapshot: latest unless a version or a timestamp is given (both need history sharing). */
  static final class Snapshot {
    @Option(names = "--version", paramLabel = "<version>", description = "The snapshot at this version.")
    private Long version;

    @Option(names = "--timestamp", paramLabel = "<instant>", converter = Converters.Timestamp.class,
        description = "The snapshot as of this ISO-8601 instant, e.g. 2024-01-31T00:00:00Z.")
    private Instant timestamp;
  }

  @Override
  public Integer call() {
    if (rows < 0) {
      throw new ParameterException(spec.commandLine(), "-n cannot be negative: " + rows);
    }
    StreamSettings settings = read.settings();
    try (DeltaSharingClient client = connection.connect(settings)) {
      BatchPlanner.Plan plan = BatchPlanner.snapshot(client, table.get(), at.version, at.timestamp, null, rows,
          settings.filesPerRequest());
      OutputFormat.Rows out = format.open(spec.commandLine().getOut(), plan.metadata().schema());
      long[] left = {rows};
      if (rows > 0) {
        FileRows.read(client, table.get(), plan.units(), settings, (unit, row) -> {
          out.add(row.row());
          return --left[0] > 0;
        });
      }
      out.end();
    }
    return 0;
  }
}
