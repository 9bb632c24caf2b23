package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tail}: follows a table's new commits with the stream semantics both engines share (SPEC §3, §4), one JSON
 * line {@code {"version":v,"index":i,"row":{...}}} per row (v the commit, i the file's place in it), until Ctrl-C
 * (which closes the client and ends cleanly) or {@code --max-records}.
 */
@Command(name = "tail", description = "Follow the table's new commits, one JSON line per row, until Ctrl-C or "
    + "--max-records.")
final class TailCommand implements Callable<Integer> {
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

  @ArgGroup(exclusive = true)
  private Start start = new Start();

  @Option(names = "--skip-change-commits",
      description = "Skip commits that remove or rewrite data (UPDATE, DELETE, MERGE, overwrite): appends only.")
  private boolean skipChangeCommits;

  @Option(names = "--read-change-feed", description = "Every change with _change_type, _commit_version and "
      + "_commit_timestamp, deletes and update pre-images too.")
  private boolean readChangeFeed;

  @Option(names = "--poll-interval", paramLabel = "<duration>", defaultValue = "5s",
      converter = Converters.Interval.class,
      description = "How often new versions are asked for once caught up: 500ms, 5s, 1m, ... (default: "
          + "${DEFAULT-VALUE}).")
  private Duration pollInterval;

  @Option(names = "--max-records", paramLabel = "<n>",
      description = "Stop after this many rows (default: follow until Ctrl-C).")
  private Long maxRecords;

  /** Where to start (startingVersion, startingTimestamp). */
  static final class Start {
    @Option(names = "--starting-version", paramLabel = "latest|snapshot|earliest|<version>",
        description = "latest (default): commits after the start; snapshot: the rows at the latest version, then "
            + "every later change; a version: every change from it on; earliest: from the earliest version the "
            + "server still serves.")
    private String version;

    @Option(names = "--starting-timestamp", paramLabel = "<instant>", converter = Converters.Timestamp.class,
        description = "As --starting-version with the first version committed at or after this ISO-8601 instant.")
    private Instant timestamp;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (maxRecords != null && maxRecords <= 0) {
      throw new ParameterException(spec.commandLine(), "--max-records must be positive: " + maxRecords);
    }
    if (readChangeFeed && skipChangeCommits) {
      throw new ParameterException(spec.commandLine(), "--read-change-feed and --skip-change-commits do not go "
          + "together: the change feed gives every change, --skip-change-commits only appends");
    }
    StreamSettings settings = settings();
    PrintWriter out = spec.commandLine().getOut();
    ChangeColumns changes = settings.readChangeFeed() ? new ChangeColumns() : null;
    long[] left = {maxRecords == null ? Long.MAX_VALUE : maxRecords};
    try (DeltaSharingClient client = connection.connect(settings)) {
      Follower follower = new Follower(client, table.get(), settings, pollInterval);
      Thread onCtrlC = new Thread(follower::stop, "sharestream-tail-stop");
      Runtime.getRuntime().addShutdownHook(onCtrlC);
      try {
        follower.follow((unit, row) -> {
          Stderr.clearStatus();
          out.println(RowJson.record(unit.version(), unit.index(), changes == null ? row.row()
              : changes.add(unit, row)));
          out.flush();
          OutputClosed.check(out);
          return --left[0] > 0;
        });
      } finally {
        removeHook(onCtrlC);
      }
    }
    return 0;
  }

  /** The options under the core's names; a followed table's schema may change with RENAME and DROP. */
  private StreamSettings settings() {
    Map<String, String> o = read.options();
    ReadOptions.put(o, StreamOptions.STARTING_VERSION, start.version);
    ReadOptions.put(o, StreamOptions.STARTING_TIMESTAMP, start.timestamp == null ? null : start.timestamp.toString());
    o.put(StreamOptions.SKIP_CHANGE_COMMITS, Boolean.toString(skipChangeCommits));
    o.put(StreamOptions.READ_CHANGE_FEED, Boolean.toString(readChangeFeed));
    return read.settings(o).evolvingOnRenameOrDrop();
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // Ctrl-C: the hook is running
    }
  }
}
