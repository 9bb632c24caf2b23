package io.sharestream.kafka;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.client.TableSnapshotInfo;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.EndpointUnreachableException;
import io.sharestream.common.errors.InvalidProfileException;
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
 * credentials, the shares of patterns exist, every selected table exists and is shared with history (a table a
 * pattern selects that cannot be streamed is refused with the advice to exclude it),
 * a starting version is still available, the key columns exist (tables are asked about {@value #TABLES_AT_ONCE} at
 * once, their problems reported in their order). Change data that was not recorded is mentioned in
 * the log only: with {@code readChangeFeed=true} such versions are derived, not refused (SPEC §6).
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
    try (DeltaSharingClient client = new DeltaSharingClient(profile, QUICK.withUserAgent("sharestream-kafka-connect/"
        + Version.get() + " (validate)"))) {
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

  /** One table's problems; a failure of the credentials or of the server ends the whole check. */
  private static List<Problem> checkTable(DeltaSharingClient client, DeltaSharingSourceConfig config,
      StreamSettings settings, TableSelection selection, Map<TableRef, List<String>> keys, TableRef table,
      Map<String, String> props) {
    List<Problem> problems = new ArrayList<>();
    try {
      long latest = client.tableVersion(table);
      TableSnapshotInfo info = client.metadata(table, latest, null); // needs history sharing, as streaming does
      StartingPoint start = config.streamSettings(table).startingPoint();
      if (start.kind() == StartingPoint.Kind.VERSION && start.version() <= latest) {
        client.metadata(table, start.version(), null);
      }
      checkKeys(table, keys.get(table), info.metadata().schema(), problems);
      if (settings.readChangeFeed() && !info.metadata().changeDataFeedEnabled()) {
        LOG.info("{} does not record its change data feed at version {}: with readChangeFeed=true its changes "
            + "are derived from added and removed files (removed files as deletes, added ones as inserts)",
            table, latest);
      }
    } catch (UnauthorizedException | ServerErrorException e) {
      problems.add(new Problem(settingAtFault(props, e, null), e.getMessage(), true));
    } catch (VersionNotAvailableException e) {
      problems.add(new Problem(DeltaSharingSourceConfig.STARTING_VERSION, "table " + table + ": " + e.getMessage()));
    } catch (DeltaSharingException e) {
      boolean named = selection.named().contains(table);
      problems.add(new Problem(selection.selectedBy(table), "table " + table + ": " + e.getMessage() + (named ? ""
          : " Exclude it with " + DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX + " to stream the other tables.")));
    }
    return problems;
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
   * fault (an OAuth refusal names it; an unreachable endpoint is its own; else {@code field}, when not null); with
   * a profile file or JSON, that setting.
   */
  static String settingAtFault(Map<String, String> props, DeltaSharingException e, String field) {
    String credential = CredentialForms.credentialSetting(props);
    if (!credential.equals(DeltaSharingSourceConfig.ENDPOINT)) {
      return credential;
    }
    String atFault = e instanceof OAuthTokenException ? ((OAuthTokenException) e).profileField()
        : e instanceof EndpointUnreachableException ? ((EndpointUnreachableException) e).target().profileField()
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

  static void error(Map<String, ConfigValue> values, String name, String message) {
    values.computeIfAbsent(name, ConfigValue::new).addErrorMessage(message);
  }
}
