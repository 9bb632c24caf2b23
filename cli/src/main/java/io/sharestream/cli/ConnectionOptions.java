package io.sharestream.cli;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options every command connects with: the profile file, how long an attempt may wait and how often failing
 * requests are retried (each retry a note on stderr).
 */
final class ConnectionOptions {
  @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
  private CommandLine.Model.CommandSpec command;

  @Option(names = "--profile", paramLabel = "<file>", defaultValue = "${env:SHARESTREAM_PROFILE}",
      description = "The Delta Sharing profile file (default: the file $SHARESTREAM_PROFILE names).")
  private Path profile;

  @Option(names = "--max-retries", paramLabel = "<n>", defaultValue = "4",
      description = "Retries of a request that failed with 429, 5xx or a network error, with backoff from 1 s to "
          + "30 s (default: ${DEFAULT-VALUE}).")
  private int maxRetries;

  @Option(names = "--timeout", paramLabel = "<duration>", defaultValue = "30s", converter = Converters.Interval.class,
      description = "How long to wait for a connection, for an answer to start and for the next bytes of one, before "
          + "the attempt counts as failed and is retried: 500ms, 30s, 2m, ... (default: ${DEFAULT-VALUE}).")
  private Duration timeout;

  /** A client of the profile's server asking for {@code format} answers; the caller closes it. */
  DeltaSharingClient connect(ResponseFormat format) {
    if (profile == null) {
      throw new CommandLine.ParameterException(command.commandLine(),
          "Missing required option: '--profile=<file>' (or set SHARESTREAM_PROFILE)");
    }
    if (maxRetries < 0) {
      throw new CommandLine.ParameterException(command.commandLine(), "--max-retries cannot be negative");
    }
    RetrySettings retry = new RetrySettings(maxRetries + 1, Duration.ofSeconds(1), Duration.ofSeconds(30),
        Duration.ofMinutes(10));
    ClientSettings settings = ClientSettings.DEFAULT.withRetry(retry).withTimeouts(timeout, timeout, timeout)
        .withUserAgent(VersionInfo.userAgent()).withResponseFormat(format);
    return new DeltaSharingClient(DeltaSharingProfile.fromFile(profile), settings);
  }

  DeltaSharingClient connect() {
    return connect(ResponseFormat.AUTO);
  }
}
