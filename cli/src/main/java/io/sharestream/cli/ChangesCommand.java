package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.planner.BatchPlanner;
import io.sharestream.common.planner.StreamSettings;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code changes}: every change of a range of versions as readChangeFeed gives it (SPEC §4): the change data feed
 * where it was recorded, else derived from added and removed files, each row with {@code _change_type},
 * {@code _commit_version} and {@code _commit_timestamp}.
 */
@Command(name = "changes", description = "Print the changes of a range of versions, each row with _change_type, "
    + "_commit_version and _commit_timestamp (needs history sharing).")
final class ChangesCommand implements Callable<Integer> {
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

  @Option(names = "--format", paramLabel = "json|table", defaultValue = "json",
      description = "JSON lines (default) or an aligned text table (printed once every change is read).")
  private OutputFormat format;

  @ArgGroup(exclusive = true, multiplicity = "1")
  private From from;

  @ArgGroup(exclusive = true)
  private To to = new To();

  /** The first version: given, or the first committed at or after an instant (startingVersion/Timestamp). */
  static final class From {
    @Option(names = "--from", paramLabel = "<version>", required = true, description = "The first version.")
    private Long version;

    @Option(names = "--from-timestamp", paramLabel = "<instant>", required = true,
        converter = Converters.Timestamp.class,
        description = "The first version committed at or after this ISO-8601 instant.")
    private Instant timestamp;
  }

  /** The last version: given, the last committed at or before an instant, or the latest (endingVersion). */
  static final class To {
    @Option(names = "--to", paramLabel = "<version>", description = "The last version (default: the latest).")
    private Long version;

    @Option(names = "--to-timestamp", paramLabel = "<instant>", converter = Converters.Timestamp.class,
        description = "The last version committed at or before this ISO-8601 instant.")
    private Instant timestamp;
  }

  @Override
  public Integer call() {
    if (from.version != null && from.version < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--from must be a version (0 or more): "
          + from.version);
    }
    if (from.version != null && to.version != null && to.version < from.version) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--to " + to.version + " is before --from "
          + from.version + ": give the first version, then the last");
    }
    if (from.timestamp != null && to.timestamp != null && to.timestamp.isBefore(from.timestamp)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--to-timestamp " + to.timestamp
          + " is before --from-timestamp " + from.timestamp);
    }
    StreamSettings settings = read.settings();
    try (DeltaSharingClient client = connection.connect(settings)) {
      BatchPlanner.Plan plan = BatchPlanner.changesUnderEndSchema(client, table.get(), settings, from.version,
          from.timestamp, to.version, to.timestamp);
      if (plan.firstVersion() > plan.version()) {
        Stderr.note(to.version == null && to.timestamp == null
            ? "No changes: the range starts at version " + plan.firstVersion() + ", after the table's latest version ("
                + plan.version() + ")."
            : "No changes: no version from " + plan.firstVersion() + " on is in the range, which ends at version "
                + plan.version() + ".");
      }
      OutputFormat.Rows out = format.open(spec.commandLine().getOut(),
          ChangeColumns.of(plan.metadata().schema()));
      ChangeColumns columns = new ChangeColumns();
      FileRows.read(client, table.get(), plan.units(), settings, (unit, row) -> {
        out.add(columns.add(unit, row));
        return true;
      });
      out.end();
    }
    return 0;
  }
}
