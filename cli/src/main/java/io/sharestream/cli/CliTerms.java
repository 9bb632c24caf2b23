package io.sharestream.cli;

import io.sharestream.common.planner.StreamOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The core's messages in the CLI's terms: the engines' option names become the flags that set them in the running
 * command ("set readChangeFeed=true" reads "pass --read-change-feed"), and remedies meant for streams that resume
 * from checkpoints or offsets become the CLI's own.
 */
final class CliTerms {
  /** Option names every reading command has under one flag. */
  private static final Map<String, String> COMMON = Map.ofEntries(
      Map.entry(StreamOptions.RESPONSE_FORMAT, "--response-format"),
      Map.entry(StreamOptions.PARTITION_TIME_ZONE, "--partition-time-zone"),
      Map.entry(StreamOptions.DATETIME_REBASE_MODE, "--datetime-rebase-mode"),
      Map.entry(StreamOptions.INT96_REBASE_MODE, "--int96-rebase-mode"),
      Map.entry(StreamOptions.SKIP_CHANGE_COMMITS, "--skip-change-commits"),
      Map.entry(StreamOptions.READ_CHANGE_FEED, "--read-change-feed"),
      Map.entry(StreamOptions.ACCESS_MODE, "--access-mode"),
      Map.entry(StreamOptions.S3_ENDPOINT, "--s3-endpoint"),
      Map.entry(StreamOptions.S3_REGION, "--s3-region"),
      Map.entry(StreamOptions.S3_PATH_STYLE_ACCESS, "--s3-path-style"),
      Map.entry(StreamOptions.AZURE_BLOB_ENDPOINT, "--azure-blob-endpoint"),
      Map.entry(StreamOptions.GCS_ENDPOINT, "--gcs-endpoint"));
  /** Where a version or time is given, by command. */
  private static final Map<String, Map<String, String>> BY_COMMAND = Map.of(
      "head", Map.of(StreamOptions.STARTING_VERSION, "--version", StreamOptions.STARTING_TIMESTAMP, "--timestamp"),
      "changes", Map.of(StreamOptions.STARTING_VERSION, "--from", StreamOptions.STARTING_TIMESTAMP,
          "--from-timestamp", "endingVersion", "--to", "endingTimestamp", "--to-timestamp"),
      "tail", Map.of(StreamOptions.STARTING_VERSION, "--starting-version", StreamOptions.STARTING_TIMESTAMP,
          "--starting-timestamp"));
  private static final Map<String, String> REMEDIES = new LinkedHashMap<>();

  static {
    REMEDIES.put(", or for a running stream delete its checkpoint/offsets and start again", "");
    REMEDIES.put(" with a new checkpoint/offsets reset and ", " with ");
    REMEDIES.put("raise the retry limits", "raise --max-retries");
  }

  private CliTerms() {}

  /** {@code message} as the CLI's {@code command} (its name; empty for none) words it. */
  static String of(String message, String command) {
    Map<String, String> flags = new LinkedHashMap<>(COMMON);
    flags.putAll(BY_COMMAND.getOrDefault(command, Map.of()));
    String out = message;
    for (Map.Entry<String, String> r : REMEDIES.entrySet()) {
      out = out.replace(r.getKey(), r.getValue());
    }
    for (Map.Entry<String, String> f : flags.entrySet()) {
      out = flag(out, f.getKey(), f.getValue());
    }
    return out;
  }

  /** Every mention of {@code option} ("set x=true", "x=v", "'x'", x) in {@code text} as {@code flag}. */
  private static String flag(String text, String option, String flag) {
    String name = Pattern.quote(option);
    String out = text.replaceAll("\\b[Ss]et " + name + "=true\\b", Matcher.quoteReplacement("pass " + flag))
        .replaceAll("\\b[Ss]et " + name + "=false\\b", Matcher.quoteReplacement("leave out " + flag))
        .replaceAll("\\b" + name + "=true\\b", Matcher.quoteReplacement(flag))
        .replaceAll("\\b[Ss]et " + name + "=", Matcher.quoteReplacement("pass " + flag + " "))
        .replaceAll("\\b" + name + "=", Matcher.quoteReplacement(flag + " "));
    return out.replaceAll("'" + name + "'|\\b" + name + "\\b", Matcher.quoteReplacement(flag));
  }
}
