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

  @Option(names = "--access-mode", paramLabel = "auto|url|dir",
      description = "Read tables through the server's pre-signed URLs or from their storage directory with vended "
          + "credentials (accessMode; default: auto, URLs where offered).")
  private String accessMode;

  @Option(names = "--s3-endpoint", paramLabel = "<url>",
      description = "Directory access: an S3-compatible store's endpoint in place of AWS's (s3Endpoint).")
  private String s3Endpoint;

  @Option(names = "--s3-region", paramLabel = "<region>",
      description = "Directory access: the region S3 requests are signed for (s3Region; default: us-east-1).")
  private String s3Region;

  @Option(names = "--s3-path-style", arity = "0", description = "Directory access: S3 buckets in the path, as "
      + "most S3-compatible stores need (s3PathStyleAccess).")
  private boolean s3PathStyle;

  @Option(names = "--azure-blob-endpoint", paramLabel = "<url>",
      description = "Directory access: the Azure Blob endpoint, {account} for the account (azureBlobEndpoint).")
  private String azureBlobEndpoint;

  @Option(names = "--gcs-endpoint", paramLabel = "<url>",
      description = "Directory access: the Google Cloud Storage endpoint (gcsEndpoint).")
  private String gcsEndpoint;

  /** These options under the core's names, unset ones left out. */
  Map<String, String> options() {
    Map<String, String> o = new LinkedHashMap<>();
    put(o, StreamOptions.RESPONSE_FORMAT, responseFormat);
    put(o, StreamOptions.PARTITION_TIME_ZONE, partitionTimeZone);
    put(o, StreamOptions.DATETIME_REBASE_MODE, datetimeRebaseMode);
    put(o, StreamOptions.INT96_REBASE_MODE, int96RebaseMode);
    put(o, StreamOptions.ACCESS_MODE, accessMode);
    put(o, StreamOptions.S3_ENDPOINT, s3Endpoint);
    put(o, StreamOptions.S3_REGION, s3Region);
    put(o, StreamOptions.S3_PATH_STYLE_ACCESS, s3PathStyle ? "true" : null);
    put(o, StreamOptions.AZURE_BLOB_ENDPOINT, azureBlobEndpoint);
    put(o, StreamOptions.GCS_ENDPOINT, gcsEndpoint);
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
