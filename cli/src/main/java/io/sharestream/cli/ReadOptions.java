package io.sharestream.cli;

import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How rows are read (SPEC §3): the answer format asked of the server and how dates and timestamps are decoded.
 * Values are the core's option values and checked by it ({@link StreamOptions}) before any request: a bad one is a
 * usage error.
 */
final class ReadOptions {
  @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
  private CommandLine.Model.CommandSpec command;

  @Option(names = "--response-format", paramLabel = "auto|parquet|delta",
      description = "The answer format asked of the server (responseFormat; default: auto, both).")
  private String responseFormat;

  @Option(names = "--partition-time-zone", paramLabel = "<zone>",
      description = "Time zone of timestamp partition values written without an offset (partitionTimeZone; "
          + "default: UTC).")
  private String partitionTimeZone;

  @Option(names = "--datetime-rebase-mode", paramLabel = "EXCEPTION|LEGACY|CORRECTED",
      description = "Old dates and timestamps of files that do not name their calendar (datetimeRebaseMode; "
          + "default: EXCEPTION).")
  private String datetimeRebaseMode;

  @Option(names = "--int96-rebase-mode", paramLabel = "EXCEPTION|LEGACY|CORRECTED",
      description = "As --datetime-rebase-mode, for INT96 timestamps (int96RebaseMode; default: EXCEPTION).")
  private String int96RebaseMode;

  /** These options under the core's names, unset ones left out. */
  Map<String, String> options() {
    Map<String, String> o = new LinkedHashMap<>();
    put(o, StreamOptions.RESPONSE_FORMAT, responseFormat);
    put(o, StreamOptions.PARTITION_TIME_ZONE, partitionTimeZone);
    put(o, StreamOptions.DATETIME_REBASE_MODE, datetimeRebaseMode);
    put(o, StreamOptions.INT96_REBASE_MODE, int96RebaseMode);
    return o;
  }

  /** The core's settings for these options. */
  StreamSettings settings() {
    return settings(options());
  }

  /**
   * The core's settings for {@code options} (these and the command's own, under the core's names); a value the core
   * refuses is a usage error naming the flag, found before any request.
   */
  StreamSettings settings(Map<String, String> options) {
    try {
      return StreamOptions.parse(options);
    } catch (InvalidSettingException e) {
      throw new CommandLine.ParameterException(command.commandLine(), CliTerms.of(e.getMessage(),
          command.name()));
    }
  }

  static void put(Map<String, String> options, String name, String value) {
    if (value != null) {
      options.put(name, value);
    }
  }
}
