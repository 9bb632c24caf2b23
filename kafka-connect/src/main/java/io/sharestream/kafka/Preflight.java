package io.sharestream.kafka;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.NetworkSettings;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.client.TableSnapshotInfo;
import io.sharestream.common.errors.AccessDeniedException;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.EndpointUnreachableException;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.errors.OAuthTokenException;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.planner.StartingPoint;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.common.config.ConfigValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a config against the sharing server before it is deployed, reporting each problem on the setting at
 * fault: the profile can be read, an OAuth profile's token endpoint grants a token (its failures on the
 * {@code oauth.*} setting at fault, or the profile's setting), the server is reachable and accepts the
 * credentials, the shares of patterns exist, every table named in {@code tables} exists and is shared with history,
 * a starting version is still available, the key columns exist (tables are asked about {@value #TABLES_AT_ONCE} at
 * once, their problems reported in their order). Tables a pattern selects are the provider's to change: one that
 * cannot be streamed is logged, never a refusal (the task that gets it sets it aside). Change data that was not
 * recorded is mentioned in the log only: with {@code readChangeFeed=true} such versions are derived, not refused
 * (SPEC §6).
 */
final class Preflight {
  private static final Logger LOG = LoggerFactory.getLogger(Preflight.class);
  /** Tables asked about at once: hundreds of tables validate in a few round trips' time, not hundreds. */
  private static final int TABLES_AT_ONCE = 8;
  /** Short: a validate request waits for this. */
  private static final ClientSettings QUICK = ClientSettings.DEFAULT
      .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(20))
      .withRetry(new RetrySettings(2, Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofSeconds(30)));

  private Preflight() {}

  /** Adds errors to {@code values} (by setting name); the config itself is already valid field by field. */
  static void check(Map<String, String> props, Map<String, ConfigValue> values) {
    String credential = CredentialForms.credentialSetting(props);
    DeltaSharingProfile profile;
    try {
      profile = CredentialForms.profile(props);
    } catch (InvalidProfileException e) {
      error(values, credential, e.getMessage());
      return;
    }
    DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(props);
    StreamSettings settings = config.streamSettings();
    NetworkSettings network;
    try {
      network = config.network();
    } catch (InvalidSettingException e) { // a trust file that cannot be read or used: its message names the setting
      String m = e.getMessage();
      error(values, m.substring(0, Math.max(0, m.indexOf(':'))), m);
      return;
    }
    try (DeltaSharingClient client = new DeltaSharingClient(profile, QUICK.withNetwork(network)
        .withAccess(settings.access()).withUserAgent("sharestream-kafka-connect/" + Version.get() + " (validate)"))) {
      try {
        client.authenticate(); // an OAuth profile's token first: its failures are the token endpoint's
      } catch (DeltaSharingException e) {
        error(values, settingAtFault(props, e, "tokenEndpoint"), e.getMessage());
        return;
      }
      checkTables(client, config, settings, values, props);
    }
  }

  private static void checkTables(DeltaSharingClient client, DeltaSharingSourceConfig config,
      StreamSettings settings, Map<String, ConfigValue> values, Map<String, String> props) {
    Map<TableRef, List<String>> keys = config.keyColumns();
    TableSelection selection = config.tableSelection();
    List<TableRef> tables;
    try {
      tables = selection.hasPatterns() ? selection.list(client, false) : selection.named();
    } catch (UnauthorizedException | ServerErrorException e) {
      error(values, settingAtFault(props, e, null), e.getMessage());
      return;
    } catch (DeltaSharingException e) { // a share of <share>.* or <share>.<schema>.* the server does not know
      error(values, DeltaSharingSourceConfig.TABLES, e.getMessage());
      return;
    }
    if (tables.isEmpty()) {
      LOG.info("{} selects no table now; tables added to the shares are picked up as they appear", selection);
    }
    List<CompletableFuture<List<Problem>>> checks = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(TABLES_AT_ONCE, tables.size())),
        r -> {
          Thread t = new Thread(r, "sharestream-validate");
          t.setDaemon(true);
          return t;
        });
    try {
      for (TableRef table : tables) {
        checks.add(CompletableFuture.supplyAsync(() -> checkTable(client, config, settings, selection, keys, table,
            props), pool));
      }
      List<List<Problem>> outcomes = new ArrayList<>();
      for (CompletableFuture<List<Problem>> check : checks) { // every check ends before validate does
        outcomes.add(outcome(check));
      }
      for (List<Problem> problems : outcomes) { // reported in the tables' order, as if asked one by one
        for (Problem p : problems) {
          error(values, p.setting, p.message);
          if (p.endsTheCheck) {
            return;
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Problem> outcome(CompletableFuture<List<Problem>> check) {
    try {
      return check.join();
    } catch (CompletionException e) { // a failure no problem stands for: as it would be thrown checking one by one
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
    }
  }

  /**
   * One table's problems; a failure of the credentials or of the server ends the whole check. Only what the user
   * wrote is refused: a table named in {@code tables} that cannot be read, a start it does not serve, a key column
   * it lacks. What the provider does to tables a pattern selects (history off, a view, a start no longer served) is
   * logged: the running task sets such a table aside, and the config is never refused for it.
   */
  private static List<Problem> checkTable(DeltaSharingClient client, DeltaSharingSourceConfig config,
      StreamSettings settings, TableSelection selection, Map<TableRef, List<String>> keys, TableRef table,
      Map<String, String> props) {
    List<Problem> problems = new ArrayList<>();
    boolean named = selection.named().contains(table);
    try {
      long latest = client.tableVersion(table);
      TableSnapshotInfo info = client.metadata(table, latest, null); // needs history sharing, as streaming does
      checkKeys(table, keys.get(table), info.metadata().schema(), problems);
      StartingPoint start = config.streamSettings(table).startingPoint();
      if (start.kind() == StartingPoint.Kind.VERSION && start.version() <= latest) {
        client.metadata(table, start.version(), null);
      }
      if (settings.readChangeFeed() && !info.metadata().changeDataFeedEnabled()) {
        LOG.info("{} does not record its change data feed at version {}: with readChangeFeed=true its changes "
            + "are derived from added and removed files (removed files as deletes, added ones as inserts)",
            table, latest);
      }
    } catch (UnauthorizedException | ServerErrorException e) {
      if (!(e instanceof AccessDeniedException) || named) {
        problems.add(new Problem(settingAtFault(props, e, null), e.getMessage(), !(e instanceof AccessDeniedException)));
      } else {
        setAsideWhenRunning(table, e);
      }
    } catch (VersionNotAvailableException e) {
      if (named && config.startingUnavailableMode() == StartingUnavailableMode.SET_ASIDE) {
        problems.add(new Problem(DeltaSharingSourceConfig.STARTING_VERSION, "table " + table + ": " + e.getMessage()
            + " Or set " + DeltaSharingSourceConfig.STARTING_OVERRIDES + "=" + table + "=earliest, or "
            + DeltaSharingSourceConfig.STARTING_UNAVAILABLE_MODE + "=earliest to start there at the earliest "
            + "version served."));
      } else if (named) {
        LOG.info("{} does not serve version {} any longer: it starts at the earliest version served ({}=earliest)",
            table, config.streamSettings(table).startingPoint().version(),
            DeltaSharingSourceConfig.STARTING_UNAVAILABLE_MODE);
      } else {
        setAsideWhenRunning(table, e);
      }
    } catch (DeltaSharingException e) {
      if (named) {
        problems.add(new Problem(selection.selectedBy(table), "table " + table + ": " + e.getMessage()));
      } else {
        setAsideWhenRunning(table, e);
      }
    }
    return problems;
  }

  /** A table a pattern selects that cannot be read as things stand: logged, never a refusal of the config. */
  private static void setAsideWhenRunning(TableRef table, DeltaSharingException e) {
    LOG.warn("{} is selected by a pattern but cannot be streamed as things stand; the task that gets it sets it aside "
        + "(exclude it with {} to leave it out): {}", table, DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX,
        e.getMessage());
  }

  /** A problem found, on the setting it is reported on. */
  private static final class Problem {
    final String setting;
    final String message;
    /** The credentials or the server failed: no other table is worth asking about. */
    final boolean endsTheCheck;

    Problem(String setting, String message) {
      this(setting, message, false);
    }

    Problem(String setting, String message, boolean endsTheCheck) {
      this.setting = setting;
      this.message = message;
      this.endsTheCheck = endsTheCheck;
    }
  }

  /**
   * The setting a failure of the credentials or of an endpoint is reported on: with the profile given as settings
   * ({@code endpoint} with {@code bearer.token} or the {@code oauth.*} settings), the one for the profile field at
   * fault (an OAuth refusal names it; an unreachable endpoint is its own; a refused bearer token is
   * {@code bearer.token}; else {@code field}, when not null); with a profile file or JSON, that setting.
   */
  static String settingAtFault(Map<String, String> props, DeltaSharingException e, String field) {
    String credential = CredentialForms.credentialSetting(props);
    String message = String.valueOf(e.getMessage());
    if (e instanceof EndpointUnreachableException && message.contains("HTTP 407")) {
      return DeltaSharingSourceConfig.HTTP_PROXY_USER;
    }
    if (e instanceof EndpointUnreachableException && message.contains("TLS certificate is not trusted")) {
      return DeltaSharingSourceConfig.HTTP_SSL_TRUSTSTORE_LOCATION;
    }
    if (!credential.equals(DeltaSharingSourceConfig.ENDPOINT)) {
      return credential;
    }
    String atFault = e instanceof OAuthTokenException ? ((OAuthTokenException) e).profileField()
        : e instanceof EndpointUnreachableException ? ((EndpointUnreachableException) e).target().profileField()
        : e instanceof UnauthorizedException && given(props, DeltaSharingSourceConfig.BEARER_TOKEN) ? "bearerToken"
        : field;
    if (atFault == null) {
      return credential;
    }
    switch (atFault) {
      case "tokenEndpoint":
        return DeltaSharingSourceConfig.OAUTH_TOKEN_ENDPOINT;
      case "clientId":
        return DeltaSharingSourceConfig.OAUTH_CLIENT_ID;
      case "clientSecret":
        return DeltaSharingSourceConfig.OAUTH_CLIENT_SECRET;
      case "scope":
        return DeltaSharingSourceConfig.OAUTH_SCOPE;
      case "bearerToken":
        return DeltaSharingSourceConfig.BEARER_TOKEN;
      default:
        return credential;
    }
  }

  private static void checkKeys(TableRef table, List<String> keys, StructType schema, List<Problem> problems) {
    if (keys == null) {
      return;
    }
    for (String k : keys) {
      boolean found = schema.fieldNames().stream().anyMatch(k::equalsIgnoreCase);
      if (!found) {
        problems.add(new Problem(DeltaSharingSourceConfig.KEY_COLUMNS, "table " + table + " has no column '" + k
            + "' (columns: " + schema.fieldNames() + ")"));
      }
    }
  }

  private static boolean given(Map<String, String> props, String name) {
    String v = props.get(name);
    return v != null && !v.trim().isEmpty();
  }

  static void error(Map<String, ConfigValue> values, String name, String message) {
    values.computeIfAbsent(name, ConfigValue::new).addErrorMessage(message);
  }
}
