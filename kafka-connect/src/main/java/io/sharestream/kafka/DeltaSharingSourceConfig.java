package io.sharestream.kafka;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.NetworkSettings;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.client.Sleeper;
import io.sharestream.common.client.TrustSettings;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.planner.VersionPolling;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.ProfileSource;
import io.sharestream.common.profile.TableRef;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * Every setting of the connector: names, defaults, validators and docs in one place, and the typed values the
 * connector and its tasks use. The stream options ({@code startingVersion}, {@code startingTimestamp},
 * {@code skipChangeCommits}, {@code readChangeFeed}, the rebase modes) keep the Spark source's names and are parsed by
 * the core's {@link StreamOptions}; Kafka-only settings follow Kafka's dotted convention.
 */
public final class DeltaSharingSourceConfig extends AbstractConfig {
  static final String GROUP_CONNECTION = "Connection";
  static final String GROUP_TABLES = "Tables";
  static final String GROUP_RECORDS = "Topics and records";
  static final String GROUP_POLLING = "Polling";
  static final String GROUP_HTTP = "HTTP";
  static final String GROUP_STORAGE = "Directory access";

  // ------------------------------------------------------------------ connection: exactly one credential form

  public static final String PROFILE_PATH = "profile.path";
  private static final String PROFILE_PATH_DOC = "Path of a Delta Sharing profile file (.share) on every worker, "
      + "of any type the official clients accept (bearer token, oauth_client_credentials, basic, "
      + "oauth_jwt_bearer_private_key_jwt). Read again when it changes (looked at every 10 s, and at once when the "
      + "server refuses the credentials), so replacing the file rotates the credentials without a restart. One "
      + "credential form only: this, profile.json, endpoint + bearer.token, or endpoint + the oauth.* settings.";

  public static final String CREDENTIALS_EXPIRY_WARNING_DAYS = "credentials.expiry.warning.days";
  private static final String CREDENTIALS_EXPIRY_WARNING_DAYS_DOC = "How many days before the profile's bearer "
      + "token expires (its expirationTime) each task logs a warning, once an hour, and its credentials metrics show "
      + "the time left. 0: no warning.";

  public static final String PROFILE_JSON = "profile.json";
  private static final String PROFILE_JSON_DOC = "The profile file's JSON content, inline (kept secret).";

  public static final String ENDPOINT = "endpoint";
  private static final String ENDPOINT_DOC = "The sharing server's endpoint URL, when no profile is given "
      + "(with bearer.token, or with the oauth.* settings).";

  public static final String BEARER_TOKEN = "bearer.token";
  private static final String BEARER_TOKEN_DOC = "Bearer token for endpoint (a version 1 profile's bearerToken).";

  public static final String OAUTH_TOKEN_ENDPOINT = "oauth.token.endpoint";
  private static final String OAUTH_TOKEN_ENDPOINT_DOC = "OAuth 2 token URL for the client-credentials grant.";
  public static final String OAUTH_CLIENT_ID = "oauth.client.id";
  private static final String OAUTH_CLIENT_ID_DOC = "OAuth client id.";
  public static final String OAUTH_CLIENT_SECRET = "oauth.client.secret";
  private static final String OAUTH_CLIENT_SECRET_DOC = "OAuth client secret.";
  public static final String OAUTH_SCOPE = "oauth.scope";
  private static final String OAUTH_SCOPE_DOC = "OAuth scope, if the token endpoint needs one.";

  // ------------------------------------------------------------------ tables and stream options

  public static final String TABLES = "tables";
  private static final String TABLES_DOC = "Comma-separated shared tables, each <share>.<schema>.<table>, or whole "
      + "shares (<share>.*) and schemas (<share>.<schema>.*): their tables as the server lists them, tables added "
      + "later included (see tables.discovery.interval.ms). Each table needs history sharing. Tables are spread "
      + "evenly over up to tasks.max tasks by a hash of their names, so adding or removing tables moves few of the "
      + "others. May be empty when tables.include.regex is set.";

  public static final String TABLES_INCLUDE_REGEX = "tables.include.regex";
  private static final String TABLES_INCLUDE_REGEX_DOC = "Comma-separated Java regular expressions: every table of "
      + "every share the profile grants whose full name <share>.<schema>.<table> one of them matches (whole name, "
      + "case-insensitive; a '.' of the name is matched by '\\.' or '.') is streamed too, as Debezium's "
      + "table.include.list. A regex cannot hold a comma.";

  public static final String TABLES_EXCLUDE_REGEX = "tables.exclude.regex";
  private static final String TABLES_EXCLUDE_REGEX_DOC = "Comma-separated Java regular expressions: tables whose "
      + "full name <share>.<schema>.<table> one of them matches (whole name, case-insensitive) are not streamed, "
      + "whichever setting selected them (named ones too), as Debezium's table.exclude.list.";

  public static final String TABLES_DISCOVERY_INTERVAL_MS = "tables.discovery.interval.ms";
  private static final String TABLES_DISCOVERY_INTERVAL_MS_DOC = "With shares, schemas or include regexes in the "
      + "selection: how often the connector lists the shares for tables that appeared or went away (one request "
      + "per share). A new matching table is streamed from the starting options (startingVersion / "
      + "startingTimestamp), or from its stored offset; a table no longer listed stops, its offset kept. Either "
      + "way the tasks are reconfigured, and tables that stay keep their offsets (and mostly their task). 0: the "
      + "shares are listed once, when the connector starts.";

  public static final String STARTING_VERSION = StreamOptions.STARTING_VERSION;
  private static final String STARTING_VERSION_DOC = "Where a table without stored offsets starts: 'latest' (only "
      + "commits made after the connector starts), 'snapshot' (the rows at the latest version, then every later "
      + "change), a version number N (every change committed at N and after) or 'earliest' (as N for the earliest "
      + "version the server still serves). Unset, with no startingTimestamp either: latest. Stored offsets win over "
      + "it.";

  public static final String STARTING_TIMESTAMP = StreamOptions.STARTING_TIMESTAMP;
  private static final String STARTING_TIMESTAMP_DOC = "An ISO-8601 instant: start at the first version committed "
      + "at or after it. Exclusive with startingVersion.";

  public static final String STARTING_OVERRIDES = "starting.overrides";
  private static final String STARTING_OVERRIDES_DOC = "Per-table starting points, in place of startingVersion and "
      + "startingTimestamp for the tables named: <share>.<schema>.<table>=<start>, comma-separated, a start being "
      + "latest, snapshot, earliest, a version or an ISO-8601 instant. Used, as those are, only by a table without "
      + "stored offsets; a table named need not be selected yet (one the share gains later starts there).";

  public static final String STARTING_UNAVAILABLE_MODE = "starting.unavailable.mode";
  private static final String STARTING_UNAVAILABLE_MODE_DOC = "What a table does when the version it starts at "
      + "(from startingVersion, startingTimestamp, starting.overrides or its stored offset) is no longer served: its "
      + "log was cleaned up, or it was shared from a later version. 'set_aside': the table stops, its state and "
      + "reason in its metrics and the log, while the task's other tables go on. 'earliest': it goes on from the "
      + "earliest version still served, with a warning naming the versions it skips (their changes are not "
      + "delivered). A table that starts at 'earliest' in starting.overrides never meets this.";

  public static final String SKIP_CHANGE_COMMITS = StreamOptions.SKIP_CHANGE_COMMITS;
  private static final String SKIP_CHANGE_COMMITS_DOC = "true: commits that remove or rewrite data (UPDATE, DELETE, "
      + "MERGE, overwrite) are skipped whole; only pure appends flow.";

  public static final String READ_CHANGE_FEED = StreamOptions.READ_CHANGE_FEED;
  private static final String READ_CHANGE_FEED_DOC = "true: every change flows with its change type (insert, "
      + "update_preimage, update_postimage, delete), from the table's change data feed where it was recorded and "
      + "derived from added and removed files where not.";

  public static final String RESPONSE_FORMAT = StreamOptions.RESPONSE_FORMAT;
  private static final String RESPONSE_FORMAT_DOC = "The answer format asked of the server: auto (both: plain "
      + "tables come as parquet, tables with deletion vectors or column mapping as delta), parquet or delta (only "
      + "that one).";

  public static final String ACCESS_MODE = StreamOptions.ACCESS_MODE;
  private static final String ACCESS_MODE_DOC = "Which access reads a table: auto (the pre-signed URLs of the "
      + "server's answers where it offers them, else the table's storage directory with temporary credentials the "
      + "server vends), url or dir (only that one: a table not shared so is set aside). Directory access reads the "
      + "table's Delta log and files straight from S3, Azure Blob Storage or Google Cloud Storage: the workers must "
      + "reach the store.";
  public static final String S3_ENDPOINT = StreamOptions.S3_ENDPOINT;
  public static final String S3_REGION = StreamOptions.S3_REGION;
  public static final String S3_PATH_STYLE_ACCESS = StreamOptions.S3_PATH_STYLE_ACCESS;
  public static final String AZURE_BLOB_ENDPOINT = StreamOptions.AZURE_BLOB_ENDPOINT;
  public static final String GCS_ENDPOINT = StreamOptions.GCS_ENDPOINT;

  public static final String DATETIME_REBASE_MODE = StreamOptions.DATETIME_REBASE_MODE;
  private static final String DATETIME_REBASE_MODE_DOC = "Dates before 1582-10-15 and INT64 timestamps before 1900 "
      + "in files that do not say which calendar wrote them: EXCEPTION (fail, as Spark 3.1), LEGACY (rebase from the "
      + "hybrid Julian calendar of Spark 2.x) or CORRECTED (read as they are).";

  public static final String INT96_REBASE_MODE = StreamOptions.INT96_REBASE_MODE;
  private static final String INT96_REBASE_MODE_DOC = "As datetimeRebaseMode, for INT96 timestamps.";

  public static final String PARTITION_TIME_ZONE = StreamOptions.PARTITION_TIME_ZONE;
  private static final String PARTITION_TIME_ZONE_DOC = "Time zone of timestamp partition values written without "
      + "an offset.";

  // ------------------------------------------------------------------ topics and records

  public static final String TOPIC_PREFIX = "topic.prefix";
  private static final String TOPIC_PREFIX_DOC = "Prefix of every topic name, as ${prefix} in topic.template.";

  public static final String TOPIC_TEMPLATE = "topic.template";
  private static final String TOPIC_TEMPLATE_DOC = "Topic of a table's records, from ${prefix}, ${share}, ${schema} "
      + "and ${table}. Characters a topic name may not hold become '_'.";
  static final String TOPIC_TEMPLATE_DEFAULT = "${prefix}${share}.${schema}.${table}";

  public static final String KEY_COLUMNS = "key.columns";
  private static final String KEY_COLUMNS_DOC = "Record keys: <share>.<schema>.<table>:<column>[,<column>...], "
      + "tables separated by ';'. The key is a struct of those columns; tables not listed get null keys.";

  public static final String TOMBSTONES_ON_DELETE = "tombstones.on.delete";
  private static final String TOMBSTONES_ON_DELETE_DOC = "With readChangeFeed=true, follow each delete of a keyed "
      + "table by a tombstone (same key, null value) so compacted topics drop the row.";

  public static final String TIME_PRECISION_MODE = "time.precision.mode";
  private static final String TIME_PRECISION_MODE_DOC = "How timestamps (microseconds in Delta) are represented: "
      + "'connect' (Connect's Timestamp logical type, milliseconds: sub-millisecond digits are lost), 'micros' "
      + "(int64 microseconds, schema io.sharestream.time.MicroTimestamp / MicroLocalTimestamp for timestamp_ntz) or "
      + "'string' (ISO-8601 text with every digit). micros and string are lossless.";

  public static final String FIELD_NAME_ADJUSTMENT_MODE = "field.name.adjustment.mode";
  private static final String FIELD_NAME_ADJUSTMENT_MODE_DOC = "Field names of values and keys: 'avro' (names "
      + "Avro refuses, as column mapping allows them, made valid: characters outside [A-Za-z0-9_] become '_', a "
      + "leading digit gets a '_' prefix, clashes get _2, _3, ... in column order: 'display name' becomes "
      + "display_name) or 'none' (the table's names exactly, for JSON and other formats that take any name; the Avro "
      + "converter refuses such names). Record (schema) names are valid Avro names either way.";

  public static final String HEARTBEAT_INTERVAL_MS = "heartbeat.interval.ms";
  private static final String HEARTBEAT_INTERVAL_MS_DOC = "When a table's position moves without records (empty, "
      + "skipped or OPTIMIZE versions), a heartbeat record to heartbeat.topic stores the new offset at most this "
      + "often, so a restart does not list those versions again. 0 turns heartbeats off.";

  public static final String HEARTBEAT_TOPIC = "heartbeat.topic";
  private static final String HEARTBEAT_TOPIC_DOC = "Topic of heartbeat records (key: the table; value: its version).";

  // ------------------------------------------------------------------ polling

  public static final String POLL_INTERVAL_MS = "poll.interval.ms";
  private static final String POLL_INTERVAL_MS_DOC = "How often a caught-up table asks the server for new versions "
      + "(less often while it does not change: see poll.interval.max.ms).";

  public static final String POLL_INTERVAL_MAX_MS = "poll.interval.max.ms";
  private static final String POLL_INTERVAL_MAX_MS_DOC = "Longest wait between an unchanging table's version "
      + "requests: while a table has no new version the wait doubles from poll.interval.ms up to this; a new version "
      + "brings it back to poll.interval.ms at once. A table that changes is then seen within poll.interval.ms, one "
      + "quiet for a while within this, and idle tables cost the provider one request each per this interval (200 "
      + "tables at the defaults: 200 requests a minute instead of 1,200). The default, a minute, is a lag after a "
      + "quiet spell that most table-level pipelines tolerate; when it is not set and poll.interval.ms is longer, "
      + "poll.interval.ms. At least poll.interval.ms; equal to it: every interval, without backing off.";

  public static final String BATCH_MAX_ROWS = "batch.max.rows";
  private static final String BATCH_MAX_ROWS_DOC = "Most records one poll() returns (a transaction with exactly-once "
      + "delivery and transaction.boundary=poll), shared in turns by the files the task reads at once (of up to four "
      + "tables; one table at a time with transaction.boundary=connector).";

  public static final String RECORDS_IN_FLIGHT_MAX = "records.in.flight.max";
  private static final String RECORDS_IN_FLIGHT_MAX_DOC = "Most records of the connector the workers hold "
      + "unacknowledged by the broker, shared evenly by its tasks; a poll returns fewer, or none after 100 ms, rather "
      + "than more. The worker keeps each record (about 2 KB of heap with its value, headers, offset and serialized "
      + "bytes) until the broker acknowledges it, and the producer's buffer.memory (32 MB) bounds only serialized "
      + "bytes: without this bound, tasks that read faster than the broker takes fill the worker's heap, and every "
      + "young collection copies what is in flight again (with 4 tasks of 5,000 each, a quarter of the time in the "
      + "scale benchmark). The default, about 10 MB of records, is far more than one produce request carries "
      + "(batch.size, 16 KB per partition), so a task always has records to send.";

  public static final String TRANSACTION_MAX_DURATION_MS = "transaction.max.duration.ms";
  private static final String TRANSACTION_MAX_DURATION_MS_DOC = "With exactly-once delivery and "
      + "transaction.boundary=connector, transactions end with each Delta version and, inside a version, at the end "
      + "of the poll during which one has been open this long (that poll opens no further file; it finishes the file "
      + "being read, up to batch.max.rows records). Keep it below the producer's transaction.timeout.ms (the "
      + "worker's producer.transaction.timeout.ms, default 60000, or producer.override.transaction.timeout.ms, "
      + "which validation checks) with room for reading one file: a version longer than that timeout would "
      + "otherwise fail the task at every restart. 0: at versions only.";
  /** Connect's settings the transaction check reads. */
  static final String TRANSACTION_BOUNDARY = "transaction.boundary";
  static final String TRANSACTION_TIMEOUT_OVERRIDE = "producer.override.transaction.timeout.ms";

  public static final String VERSIONS_PER_REQUEST = "versions.per.request";
  private static final String VERSIONS_PER_REQUEST_DOC = "Most table versions one query or changes request asks for.";

  public static final String FILES_PER_REQUEST = "files.per.request";
  private static final String FILES_PER_REQUEST_DOC = "Page size (maxFiles) of query and changes requests; 0 asks "
      + "for unpaged answers.";

  public static final String FILES_PER_BATCH = "files.per.batch";
  private static final String FILES_PER_BATCH_DOC = "Most files planned at once for a table; their footers are "
      + "fetched ahead while earlier files are read.";

  // ------------------------------------------------------------------ HTTP

  public static final String HTTP_CONNECT_TIMEOUT_MS = "http.connect.timeout.ms";
  public static final String HTTP_REQUEST_TIMEOUT_MS = "http.request.timeout.ms";
  public static final String HTTP_READ_TIMEOUT_MS = "http.read.timeout.ms";
  public static final String HTTP_RETRY_MAX_ATTEMPTS = "http.retry.max.attempts";
  public static final String HTTP_RETRY_BACKOFF_MS = "http.retry.backoff.ms";
  public static final String HTTP_RETRY_BACKOFF_MAX_MS = "http.retry.backoff.max.ms";
  public static final String HTTP_RETRY_MAX_DURATION_MS = "http.retry.max.duration.ms";
  public static final String HTTP_PROXY_URL = "http.proxy.url";
  private static final String HTTP_PROXY_URL_DOC = "The forward proxy every request of this connector goes through "
      + "(the sharing server's API, its OAuth token endpoint and storage downloads alike), e.g. "
      + "http://proxy.example.com:3128; https:// targets are tunnelled (CONNECT). Unset: the worker JVM's proxy "
      + "properties (https.proxyHost, http.proxyHost), if any.";
  public static final String HTTP_PROXY_USER = "http.proxy.user";
  public static final String HTTP_PROXY_PASSWORD = "http.proxy.password";
  public static final String HTTP_PROXY_NO_PROXY_HOSTS = "http.proxy.no.proxy.hosts";
  private static final String HTTP_PROXY_NO_PROXY_HOSTS_DOC = "Hosts reached directly, not through "
      + HTTP_PROXY_URL + ", comma-separated as NO_PROXY lists them: a name (also matching its subdomains), "
      + ".example.com or *.example.com, an IP address, or * for all.";
  public static final String HTTP_SSL_TRUSTSTORE_LOCATION = "http.ssl.truststore.location";
  private static final String HTTP_SSL_TRUSTSTORE_LOCATION_DOC = "A file on every worker with the certificates to "
      + "trust for this connector's HTTPS requests, in place of the JVM's trust store: PEM certificates (the "
      + "authority that signed a corporate TLS-inspecting proxy or the server's own), or a PKCS12 or JKS trust store. "
      + "Host names are verified either way.";
  public static final String HTTP_SSL_TRUSTSTORE_PASSWORD = "http.ssl.truststore.password";
  public static final String HTTP_SSL_TRUSTSTORE_TYPE = "http.ssl.truststore.type";

  /** The settings that form a credential. */
  static final List<String> CREDENTIAL_SETTINGS = List.of(PROFILE_PATH, PROFILE_JSON, ENDPOINT, BEARER_TOKEN,
      OAUTH_TOKEN_ENDPOINT, OAUTH_CLIENT_ID, OAUTH_CLIENT_SECRET, OAUTH_SCOPE);

  /** Valid topic name characters; anything else is replaced. */
  private static final String TOPIC_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";

  private static final String REBASE_MODES = "EXCEPTION, LEGACY, CORRECTED";

  public static final ConfigDef CONFIG_DEF = configDef();

  private final TableSelection tableSelection;

  private static ConfigDef configDef() {
    ConfigDef d = new ConfigDef();
    int o = 0;
    d.define(PROFILE_PATH, Type.STRING, null, Importance.HIGH, PROFILE_PATH_DOC, GROUP_CONNECTION, ++o, Width.LONG,
        "Profile file");
    d.define(PROFILE_JSON, Type.PASSWORD, null, Importance.HIGH, PROFILE_JSON_DOC, GROUP_CONNECTION, ++o, Width.LONG,
        "Profile JSON");
    d.define(ENDPOINT, Type.STRING, null, Importance.HIGH, ENDPOINT_DOC, GROUP_CONNECTION, ++o, Width.LONG,
        "Endpoint");
    d.define(BEARER_TOKEN, Type.PASSWORD, null, Importance.HIGH, BEARER_TOKEN_DOC, GROUP_CONNECTION, ++o,
        Width.LONG, "Bearer token");
    d.define(OAUTH_TOKEN_ENDPOINT, Type.STRING, null, Importance.MEDIUM, OAUTH_TOKEN_ENDPOINT_DOC, GROUP_CONNECTION,
        ++o, Width.LONG, "OAuth token endpoint");
    d.define(OAUTH_CLIENT_ID, Type.STRING, null, Importance.MEDIUM, OAUTH_CLIENT_ID_DOC, GROUP_CONNECTION, ++o,
        Width.MEDIUM, "OAuth client id");
    d.define(OAUTH_CLIENT_SECRET, Type.PASSWORD, null, Importance.MEDIUM, OAUTH_CLIENT_SECRET_DOC, GROUP_CONNECTION,
        ++o, Width.MEDIUM, "OAuth client secret");
    d.define(OAUTH_SCOPE, Type.STRING, null, Importance.LOW, OAUTH_SCOPE_DOC, GROUP_CONNECTION, ++o, Width.MEDIUM,
        "OAuth scope");
    d.define(CREDENTIALS_EXPIRY_WARNING_DAYS, Type.INT, 7, ConfigDef.Range.atLeast(0), Importance.LOW,
        CREDENTIALS_EXPIRY_WARNING_DAYS_DOC, GROUP_CONNECTION, ++o, Width.SHORT, "Expiry warning (days)");

    o = 0;
    d.define(TABLES, Type.LIST, "", new ConfigValidators.TablesValidator(), Importance.HIGH, TABLES_DOC, GROUP_TABLES, ++o,
        Width.LONG, "Tables");
    d.define(TABLES_INCLUDE_REGEX, Type.LIST, "", new ConfigValidators.RegexesValidator(), Importance.MEDIUM, TABLES_INCLUDE_REGEX_DOC,
        GROUP_TABLES, ++o, Width.LONG, "Tables included (regexes)");
    d.define(TABLES_EXCLUDE_REGEX, Type.LIST, "", new ConfigValidators.RegexesValidator(), Importance.MEDIUM, TABLES_EXCLUDE_REGEX_DOC,
        GROUP_TABLES, ++o, Width.LONG, "Tables excluded (regexes)");
    d.define(TABLES_DISCOVERY_INTERVAL_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
        TABLES_DISCOVERY_INTERVAL_MS_DOC, GROUP_TABLES, ++o, Width.SHORT, "Table discovery interval (ms)");
    d.define(STARTING_VERSION, Type.STRING, null, new ConfigValidators.StreamOptionValidator("latest, snapshot, earliest or a version >= 0"),
        Importance.HIGH, STARTING_VERSION_DOC, GROUP_TABLES, ++o, Width.SHORT, "Starting version",
        new ConfigValidators.FixedRecommender("latest", "snapshot", "earliest", "0"));
    d.define(STARTING_TIMESTAMP, Type.STRING, null, new ConfigValidators.StreamOptionValidator("an ISO-8601 instant"), Importance.MEDIUM,
        STARTING_TIMESTAMP_DOC, GROUP_TABLES, ++o, Width.MEDIUM, "Starting timestamp");
    d.define(STARTING_OVERRIDES, Type.STRING, "", new StartingOverrides.Validator(), Importance.MEDIUM,
        STARTING_OVERRIDES_DOC, GROUP_TABLES, ++o, Width.LONG, "Starting points per table");
    d.define(STARTING_UNAVAILABLE_MODE, Type.STRING, StartingUnavailableMode.SET_ASIDE.configValue(),
        ConfigDef.ValidString.in(StartingUnavailableMode.configValues()), Importance.MEDIUM,
        STARTING_UNAVAILABLE_MODE_DOC, GROUP_TABLES, ++o, Width.SHORT, "When a start is no longer served");
    d.define(SKIP_CHANGE_COMMITS, Type.BOOLEAN, false, Importance.MEDIUM, SKIP_CHANGE_COMMITS_DOC, GROUP_TABLES, ++o,
        Width.SHORT, "Skip change commits");
    d.define(READ_CHANGE_FEED, Type.BOOLEAN, false, Importance.MEDIUM, READ_CHANGE_FEED_DOC, GROUP_TABLES, ++o,
        Width.SHORT, "Read change feed");
    d.define(RESPONSE_FORMAT, Type.STRING, StreamOptions.RESPONSE_FORMAT_DEFAULT,
        new ConfigValidators.StreamOptionValidator("auto, parquet, delta"), Importance.LOW, RESPONSE_FORMAT_DOC, GROUP_TABLES, ++o,
        Width.SHORT, "Response format", new ConfigValidators.FixedRecommender("auto", "parquet", "delta"));
    d.define(DATETIME_REBASE_MODE, Type.STRING, "EXCEPTION", new ConfigValidators.StreamOptionValidator(REBASE_MODES), Importance.LOW,
        DATETIME_REBASE_MODE_DOC, GROUP_TABLES, ++o, Width.SHORT, "Datetime rebase mode",
        new ConfigValidators.FixedRecommender("EXCEPTION", "LEGACY", "CORRECTED"));
    d.define(INT96_REBASE_MODE, Type.STRING, "EXCEPTION", new ConfigValidators.StreamOptionValidator(REBASE_MODES), Importance.LOW,
        INT96_REBASE_MODE_DOC, GROUP_TABLES, ++o, Width.SHORT, "INT96 rebase mode",
        new ConfigValidators.FixedRecommender("EXCEPTION", "LEGACY", "CORRECTED"));
    d.define(PARTITION_TIME_ZONE, Type.STRING, "UTC", new ConfigValidators.StreamOptionValidator("a time zone id"), Importance.LOW,
        PARTITION_TIME_ZONE_DOC, GROUP_TABLES, ++o, Width.SHORT, "Partition time zone");

    o = 0;
    d.define(TOPIC_PREFIX, Type.STRING, "", Importance.HIGH, TOPIC_PREFIX_DOC, GROUP_RECORDS, ++o, Width.MEDIUM,
        "Topic prefix");
    d.define(TOPIC_TEMPLATE, Type.STRING, TOPIC_TEMPLATE_DEFAULT, new ConfigValidators.TopicTemplateValidator(), Importance.MEDIUM,
        TOPIC_TEMPLATE_DOC, GROUP_RECORDS, ++o, Width.LONG, "Topic template");
    d.define(KEY_COLUMNS, Type.STRING, "", new KeyColumns.Validator(), Importance.MEDIUM, KEY_COLUMNS_DOC,
        GROUP_RECORDS, ++o, Width.LONG, "Key columns");
    d.define(TOMBSTONES_ON_DELETE, Type.BOOLEAN, true, Importance.MEDIUM, TOMBSTONES_ON_DELETE_DOC, GROUP_RECORDS,
        ++o, Width.SHORT, "Tombstones on delete");
    d.define(TIME_PRECISION_MODE, Type.STRING, TimePrecisionMode.CONNECT.configValue(),
        ConfigDef.ValidString.in(TimePrecisionMode.configValues()), Importance.MEDIUM, TIME_PRECISION_MODE_DOC,
        GROUP_RECORDS, ++o, Width.SHORT, "Time precision mode",
        new ConfigValidators.FixedRecommender(TimePrecisionMode.configValues()));
    d.define(FIELD_NAME_ADJUSTMENT_MODE, Type.STRING, FieldNameAdjustmentMode.AVRO.configValue(),
        ConfigDef.ValidString.in(FieldNameAdjustmentMode.configValues()), Importance.MEDIUM,
        FIELD_NAME_ADJUSTMENT_MODE_DOC, GROUP_RECORDS, ++o, Width.SHORT, "Field name adjustment mode",
        new ConfigValidators.FixedRecommender(FieldNameAdjustmentMode.configValues()));
    d.define(HEARTBEAT_INTERVAL_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
        HEARTBEAT_INTERVAL_MS_DOC, GROUP_RECORDS, ++o, Width.SHORT, "Heartbeat interval (ms)");
    d.define(HEARTBEAT_TOPIC, Type.STRING, "__sharestream-heartbeats", new ConfigDef.NonEmptyString(),
        Importance.LOW, HEARTBEAT_TOPIC_DOC, GROUP_RECORDS, ++o, Width.MEDIUM, "Heartbeat topic");

    o = 0;
    d.define(POLL_INTERVAL_MS, Type.LONG, 10_000L, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
        POLL_INTERVAL_MS_DOC, GROUP_POLLING, ++o, Width.SHORT, "Poll interval (ms)");
    d.define(POLL_INTERVAL_MAX_MS, Type.LONG, 60_000L, ConfigDef.Range.atLeast(1),
        Importance.LOW, POLL_INTERVAL_MAX_MS_DOC, GROUP_POLLING, ++o, Width.SHORT, "Poll interval max (ms)");
    d.define(BATCH_MAX_ROWS, Type.INT, 10_000, ConfigDef.Range.atLeast(1), Importance.MEDIUM, BATCH_MAX_ROWS_DOC,
        GROUP_POLLING, ++o, Width.SHORT, "Max records per poll");
    d.define(RECORDS_IN_FLIGHT_MAX, Type.INT, 5_000, ConfigDef.Range.atLeast(1), Importance.MEDIUM,
        RECORDS_IN_FLIGHT_MAX_DOC, GROUP_POLLING, ++o, Width.SHORT, "Max records in flight");
    d.define(TRANSACTION_MAX_DURATION_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.MEDIUM,
        TRANSACTION_MAX_DURATION_MS_DOC, GROUP_POLLING, ++o, Width.SHORT, "Transaction max duration (ms)");
    d.define(VERSIONS_PER_REQUEST, Type.INT, StreamOptions.MAX_VERSIONS_PER_RPC_DEFAULT, ConfigDef.Range.atLeast(1),
        Importance.LOW, VERSIONS_PER_REQUEST_DOC, GROUP_POLLING, ++o, Width.SHORT, "Versions per request");
    d.define(FILES_PER_REQUEST, Type.INT, 0, ConfigDef.Range.atLeast(0), Importance.LOW, FILES_PER_REQUEST_DOC,
        GROUP_POLLING, ++o, Width.SHORT, "Files per request");
    d.define(FILES_PER_BATCH, Type.INT, 16, ConfigDef.Range.atLeast(1), Importance.LOW, FILES_PER_BATCH_DOC,
        GROUP_POLLING, ++o, Width.SHORT, "Files per batch");

    o = 0;
    d.define(HTTP_CONNECT_TIMEOUT_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(1), Importance.LOW,
        "Connect timeout of HTTP requests.", GROUP_HTTP, ++o, Width.SHORT, "Connect timeout (ms)");
    d.define(HTTP_REQUEST_TIMEOUT_MS, Type.LONG, 320_000L, ConfigDef.Range.atLeast(1), Importance.LOW,
        "Longest wait for an answer's status and headers.", GROUP_HTTP, ++o, Width.SHORT, "Request timeout (ms)");
    d.define(HTTP_READ_TIMEOUT_MS, Type.LONG, 120_000L, ConfigDef.Range.atLeast(1), Importance.LOW,
        "Longest wait for the next bytes of an answer's body before the read is retried.", GROUP_HTTP, ++o,
        Width.SHORT, "Read timeout (ms)");
    d.define(HTTP_RETRY_MAX_ATTEMPTS, Type.INT, 5, ConfigDef.Range.atLeast(1), Importance.LOW,
        "Attempts of a request failing with 429, 5xx, a reset connection or a cut answer (4xx are never retried).",
        GROUP_HTTP, ++o, Width.SHORT, "Retry attempts");
    d.define(HTTP_RETRY_BACKOFF_MS, Type.LONG, 1_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
        "First wait before a retry; doubled each time, with jitter, never below a Retry-After.", GROUP_HTTP, ++o,
        Width.SHORT, "Retry backoff (ms)");
    d.define(HTTP_RETRY_BACKOFF_MAX_MS, Type.LONG, 30_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
        "Longest wait between retries.", GROUP_HTTP, ++o, Width.SHORT, "Retry backoff max (ms)");
    d.define(HTTP_RETRY_MAX_DURATION_MS, Type.LONG, 600_000L, ConfigDef.Range.atLeast(0), Importance.LOW,
        "Give up retrying a request after this long in all.", GROUP_HTTP, ++o, Width.SHORT,
        "Retry max duration (ms)");
    d.define(HTTP_PROXY_URL, Type.STRING, null, new ConfigValidators.ProxyUrlValidator(), Importance.MEDIUM,
        HTTP_PROXY_URL_DOC, GROUP_HTTP, ++o, Width.LONG, "Proxy URL");
    d.define(HTTP_PROXY_USER, Type.STRING, null, Importance.MEDIUM, "The user of " + HTTP_PROXY_URL + "'s Basic "
        + "authentication.", GROUP_HTTP, ++o, Width.MEDIUM, "Proxy user");
    d.define(HTTP_PROXY_PASSWORD, Type.PASSWORD, null, Importance.MEDIUM, "The password of " + HTTP_PROXY_USER
        + " (kept secret).", GROUP_HTTP, ++o, Width.MEDIUM, "Proxy password");
    d.define(HTTP_PROXY_NO_PROXY_HOSTS, Type.LIST, "", Importance.LOW, HTTP_PROXY_NO_PROXY_HOSTS_DOC, GROUP_HTTP,
        ++o, Width.LONG, "No-proxy hosts");
    d.define(HTTP_SSL_TRUSTSTORE_LOCATION, Type.STRING, null, Importance.MEDIUM, HTTP_SSL_TRUSTSTORE_LOCATION_DOC,
        GROUP_HTTP, ++o, Width.LONG, "Trusted certificates");
    d.define(HTTP_SSL_TRUSTSTORE_PASSWORD, Type.PASSWORD, null, Importance.LOW, "The password of a PKCS12 or JKS "
        + HTTP_SSL_TRUSTSTORE_LOCATION + " (kept secret).", GROUP_HTTP, ++o, Width.MEDIUM, "Trust store password");
    d.define(HTTP_SSL_TRUSTSTORE_TYPE, Type.STRING, null, new ConfigValidators.TrustStoreTypeValidator(), Importance.LOW, "The format of " + HTTP_SSL_TRUSTSTORE_LOCATION + ": PEM, PKCS12 or JKS. Unset: PEM "
        + "or PKCS12 by its content, JKS by a .jks name.", GROUP_HTTP, ++o, Width.SHORT, "Trust store type");
    o = 0;
    d.define(ACCESS_MODE, Type.STRING, StreamOptions.ACCESS_MODE_DEFAULT,
        new ConfigValidators.StreamOptionValidator("auto, url, dir"), Importance.LOW, ACCESS_MODE_DOC, GROUP_STORAGE,
        ++o, Width.SHORT, "Access mode", new ConfigValidators.FixedRecommender("auto", "url", "dir"));
    d.define(S3_ENDPOINT, Type.STRING, null, new ConfigValidators.StreamOptionValidator("an http:// or https:// URL"),
        Importance.LOW, "Directory access: the endpoint of an S3-compatible store in place of AWS's "
        + "(e.g. http://minio:9000). Unset: AWS.", GROUP_STORAGE, ++o, Width.LONG, "S3 endpoint");
    d.define(S3_REGION, Type.STRING, "us-east-1", Importance.LOW, "Directory access: the AWS region S3 requests are "
        + "signed for: the region of the provider's bucket.", GROUP_STORAGE, ++o, Width.SHORT, "S3 region");
    d.define(S3_PATH_STYLE_ACCESS, Type.BOOLEAN, false, Importance.LOW, "Directory access: true addresses S3 buckets "
        + "in the path (endpoint/bucket/key), as most S3-compatible stores need; false by virtual host.",
        GROUP_STORAGE, ++o, Width.SHORT, "S3 path-style access");
    d.define(AZURE_BLOB_ENDPOINT, Type.STRING, null,
        new ConfigValidators.StreamOptionValidator("an http:// or https:// URL"), Importance.LOW, "Directory access: "
        + "the Azure Blob endpoint in place of https://<account>.blob.core.windows.net; {account} stands for the "
        + "account (Azurite: http://127.0.0.1:10000/{account}).", GROUP_STORAGE, ++o, Width.LONG,
        "Azure Blob endpoint");
    d.define(GCS_ENDPOINT, Type.STRING, null, new ConfigValidators.StreamOptionValidator("an http:// or https:// URL"),
        Importance.LOW, "Directory access: the Google Cloud Storage endpoint in place of "
        + "https://storage.googleapis.com.", GROUP_STORAGE, ++o, Width.LONG, "GCS endpoint");
    return d;
  }

  public DeltaSharingSourceConfig(Map<String, String> props) {
    super(CONFIG_DEF, props);
    String problem = CredentialForms.credentialProblem(props);
    if (problem != null) {
      throw new ConfigException(CredentialForms.credentialSetting(props), null, problem);
    }
    String ceiling = pollIntervalMaxProblem(props, getLong(POLL_INTERVAL_MS), getLong(POLL_INTERVAL_MAX_MS));
    if (ceiling != null) {
      throw new ConfigException(POLL_INTERVAL_MAX_MS, getLong(POLL_INTERVAL_MAX_MS), ceiling);
    }
    tableSelection = new TableSelection(getList(TABLES), getList(TABLES_INCLUDE_REGEX),
        getList(TABLES_EXCLUDE_REGEX));
  }

  // ------------------------------------------------------------------ typed values

  /** The tables selected by tables, tables.include.regex and tables.exclude.regex. */
  TableSelection tableSelection() {
    return tableSelection;
  }

  /** Zero: the shares are listed once. */
  public Duration tablesDiscoveryInterval() {
    return Duration.ofMillis(getLong(TABLES_DISCOVERY_INTERVAL_MS));
  }

  /** The profile from whichever credential form is configured. */
  public DeltaSharingProfile profile() {
    return CredentialForms.profile(originalsStrings());
  }

  /** Where the profile comes from: a {@value #PROFILE_PATH} file is read again when it changes. */
  public ProfileSource profileSource() {
    String path = getString(PROFILE_PATH);
    return path != null && !path.trim().isEmpty() ? ProfileSource.file(java.nio.file.Paths.get(path.trim()))
        : ProfileSource.fixed(profile());
  }

  /** The core's stream settings, with the connector's starting point. */
  public StreamSettings streamSettings() {
    return streamSettings(null);
  }

  /** The core's stream settings for {@code table}: its own starting point if {@value #STARTING_OVERRIDES} has one. */
  public StreamSettings streamSettings(TableRef table) {
    Map<String, String> options = new HashMap<>();
    for (String name : List.of(STARTING_VERSION, STARTING_TIMESTAMP, SKIP_CHANGE_COMMITS, READ_CHANGE_FEED,
        RESPONSE_FORMAT, DATETIME_REBASE_MODE, INT96_REBASE_MODE, PARTITION_TIME_ZONE, ACCESS_MODE, S3_ENDPOINT,
        S3_REGION, S3_PATH_STYLE_ACCESS, AZURE_BLOB_ENDPOINT, GCS_ENDPOINT)) {
      Object v = get(name);
      if (v != null) {
        options.put(name, v.toString());
      }
    }
    Map<String, String> start = table == null ? null : StartingOverrides.parse(getString(STARTING_OVERRIDES))
        .get(table);
    if (start != null) {
      options.remove(STARTING_VERSION);
      options.remove(STARTING_TIMESTAMP);
      options.putAll(start);
    }
    options.put(StreamOptions.MAX_VERSIONS_PER_RPC, Integer.toString(getInt(VERSIONS_PER_REQUEST)));
    if (getInt(FILES_PER_REQUEST) > 0) {
      options.put(StreamOptions.MAX_FILES_PER_RPC, Integer.toString(getInt(FILES_PER_REQUEST)));
    }
    // a record's value schema can change with the table's: a RENAME or DROP gives a new value schema version
    return StreamOptions.parse(options).evolvingOnRenameOrDrop();
  }

  public ClientSettings clientSettings(Sleeper sleeper) {
    RetrySettings retry = new RetrySettings(getInt(HTTP_RETRY_MAX_ATTEMPTS),
        Duration.ofMillis(getLong(HTTP_RETRY_BACKOFF_MS)),
        Duration.ofMillis(Math.max(getLong(HTTP_RETRY_BACKOFF_MS), getLong(HTTP_RETRY_BACKOFF_MAX_MS))),
        Duration.ofMillis(getLong(HTTP_RETRY_MAX_DURATION_MS)));
    return ClientSettings.DEFAULT.withRetry(retry).withSleeper(sleeper)
        .withTimeouts(Duration.ofMillis(getLong(HTTP_CONNECT_TIMEOUT_MS)),
            Duration.ofMillis(getLong(HTTP_REQUEST_TIMEOUT_MS)), Duration.ofMillis(getLong(HTTP_READ_TIMEOUT_MS)))
        .withUserAgent("sharestream-kafka-connect/" + Version.get())
        .withResponseFormat(streamSettings().responseFormat())
        .withAccess(streamSettings().access())
        .withExpiryWarning(Duration.ofDays(getInt(CREDENTIALS_EXPIRY_WARNING_DAYS)))
        .withNetwork(network());
  }

  /** The proxy and trust of this connector's requests (the worker JVM's where none is set). */
  public NetworkSettings network() {
    NetworkSettings n = NetworkSettings.SYSTEM;
    String proxy = getString(HTTP_PROXY_URL);
    if (proxy != null && !proxy.trim().isEmpty()) {
      Password password = getPassword(HTTP_PROXY_PASSWORD);
      n = n.withProxy(NetworkSettings.ProxyAddress.parse(proxy, getString(HTTP_PROXY_USER),
          password == null ? null : password.value(), HTTP_PROXY_URL)).withNoProxy(getList(HTTP_PROXY_NO_PROXY_HOSTS));
    }
    String trust = getString(HTTP_SSL_TRUSTSTORE_LOCATION);
    if (trust != null && !trust.trim().isEmpty()) {
      Password password = getPassword(HTTP_SSL_TRUSTSTORE_PASSWORD);
      n = n.withTrust(TrustSettings.file(trust.trim(), password == null ? null : password.value(),
          getString(HTTP_SSL_TRUSTSTORE_TYPE), HTTP_SSL_TRUSTSTORE_LOCATION));
    }
    return n;
  }

  /** The topic of {@code table}'s records: the template rendered, illegal characters replaced. */
  public String topic(TableRef table) {
    String t = getString(TOPIC_TEMPLATE).replace("${prefix}", getString(TOPIC_PREFIX))
        .replace("${share}", table.share()).replace("${schema}", table.schema()).replace("${table}", table.table());
    return sanitizeTopic(t);
  }

  static String sanitizeTopic(String name) {
    StringBuilder b = new StringBuilder(name.length());
    for (char c : name.toCharArray()) {
      b.append(TOPIC_CHARS.indexOf(c) >= 0 ? c : '_');
    }
    String s = b.length() > 249 ? b.substring(0, 249) : b.toString();
    return s.equals(".") || s.equals("..") ? "_" + s : s;
  }

  /** Key columns per table (tables without keys absent). */
  public Map<TableRef, List<String>> keyColumns() {
    return KeyColumns.parse(getString(KEY_COLUMNS));
  }

  public boolean tombstonesOnDelete() {
    return getBoolean(TOMBSTONES_ON_DELETE);
  }

  public StartingUnavailableMode startingUnavailableMode() {
    return StartingUnavailableMode.parse(getString(STARTING_UNAVAILABLE_MODE));
  }

  public TimePrecisionMode timePrecisionMode() {
    return TimePrecisionMode.parse(getString(TIME_PRECISION_MODE));
  }

  public FieldNameAdjustmentMode fieldNameAdjustmentMode() {
    return FieldNameAdjustmentMode.parse(getString(FIELD_NAME_ADJUSTMENT_MODE));
  }

  public Duration heartbeatInterval() {
    return Duration.ofMillis(getLong(HEARTBEAT_INTERVAL_MS));
  }

  public String heartbeatTopic() {
    return sanitizeTopic(getString(HEARTBEAT_TOPIC));
  }

  public Duration pollInterval() {
    return Duration.ofMillis(getLong(POLL_INTERVAL_MS));
  }

  /** Version polls every poll.interval.ms, backing off up to poll.interval.max.ms (or the interval if longer). */
  public VersionPolling versionPolling() {
    return VersionPolling.every(pollInterval()).backingOffUpTo(Duration.ofMillis(getLong(POLL_INTERVAL_MAX_MS)));
  }

  /**
   * Whether the connector asks for exactly-once delivery ({@code exactly.once.support} {@code required} or
   * {@code requested}, Connect's own connector setting).
   */
  public boolean exactlyOnceRequested() {
    Object v = originals().get("exactly.once.support");
    return v != null && !"".equals(v.toString().trim()) && !"none".equalsIgnoreCase(v.toString().trim());
  }

  public int batchMaxRows() {
    return getInt(BATCH_MAX_ROWS);
  }

  /** This task's share of {@value #RECORDS_IN_FLIGHT_MAX} (the whole of it outside a connector's task configs). */
  public int recordsInFlightMax() {
    String share = originalsStrings().get(DeltaSharingSourceConnector.TASK_RECORDS_IN_FLIGHT);
    return share != null ? Integer.parseInt(share) : getInt(RECORDS_IN_FLIGHT_MAX);
  }

  /** Zero: connector-defined transactions end at versions only. */
  public Duration transactionMaxDuration() {
    return Duration.ofMillis(getLong(TRANSACTION_MAX_DURATION_MS));
  }

  public int filesPerBatch() {
    return getInt(FILES_PER_BATCH);
  }

  // ------------------------------------------------------------------ parsing shared with validation

  /** Why poll.interval.max.ms, as set in {@code props}, is below {@code interval}; null when it is not. */
  static String pollIntervalMaxProblem(Map<String, String> props, long interval, long max) {
    if (!props.containsKey(POLL_INTERVAL_MAX_MS) || max >= interval) {
      return null; // unset, the default gives way to a longer interval
    }
    return "must be at least " + POLL_INTERVAL_MS + " (" + interval + " ms); equal to it, a table asks for new "
        + "versions every interval without backing off";
  }
}
