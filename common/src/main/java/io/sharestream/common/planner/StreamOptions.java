package io.sharestream.common.planner;

import io.sharestream.common.client.AccessSettings;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.parquet.RebaseMode;
import io.sharestream.common.storage.StorageSettings;
import io.sharestream.common.types.Instants;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;

/**
 * The stream options both engines accept, with the same names and meanings (SPEC §3): names, defaults and docs in
 * one place, and {@link #parse} turning an option map into {@link StreamSettings} with errors that name the option.
 */
public final class StreamOptions {
  private StreamOptions() {}

  /** {@code latest} (default): only commits after the stream starts; {@code snapshot}: the rows at the latest version
   *  when the stream starts, then every later change; an integer N: every change committed at version N and after;
   *  {@code earliest}: as N for the earliest version whose changes the server still serves. */
  public static final String STARTING_VERSION = "startingVersion";
  public static final String STARTING_VERSION_DEFAULT = "latest";

  /** An ISO-8601 instant: as startingVersion=N for the first version committed at or after it. Exclusive with
   *  startingVersion. */
  public static final String STARTING_TIMESTAMP = "startingTimestamp";

  /** {@code true}: commits that remove or rewrite data (UPDATE, DELETE, MERGE, overwrite) are skipped whole; only
   *  pure appends flow. Default false. */
  public static final String SKIP_CHANGE_COMMITS = "skipChangeCommits";

  /** {@code true}: every row carries its change type and commit; deletes and pre-images flow too. Default false. */
  public static final String READ_CHANGE_FEED = "readChangeFeed";

  /** Alias of readChangeFeed accepted for compatibility with the reference client. */
  public static final String READ_CHANGE_DATA = "readChangeData";

  /** Table versions asked per query or changes request. Default 100. */
  public static final String MAX_VERSIONS_PER_RPC = "maxVersionsPerRpc";
  public static final int MAX_VERSIONS_PER_RPC_DEFAULT = 100;

  /** Page size (maxFiles) of query and changes requests; unset: unpaged. */
  public static final String MAX_FILES_PER_RPC = "maxFilesPerRpc";

  /** Seconds before a pre-signed URL's expiry at which it is refreshed. Default 900 (15 minutes). */
  public static final String URL_REFRESH_MARGIN_SECONDS = "urlRefreshMarginSeconds";
  public static final long URL_REFRESH_MARGIN_SECONDS_DEFAULT = 900;

  /** Time zone of timestamp partition values written without an offset. Default UTC. */
  public static final String PARTITION_TIME_ZONE = "partitionTimeZone";

  /** How DATE and INT64 timestamp values before 1582-10-15 / 1900-01-01T00:00:00Z are read from files that do not
   *  say which calendar wrote them: {@code EXCEPTION} (default, as Spark 3.1: fail), {@code LEGACY} (rebase from the
   *  hybrid Julian calendar of Spark 2.x and legacy Hive) or {@code CORRECTED} (read as they are). Files written by
   *  Spark name their calendar and are always read right. */
  public static final String DATETIME_REBASE_MODE = "datetimeRebaseMode";

  /** As {@link #DATETIME_REBASE_MODE}, for INT96 timestamps (Spark 3.1 treats them separately). */
  public static final String INT96_REBASE_MODE = "int96RebaseMode";

  /** The answer format asked of the server: {@code auto} (default: both, so plain tables come as parquet and tables
   *  with deletion vectors or column mapping as delta), {@code parquet} or {@code delta} (only that one). */
  public static final String RESPONSE_FORMAT = "responseFormat";
  public static final String RESPONSE_FORMAT_DEFAULT = "auto";

  /** Which access reads a table: {@code auto} (default: the pre-signed URLs of the server's answers where it offers
   *  them, else the table's storage directory with credentials the server vends), {@code url} or {@code dir} (only
   *  that one: a table not shared so is refused). */
  public static final String ACCESS_MODE = "accessMode";
  public static final String ACCESS_MODE_DEFAULT = "auto";

  /** Directory access: the endpoint of an S3-compatible store, in place of AWS's (e.g. {@code http://minio:9000}). */
  public static final String S3_ENDPOINT = "s3Endpoint";

  /** Directory access: the AWS region requests to S3 are signed for (default {@code us-east-1}). */
  public static final String S3_REGION = "s3Region";

  /** Directory access: {@code true} addresses S3 buckets in the path ({@code endpoint/bucket/key}), as most
   *  S3-compatible stores need; {@code false} (default) by virtual host. */
  public static final String S3_PATH_STYLE_ACCESS = "s3PathStyleAccess";

  /** Directory access: the Azure Blob endpoint, in place of {@code https://<account>.blob.core.windows.net}
   *  ({@code {account}} stands for the account, e.g. Azurite's {@code http://127.0.0.1:10000/{account}}). */
  public static final String AZURE_BLOB_ENDPOINT = "azureBlobEndpoint";

  /** Directory access: the Google Cloud Storage endpoint, in place of {@code https://storage.googleapis.com}. */
  public static final String GCS_ENDPOINT = "gcsEndpoint";

  /** Every option name above, as both engines accept them. */
  public static final java.util.List<String> NAMES = java.util.Collections.unmodifiableList(java.util.Arrays.asList(
      STARTING_VERSION, STARTING_TIMESTAMP, SKIP_CHANGE_COMMITS, READ_CHANGE_FEED, READ_CHANGE_DATA,
      MAX_VERSIONS_PER_RPC, MAX_FILES_PER_RPC, URL_REFRESH_MARGIN_SECONDS, PARTITION_TIME_ZONE, DATETIME_REBASE_MODE,
      INT96_REBASE_MODE, RESPONSE_FORMAT, ACCESS_MODE, S3_ENDPOINT, S3_REGION, S3_PATH_STYLE_ACCESS,
      AZURE_BLOB_ENDPOINT, GCS_ENDPOINT));

  /** Builds settings from options (names above; unknown names are left to the engine). */
  public static StreamSettings parse(Map<String, String> options) {
    String sv = get(options, STARTING_VERSION);
    String st = get(options, STARTING_TIMESTAMP);
    if (sv != null && st != null) {
      throw new InvalidSettingException("Set either '" + STARTING_VERSION + "' or '" + STARTING_TIMESTAMP
          + "', not both.");
    }
    StartingPoint start;
    if (st != null) {
      start = StartingPoint.timestamp(instant(st));
    } else {
      String v = sv == null ? STARTING_VERSION_DEFAULT : sv.trim().toLowerCase(Locale.ROOT);
      if (v.equals("latest")) {
        start = StartingPoint.LATEST;
      } else if (v.equals("snapshot")) {
        start = StartingPoint.SNAPSHOT;
      } else if (v.equals("earliest")) {
        start = StartingPoint.EARLIEST;
      } else {
        long n;
        try {
          n = Long.parseLong(v);
        } catch (NumberFormatException e) {
          throw new InvalidSettingException("'" + STARTING_VERSION + "' must be 'latest', 'snapshot', 'earliest' or a "
              + "version number >= 0, not '" + sv + "'.");
        }
        if (n < 0) {
          throw new InvalidSettingException("'" + STARTING_VERSION + "' cannot be negative: " + n + ".");
        }
        start = StartingPoint.version(n);
      }
    }
    boolean skip = bool(options, SKIP_CHANGE_COMMITS, false);
    boolean cdf = bool(options, READ_CHANGE_FEED, bool(options, READ_CHANGE_DATA, false));
    int versions = (int) positive(options, MAX_VERSIONS_PER_RPC, MAX_VERSIONS_PER_RPC_DEFAULT);
    Integer files = get(options, MAX_FILES_PER_RPC) == null ? null
        : (int) positive(options, MAX_FILES_PER_RPC, 0);
    long margin = positive(options, URL_REFRESH_MARGIN_SECONDS, URL_REFRESH_MARGIN_SECONDS_DEFAULT);
    ZoneId zone;
    try {
      zone = ZoneId.of(get(options, PARTITION_TIME_ZONE) == null ? "UTC" : get(options, PARTITION_TIME_ZONE));
    } catch (RuntimeException e) {
      throw new InvalidSettingException("'" + PARTITION_TIME_ZONE + "' is not a time zone id: '"
          + get(options, PARTITION_TIME_ZONE) + "'.");
    }
    ReadSettings read = new ReadSettings(zone, rebaseMode(options, DATETIME_REBASE_MODE),
        rebaseMode(options, INT96_REBASE_MODE), null);
    ResponseFormat format = ResponseFormat.parse(RESPONSE_FORMAT, get(options, RESPONSE_FORMAT));
    return new StreamSettings(start, skip, cdf, versions, files, Duration.ofSeconds(margin), read, format, false)
        .withAccess(access(options));
  }

  /** The access mode and the storage endpoints. */
  private static AccessSettings access(Map<String, String> options) {
    String m = get(options, ACCESS_MODE);
    AccessSettings.Mode mode = AccessSettings.Mode.parse(m == null ? ACCESS_MODE_DEFAULT : m);
    if (mode == null) {
      throw new InvalidSettingException("'" + ACCESS_MODE + "' must be 'auto', 'url' or 'dir', not '" + m + "'.");
    }
    StorageSettings storage = StorageSettings.defaults().withS3PathStyle(bool(options, S3_PATH_STYLE_ACCESS, false));
    if (get(options, S3_ENDPOINT) != null) {
      storage = storage.withS3Endpoint(endpoint(options, S3_ENDPOINT));
    }
    if (get(options, S3_REGION) != null) {
      storage = storage.withS3Region(get(options, S3_REGION));
    }
    if (get(options, AZURE_BLOB_ENDPOINT) != null) {
      storage = storage.withAzureEndpoint(endpoint(options, AZURE_BLOB_ENDPOINT));
    }
    if (get(options, GCS_ENDPOINT) != null) {
      storage = storage.withGcsEndpoint(endpoint(options, GCS_ENDPOINT));
    }
    return new AccessSettings(mode, storage);
  }

  private static String endpoint(Map<String, String> options, String name) {
    String v = get(options, name);
    if (!v.startsWith("http://") && !v.startsWith("https://")) {
      throw new InvalidSettingException("'" + name + "' must be an http:// or https:// URL, not '" + v + "'.");
    }
    return v;
  }

  private static String get(Map<String, String> options, String name) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name) && e.getValue() != null && !e.getValue().trim().isEmpty()) {
        return e.getValue().trim();
      }
    }
    return null;
  }

  private static RebaseMode rebaseMode(Map<String, String> options, String name) {
    String v = get(options, name);
    return v == null ? RebaseMode.EXCEPTION : RebaseMode.parse(name, v);
  }

  private static boolean bool(Map<String, String> options, String name, boolean dflt) {
    String v = get(options, name);
    if (v == null) {
      return dflt;
    }
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new InvalidSettingException("'" + name + "' must be true or false, not '" + v + "'.");
  }

  private static long positive(Map<String, String> options, String name, long dflt) {
    String v = get(options, name);
    if (v == null) {
      return dflt;
    }
    try {
      long n = Long.parseLong(v);
      if (n <= 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new InvalidSettingException("'" + name + "' must be a positive integer, not '" + v + "'.");
    }
  }

  private static Instant instant(String text) {
    try {
      return Instants.parse(text);
    } catch (DateTimeParseException e) {
      throw new InvalidSettingException("'" + STARTING_TIMESTAMP + "' must be an ISO-8601 instant such as "
          + "2024-01-31T00:00:00Z, not '" + text + "'.");
    }
  }
}
