package io.sharestream.spark;

import io.sharestream.common.client.NetworkSettings;
import io.sharestream.common.client.TrustSettings;
import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.parquet.RebaseMode;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TablePath;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.Instants;
import java.io.Serializable;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every option of the {@code deltaSharing} source, case-insensitive: names and docs in one place, parsed into the
 * typed {@link DeltaSharingOptions} the source works with. The stream options ({@code startingVersion},
 * {@code startingTimestamp}, {@code skipChangeCommits}, {@code readChangeFeed}, rebase modes) are the core's
 * {@link StreamOptions}, with the same meaning as in the Kafka connector. An option the source does not know is an
 * error, not silently ignored.
 */
public final class DeltaSharingOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  /** {@code <profile-file>#<share>.<schema>.<table>}, or {@code <share>.<schema>.<table>} with profile options. */
  public static final String PATH = "path";

  // option names; what each means is in OPTIONS
  public static final String MAX_FILES_PER_TRIGGER = "maxFilesPerTrigger";
  public static final int MAX_FILES_PER_TRIGGER_DEFAULT = 1000;
  public static final String MAX_BYTES_PER_TRIGGER = "maxBytesPerTrigger";
  public static final String VERSION_AS_OF = "versionAsOf";
  public static final String TIMESTAMP_AS_OF = "timestampAsOf";
  public static final String ENDING_VERSION = "endingVersion";
  public static final String ENDING_TIMESTAMP = "endingTimestamp";
  public static final String IGNORE_CHANGES = "ignoreChanges";
  public static final String IGNORE_DELETES = "ignoreDeletes";
  public static final String PROXY_HOST = "proxyHost";
  public static final String PROXY_PORT = "proxyPort";
  public static final String PROXY_USER = "proxyUser";
  public static final String PROXY_PASSWORD = "proxyPassword";
  public static final String NO_PROXY_HOSTS = "noProxyHosts";
  public static final String SSL_TRUST_STORE = "sslTrustStore";
  public static final String SSL_TRUST_STORE_PASSWORD = "sslTrustStorePassword";
  public static final String SSL_TRUST_STORE_TYPE = "sslTrustStoreType";

  /** Profile fields given as options instead of a profile file (the reference client's names; {@code type} is the
   *  profile file's name of {@code shareCredentialsType}). */
  public static final List<String> PROFILE_OPTIONS = Arrays.asList("shareCredentialsVersion", "shareCredentialsType",
      "type", "endpoint", "bearerToken", "expirationTime", "tokenEndpoint", "clientId", "clientSecret", "scope",
      "username", "password");

  private static final String INSTANT = " An ISO-8601 instant, or what Spark casts to a timestamp in the session's "
      + "time zone (2024-01-31, 2024-01-31 08:00:00).";

  /** Every option besides {@link #PATH}, in the order errors list them: the parser knows these and no others. */
  static final List<Doc> OPTIONS = Arrays.asList(
      new Doc(MAX_FILES_PER_TRIGGER, String.valueOf(MAX_FILES_PER_TRIGGER_DEFAULT), "Streams: most files per "
          + "micro-batch (Spark admission control)."),
      new Doc(MAX_BYTES_PER_TRIGGER, "", "Streams: a soft byte budget per micro-batch (at least one file always "
          + "passes), a size such as 512m or 1g."),
      new Doc(VERSION_AS_OF, "the latest", "Batch: read the snapshot at this version."),
      new Doc(TIMESTAMP_AS_OF, "", "Batch: read the snapshot as of this instant." + INSTANT),
      new Doc(ENDING_VERSION, "the latest", "Batch with readChangeFeed: the last version of the change range."),
      new Doc(ENDING_TIMESTAMP, "", "Batch with readChangeFeed: the range ends at the last version committed at or "
          + "before this instant." + INSTANT),
      new Doc(IGNORE_CHANGES, "false", "The reference client's option, accepted so that its jobs run unchanged: true "
          + "lets change commits through with their new row images. That is this source's default, and exact (the "
          + "reference emits every row of a file a commit rewrote again, changed or not). No effect with "
          + "skipChangeCommits or readChangeFeed."),
      new Doc(IGNORE_DELETES, "false", "The reference client's option, accepted so that its jobs run unchanged: true "
          + "skips commits that only remove whole files (DELETE, partition drops). By default they emit no row here "
          + "either (a delete has no new row image; with readChangeFeed=true its rows flow as delete, on which this "
          + "option has no effect)."),
      new Doc(StreamOptions.STARTING_VERSION, StreamOptions.STARTING_VERSION_DEFAULT, "Streams: where a query without "
          + "a checkpoint starts: latest (only commits after it starts), snapshot (the rows at the latest version, "
          + "then every later change) or a version N (every change committed at N and after). Batch with "
          + "readChangeFeed: the first version of the change range."),
      new Doc(StreamOptions.STARTING_TIMESTAMP, "", "Instead of startingVersion: the first version committed at or "
          + "after this instant." + INSTANT),
      new Doc(StreamOptions.SKIP_CHANGE_COMMITS, "false", "true: commits that remove or rewrite data (UPDATE, "
          + "DELETE, MERGE, overwrite) are skipped whole; only pure appends flow."),
      new Doc(StreamOptions.READ_CHANGE_FEED, "false", "true: every change flows with its _change_type (insert, "
          + "update_preimage, update_postimage, delete), _commit_version and _commit_timestamp, from the table's "
          + "change data feed where it was recorded and derived from added and removed files where not."),
      new Doc(StreamOptions.READ_CHANGE_DATA, "false", "Alias of readChangeFeed (the reference client's older name)."),
      new Doc(StreamOptions.MAX_VERSIONS_PER_RPC, String.valueOf(StreamOptions.MAX_VERSIONS_PER_RPC_DEFAULT),
          "Most table versions one query or changes request asks for."),
      new Doc(StreamOptions.MAX_FILES_PER_RPC, "none (unpaged)", "Page size (maxFiles) of query and changes requests "
          + "(overrides spark.delta.sharing.queryPagination.enabled)."),
      new Doc(StreamOptions.URL_REFRESH_MARGIN_SECONDS, String.valueOf(
          StreamOptions.URL_REFRESH_MARGIN_SECONDS_DEFAULT), "Seconds before a pre-signed URL's expiry at which it "
          + "is refreshed."),
      new Doc(StreamOptions.PARTITION_TIME_ZONE, "UTC", "Time zone of timestamp partition values written without "
          + "an offset."),
      new Doc(StreamOptions.DATETIME_REBASE_MODE,
          "the session's spark.sql.parquet.datetimeRebaseModeInRead (spark.sql.legacy.parquet... on Spark 3.1)",
          "Dates before 1582-10-15 and INT64 timestamps before 1900 in files that do not say which calendar wrote "
          + "them: EXCEPTION (fail), LEGACY (rebase from the hybrid Julian calendar of Spark 2.x) or CORRECTED (read "
          + "as they are)."),
      new Doc(StreamOptions.INT96_REBASE_MODE,
          "the session's spark.sql.parquet.int96RebaseModeInRead (spark.sql.legacy.parquet... on Spark 3.1)",
          "As datetimeRebaseMode, for INT96 timestamps."),
      new Doc(StreamOptions.RESPONSE_FORMAT, StreamOptions.RESPONSE_FORMAT_DEFAULT, "The answer format asked of "
          + "the server: auto (both: plain tables come as parquet, tables with deletion vectors or column mapping as "
          + "delta), parquet or delta (only that one)."),
      new Doc(StreamOptions.ACCESS_MODE, StreamOptions.ACCESS_MODE_DEFAULT, "Which access reads the table: auto "
          + "(the pre-signed URLs of the server's answers where it offers them, else the table's storage directory "
          + "with temporary credentials the server vends), url or dir (only that one). Directory access reads the "
          + "table's Delta log and files straight from S3, Azure Blob Storage or Google Cloud Storage: the driver and "
          + "the executors must reach the store."),
      new Doc(StreamOptions.S3_ENDPOINT, "AWS", "Directory access: the endpoint of an S3-compatible store in place "
          + "of AWS's (e.g. http://minio:9000)."),
      new Doc(StreamOptions.S3_REGION, "us-east-1", "Directory access: the AWS region S3 requests are signed for: "
          + "the region of the provider's bucket."),
      new Doc(StreamOptions.S3_PATH_STYLE_ACCESS, "false", "Directory access: true addresses S3 buckets in the path "
          + "(endpoint/bucket/key), as most S3-compatible stores need; false by virtual host."),
      new Doc(StreamOptions.AZURE_BLOB_ENDPOINT, "https://<account>.blob.core.windows.net", "Directory access: the "
          + "Azure Blob endpoint; {account} stands for the account (Azurite: http://127.0.0.1:10000/{account})."),
      new Doc(StreamOptions.GCS_ENDPOINT, "https://storage.googleapis.com", "Directory access: the Google Cloud "
          + "Storage endpoint."),
      new Doc(PROXY_HOST, "the session's " + SessionConfs.PROXY_HOST + ", else the JVM's https.proxyHost", "The "
          + "forward proxy this read's requests go through (the API, the OAuth token endpoint and storage alike); "
          + "https:// targets are tunnelled (CONNECT)."),
      new Doc(PROXY_PORT, "the session's " + SessionConfs.PROXY_PORT + ", else 80", "The proxy's port."),
      new Doc(PROXY_USER, "", "The user of the proxy's Basic authentication."),
      new Doc(PROXY_PASSWORD, "", "The password of proxyUser."),
      new Doc(NO_PROXY_HOSTS, "the session's " + SessionConfs.NO_PROXY_HOSTS, "Hosts reached directly, "
          + "comma-separated: a name (also matching its subdomains), .example.com or *.example.com, an IP address, "
          + "or * for all."),
      new Doc(SSL_TRUST_STORE, "the JVM's trust store", "A file with the certificates to trust for this read's "
          + "HTTPS requests: PEM certificates, or a PKCS12 or JKS trust store. Read on the driver and shipped to the "
          + "executors. Host names are verified either way."),
      new Doc(SSL_TRUST_STORE_PASSWORD, "", "The password of a PKCS12 or JKS sslTrustStore."),
      new Doc(SSL_TRUST_STORE_TYPE, "PEM or PKCS12 by content, JKS by a .jks name", "PEM, PKCS12 or JKS."),
      new Doc("shareCredentialsVersion", "", "The profile as options (then the path is <share>.<schema>.<table>): "
          + "its format version, 1 (bearer token) or 2."),
      new Doc("shareCredentialsType", "", "Profile: bearer_token (what version 1 profiles are), "
          + "oauth_client_credentials or basic (version 2 profiles name their type; "
          + "oauth_jwt_bearer_private_key_jwt profiles are read from a profile file)."),
      new Doc("type", "", "Profile: the profile file's name of shareCredentialsType."),
      new Doc("endpoint", "", "Profile: the sharing server's endpoint URL."),
      new Doc("bearerToken", "", "Profile: the bearer token."),
      new Doc("expirationTime", "", "Profile: when the bearer token expires (named in errors)." + INSTANT),
      new Doc("tokenEndpoint", "", "Profile: the OAuth 2 token URL (client-credentials grant)."),
      new Doc("clientId", "", "Profile: the OAuth client id."),
      new Doc("clientSecret", "", "Profile: the OAuth client secret."),
      new Doc("scope", "", "Profile: the OAuth scope, if the token endpoint needs one."),
      new Doc("username", "", "Profile (basic): the user name."),
      new Doc("password", "", "Profile (basic): the password."));

  /** Options that take an instant: ISO-8601 with an offset, or what Spark casts to a timestamp in the session's
   *  time zone ({@code 2024-01-31}, {@code 2024-01-31 08:00:00}), as the reference client reads them. */
  private static final List<String> INSTANT_OPTIONS = Arrays.asList(StreamOptions.STARTING_TIMESTAMP, "timestampAsOf",
      "endingTimestamp", "expirationTime");

  private static final Set<String> KNOWN = known();

  private final DeltaSharingProfile profile;
  private final String profileLocation;
  private final NetworkSettings network;
  private final SessionConfs confs;
  private final TableRef table;
  private final StreamSettings stream;
  private final Map<String, String> streamOptions;
  private final int maxFilesPerTrigger;
  private final Long maxBytesPerTrigger;
  private final Long versionAsOf;
  private final Instant timestampAsOf;
  private final Long startingVersion;
  private final Instant startingTimestamp;
  private final Long endingVersion;
  private final Instant endingTimestamp;

  private DeltaSharingOptions(Map<String, String> given, java.util.function.Function<String, DeltaSharingProfile>
      profileFiles, SessionConfs confs) {
    this.confs = confs;
    Map<String, String> options = withIsoInstants(given, confs.timeZone());
    List<String> unknown = new ArrayList<>();
    for (String k : options.keySet()) {
      if (!KNOWN.contains(k.toLowerCase(Locale.ROOT))) {
        unknown.add(k);
      }
    }
    if (!unknown.isEmpty()) {
      throw new InvalidSettingException("Unknown option" + (unknown.size() > 1 ? "s " : " ") + unknown
          + " for format deltaSharing. Known options: " + knownNames() + ".");
    }
    String path = get(options, PATH);
    if (path == null) {
      throw new InvalidSettingException("Load a table: .load(\"<profile-file>#<share>.<schema>.<table>\"), or "
          + ".load(\"<share>.<schema>.<table>\") with the profile as options (" + PROFILE_OPTIONS + ").");
    }
    Map<String, String> profileFields = new LinkedHashMap<>();
    for (String k : PROFILE_OPTIONS) {
      String v = get(options, k);
      if (v != null) {
        profileFields.put(k.equals("shareCredentialsType") ? "type" : k, v);
      }
    }
    if (profileFields.isEmpty()) {
      TablePath tp = TablePath.parse(path);
      this.profileLocation = tp.profileLocation();
      this.profile = profileFiles.apply(profileLocation);
      this.table = tp.table();
    } else {
      if (path.contains("#")) {
        throw new InvalidSettingException("The profile is given twice: as options " + profileFields.keySet()
            + " and as the file in the path '" + path.substring(0, path.lastIndexOf('#')) + "'. Keep one.");
      }
      this.profileLocation = null;
      this.profile = DeltaSharingProfile.fromMap(profileFields);
      // Spark gives a catalog table's LOCATION as a file URI, under the warehouse directory when relative
      // (file:/.../spark-warehouse/s.sc.t): the table is its last segment
      this.table = TableRef.parse(path.substring(path.lastIndexOf('/') + 1), "The path");
    }
    this.streamOptions = new HashMap<>();
    for (String k : StreamOptions.NAMES) {
      String v = get(options, k);
      if (v != null) {
        streamOptions.put(k, v);
      }
    }
    if (!streamOptions.containsKey(StreamOptions.MAX_FILES_PER_RPC) && confs.filesPerRequest() != null) {
      streamOptions.put(StreamOptions.MAX_FILES_PER_RPC, confs.filesPerRequest().toString());
    }
    this.stream = StreamOptions.parse(streamOptions);
    this.network = network(options, confs);
    checkBoolean(options, IGNORE_CHANGES);
    checkBoolean(options, IGNORE_DELETES);
    String mf = get(options, MAX_FILES_PER_TRIGGER);
    this.maxFilesPerTrigger = mf == null ? MAX_FILES_PER_TRIGGER_DEFAULT : (int) positive(MAX_FILES_PER_TRIGGER, mf);
    String mb = get(options, MAX_BYTES_PER_TRIGGER);
    this.maxBytesPerTrigger = mb == null ? null : bytes(mb);
    this.versionAsOf = version(options, VERSION_AS_OF);
    this.timestampAsOf = instant(options, TIMESTAMP_AS_OF);
    if (versionAsOf != null && timestampAsOf != null) {
      throw new InvalidSettingException("Set either '" + VERSION_AS_OF + "' or '" + TIMESTAMP_AS_OF + "', not both.");
    }
    String sv = get(options, StreamOptions.STARTING_VERSION);
    this.startingVersion = sv == null || !sv.trim().matches("\\d+") ? null : Long.parseLong(sv.trim());
    this.startingTimestamp = instant(options, StreamOptions.STARTING_TIMESTAMP);
    this.endingVersion = version(options, ENDING_VERSION);
    this.endingTimestamp = instant(options, ENDING_TIMESTAMP);
    if (endingVersion != null && endingTimestamp != null) {
      throw new InvalidSettingException("Set either '" + ENDING_VERSION + "' or '" + ENDING_TIMESTAMP + "', not both.");
    }
  }

  /**
   * Parses and checks {@code options} (keys in any case) under the session's {@code confs}; a profile file is read by
   * {@code profileFiles}.
   */
  public static DeltaSharingOptions parse(Map<String, String> options,
      java.util.function.Function<String, DeltaSharingProfile> profileFiles, SessionConfs confs) {
    return new DeltaSharingOptions(options, profileFiles, confs);
  }

  /** {@code options} with each instant option that is not ISO-8601 already as Spark casts it to a timestamp. */
  private static Map<String, String> withIsoInstants(Map<String, String> options, java.time.ZoneId zone) {
    Map<String, String> out = new LinkedHashMap<>(options);
    for (Map.Entry<String, String> e : out.entrySet()) {
      if (e.getValue() != null && INSTANT_OPTIONS.stream().anyMatch(e.getKey()::equalsIgnoreCase)) {
        String v = e.getValue().trim();
        try {
          Instants.parse(v);
        } catch (DateTimeParseException notIso) {
          scala.Option<Object> micros = org.apache.spark.sql.catalyst.util.DateTimeUtils$.MODULE$.stringToTimestamp(
              org.apache.spark.unsafe.types.UTF8String.fromString(v), zone);
          if (micros.isDefined()) {
            long us = (Long) micros.get();
            e.setValue(Instant.ofEpochSecond(Math.floorDiv(us, 1_000_000L), Math.floorMod(us, 1_000_000L) * 1000)
                .toString());
          }
        }
      }
    }
    return out;
  }

  private static Set<String> known() {
    Set<String> k = new TreeSet<>();
    k.add(PATH.toLowerCase(Locale.ROOT));
    OPTIONS.forEach(o -> k.add(o.name.toLowerCase(Locale.ROOT)));
    return k;
  }

  private static String knownNames() {
    List<String> names = new ArrayList<>();
    OPTIONS.forEach(o -> names.add(o.name));
    return names.toString();
  }

  private static String get(Map<String, String> options, String name) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name) && e.getValue() != null && !e.getValue().trim().isEmpty()) {
        return e.getValue().trim();
      }
    }
    return null;
  }

  private static void checkBoolean(Map<String, String> options, String name) {
    String v = get(options, name);
    if (v != null && !v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new InvalidSettingException("'" + name + "' must be true or false, not '" + v + "'.");
    }
  }

  private static long positive(String name, String v) {
    try {
      long n = Long.parseLong(v);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new InvalidSettingException("'" + name + "' must be a positive integer, not '" + v + "'.");
  }

  /** A byte size: a number with an optional unit (b, k, m, g, t; case-insensitive, e.g. {@code 512m}). */
  static long bytes(String v) {
    String s = v.trim().toLowerCase(Locale.ROOT).replaceAll("b$", "");
    long unit = 1;
    if (!s.isEmpty() && "kmgt".indexOf(s.charAt(s.length() - 1)) >= 0) {
      unit = 1L << (10 * ("kmgt".indexOf(s.charAt(s.length() - 1)) + 1));
      s = s.substring(0, s.length() - 1);
    }
    try {
      long n = Long.parseLong(s.trim());
      if (n > 0) {
        return Math.multiplyExact(n, unit);
      }
    } catch (NumberFormatException | ArithmeticException ignored) {
      // reported below
    }
    throw new InvalidSettingException("'" + MAX_BYTES_PER_TRIGGER + "' must be a positive size such as 512m or 1g, "
        + "not '" + v + "'.");
  }

  private static Long version(Map<String, String> options, String name) {
    String v = get(options, name);
    if (v == null) {
      return null;
    }
    try {
      long n = Long.parseLong(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new InvalidSettingException("'" + name + "' must be a version number >= 0, not '" + v + "'.");
  }

  private static Instant instant(Map<String, String> options, String name) {
    String v = get(options, name);
    if (v == null) {
      return null;
    }
    try {
      return Instants.parse(v);
    } catch (DateTimeParseException e) {
      throw new InvalidSettingException("'" + name + "' must be an instant such as 2024-01-31T00:00:00Z or "
          + "2024-01-31 08:00:00 (in the session's time zone), not '" + v + "'.");
    }
  }

  /** The proxy and trust of this read's requests: its options, else the session's confs, else the JVM's. */
  NetworkSettings network() {
    return network;
  }

  private static NetworkSettings network(Map<String, String> options, SessionConfs confs) {
    NetworkSettings n = confs.network();
    String host = get(options, PROXY_HOST);
    if (host != null) {
      String port = get(options, PROXY_PORT);
      n = n.withProxy(new NetworkSettings.ProxyAddress(host, port == null ? 80 : (int) positive(PROXY_PORT, port),
          get(options, PROXY_USER), get(options, PROXY_PASSWORD)));
    } else if (get(options, PROXY_USER) != null && n.httpsProxy() != null) {
      NetworkSettings.ProxyAddress p = n.httpsProxy();
      n = n.withProxy(new NetworkSettings.ProxyAddress(p.host(), p.port(), get(options, PROXY_USER),
          get(options, PROXY_PASSWORD)));
    }
    String noProxy = get(options, NO_PROXY_HOSTS);
    if (noProxy != null) {
      n = n.withNoProxy(Arrays.asList(noProxy.split(",")));
    }
    String trust = get(options, SSL_TRUST_STORE);
    if (trust != null) {
      n = n.withTrust(TrustSettings.file(trust, get(options, SSL_TRUST_STORE_PASSWORD), get(options,
          SSL_TRUST_STORE_TYPE), "Option " + SSL_TRUST_STORE));
    }
    return n;
  }

  /** The profile file's location, or null when the profile is given as options. */
  String profileLocation() {
    return profileLocation;
  }

  public DeltaSharingProfile profile() {
    return profile;
  }

  /** The session confs the read was resolved under. */
  SessionConfs confs() {
    return confs;
  }

  public TableRef table() {
    return table;
  }

  /** The core's stream settings (also the decoding settings of batch reads). */
  public StreamSettings stream() {
    return stream;
  }

  public int maxFilesPerTrigger() {
    return maxFilesPerTrigger;
  }

  /** Null: no byte budget. */
  public Long maxBytesPerTrigger() {
    return maxBytesPerTrigger;
  }

  public Long versionAsOf() {
    return versionAsOf;
  }

  public Instant timestampAsOf() {
    return timestampAsOf;
  }

  /** A numeric startingVersion (batch change reads); null for latest/snapshot or none. */
  public Long startingVersion() {
    return startingVersion;
  }

  public Instant startingTimestamp() {
    return startingTimestamp;
  }

  public Long endingVersion() {
    return endingVersion;
  }

  public Instant endingTimestamp() {
    return endingTimestamp;
  }

  /** The datetime rebase mode when the option is given (else Spark's session setting applies); null otherwise. */
  public RebaseMode datetimeRebaseMode() {
    return streamOptions.containsKey(StreamOptions.DATETIME_REBASE_MODE) ? stream.read().datetimeRebaseMode() : null;
  }

  /** The INT96 rebase mode when the option is given; null otherwise. */
  public RebaseMode int96RebaseMode() {
    return streamOptions.containsKey(StreamOptions.INT96_REBASE_MODE) ? stream.read().int96RebaseMode() : null;
  }

  public boolean readChangeFeed() {
    return stream.readChangeFeed();
  }

  /** Fails when an option meant for batch reads is given to a stream (time travel has no meaning there). */
  void checkForStreaming() {
    if (versionAsOf != null || timestampAsOf != null || endingVersion != null || endingTimestamp != null) {
      throw new InvalidSettingException("'" + VERSION_AS_OF + "', '" + TIMESTAMP_AS_OF + "', '" + ENDING_VERSION
          + "' and '" + ENDING_TIMESTAMP + "' are for batch reads (spark.read); a stream (spark.readStream) starts "
          + "with startingVersion or startingTimestamp and reads on.");
    }
  }

  /** Fails when options only a stream understands meet a batch read that would silently ignore them. */
  void checkForBatch() {
    if (!readChangeFeed() && (streamOptions.containsKey(StreamOptions.STARTING_VERSION)
        || streamOptions.containsKey(StreamOptions.STARTING_TIMESTAMP))) {
      throw new InvalidSettingException("A batch read takes startingVersion/startingTimestamp only with "
          + "readChangeFeed=true (a change range); for a snapshot at a version use versionAsOf or timestampAsOf.");
    }
    if (readChangeFeed() && startingVersion == null && startingTimestamp == null) {
      throw new InvalidSettingException("A batch read with readChangeFeed=true needs the start of the range: set "
          + "startingVersion (a number) or startingTimestamp.");
    }
  }

  /** An option or session conf as the docs show it: its name, its default in words (empty: none) and meaning. */
  static final class Doc {
    final String name;
    final String defaultValue;
    final String meaning;

    Doc(String name, String defaultValue, String meaning) {
      this.name = name;
      this.defaultValue = defaultValue;
      this.meaning = meaning;
    }
  }
}
