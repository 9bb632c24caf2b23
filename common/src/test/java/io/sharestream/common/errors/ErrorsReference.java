package io.sharestream.common.errors;

import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.profile.DeltaSharingProfile;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Writes {@code docs/errors.md}: each exception type of this package with when it happens and what to do, and the
 * messages users meet, made by calling {@link Errors} (and a few other raisers) with placeholders such as
 * {@code {what}}, so the documented text is the code's.
 */
final class ErrorsReference {
  static final String FILE = "docs/errors.md";
  static final String REGENERATE = "mvn -pl common test -Dtest=ErrorsReferenceTest -Ddocs.write=true";

  /** An error type, what makes it and what to do. */
  static final class Kind {
    final Class<? extends DeltaSharingException> type;
    final String when;
    final String fix;

    Kind(Class<? extends DeltaSharingException> type, String when, String fix) {
      this.type = type;
      this.when = when;
      this.fix = fix;
    }
  }

  /** A message as a raiser words it: {@code method} is the {@link Errors} factory called, null for other raisers. */
  static final class Example {
    final String method;
    final String raiser;
    final String label;
    final Supplier<DeltaSharingException> make;

    Example(String method, String raiser, String label, Supplier<DeltaSharingException> make) {
      this.method = method;
      this.raiser = raiser;
      this.label = label;
      this.make = make;
    }
  }

  static final List<Kind> KINDS = List.of(
      new Kind(InvalidSettingException.class, "An option (Spark), a setting (Kafka) or a Spark session conf has a "
          + "bad value, or two that exclude each other are both set; an unknown Spark option is one too. The "
          + "message names it and what is accepted.", "Correct the value as the message says: see the "
          + "[Spark options](spark-options.md) and the [connector configuration](kafka-connect-config.md). The "
          + "connector reports it as a `ConfigException` on the setting."),
      new Kind(InvalidProfileException.class, "The profile (file, `profile.json`, the connector's credential "
          + "settings or Spark's profile options) cannot be read, is not JSON, or lacks or misstates a field.",
          "Use the profile file the data provider gave: `shareCredentialsVersion` 1 with `endpoint` and "
          + "`bearerToken`, or 2 with `type` `oauth_client_credentials`, `tokenEndpoint`, `clientId` and "
          + "`clientSecret`. `profile.path` must exist on every Connect worker; Spark reads the path with the "
          + "cluster's Hadoop file systems."),
      new Kind(UnauthorizedException.class, "The sharing server rejected the credentials (HTTP 401; a "
          + "table denied with HTTP 403 is its subclass `AccessDeniedException`); also the OAuth token endpoint "
          + "refusing the client credentials, and storage refusing a file even with a freshly signed URL.", "Ask "
          + "the data provider for a new profile when the token expired; check `clientId`, `clientSecret` and "
          + "`scope` for OAuth. Storage refusals with fresh URLs point at clocks that disagree."),
      new Kind(AccessDeniedException.class, "The sharing server denied this recipient one table (HTTP 403) while "
          + "accepting its credentials: the provider revoked access to it, or never granted it (an "
          + "`UnauthorizedException`).", "Ask the data provider to grant the table again. The connector sets the "
          + "table aside and goes on with its other tables; a task restart tries it again."),
      new Kind(OAuthTokenException.class, "The OAuth token endpoint of a version 2 profile refused the client "
          + "credentials or the scope, or answered without a usable access token (an `UnauthorizedException`). The "
          + "message names the token endpoint.", "Check the profile field the message names (`clientId`, "
          + "`clientSecret`, `scope`, `tokenEndpoint`); the connector reports it on the matching `oauth.*` setting "
          + "when the profile is given as settings."),
      new Kind(TableNotFoundException.class, "The share, schema or table does not exist for this recipient "
          + "(HTTP 404).", "Check `<share>.<schema>.<table>` against what the provider shared (the server's "
          + "`/shares` listing), and that the share is granted to this recipient. A 404 that is not a protocol "
          + "error means the profile's endpoint is wrong (its host or path)."),
      new Kind(HistoryNotSharedException.class, "The table is shared without history: streams and reads by "
          + "version or timestamp need it.", "Ask the data provider to share the table `WITH HISTORY`."),
      new Kind(SharedViewException.class, "The table is a shared view or materialized view: the server answers it "
          + "without a table version, so it has no history. A stream of it is refused at its start (the connector's "
          + "validation and task start, a Spark query's start), as are reads by version or timestamp and change "
          + "reads.", "Read it in batch (`spark.read.format(\"deltaSharing\")`, the CLI's `head`), or ask the data "
          + "provider to share the underlying table with history."),
      new Kind(VersionNotAvailableException.class, "A version the read needs is no longer served (its log was "
          + "cleaned up, or it is before the version the table is shared from), or a data file was removed from "
          + "storage (VACUUM) before it was read.", "Start from a later version: a newer `startingVersion` with a "
          + "new Spark checkpoint; for the connector, a newer `startingVersion` and the table's offset reset "
          + "(`PATCH /connectors/{name}/offsets` with a null offset, connector stopped)."),
      new Kind(ChangeDataNotRecordedException.class, "`readChangeFeed=true` needs change data of a version the "
          + "table did not record it for.", "Read from a version after the provider enabled the change data feed, "
          + "or without `readChangeFeed`."),
      new Kind(DeltaFormatRequiredException.class, "The table needs the `delta` response format (deletion vectors, "
          + "column mapping) but `responseFormat=parquet` asks for parquet only, or the server cannot answer in "
          + "delta.", "Set `responseFormat=auto` (the default) or `delta`; a server without the delta format "
          + "cannot serve such a table: ask the data provider."),
      new Kind(UnsupportedTableFeatureException.class, "The table needs a Delta reader version or feature this "
          + "product does not read (it reads deletion vectors, column mapping, timestamps without time zone, type "
          + "widening and variants, shredded or not), or a data file holds a shredded variant a Spark before 4.1 "
          + "cannot read.", "Ask the data provider to share the table (or a copy) without the feature; for a shredded "
          + "variant, read it on Spark 4.1 or later, or with the connector or the CLI."),
      new Kind(AmbiguousCalendarException.class, "A data file holds dates before 1582-10-15 or timestamps before "
          + "1900 and does not say which calendar wrote them, under the default rebase mode `EXCEPTION`.",
          "Set `datetimeRebaseMode` (or `int96RebaseMode` for INT96 timestamps) to `LEGACY` when the file comes "
          + "from Spark 2.x or legacy Hive, else `CORRECTED`."),
      new Kind(InvalidDeletionVectorException.class, "A deletion vector is corrupt (checksum, magic number, size), "
          + "lies past its file's end or disagrees with its descriptor; no row of its file was emitted.",
          "Ask the data provider to check the table."),
      new Kind(InvalidDataFileException.class, "A data file does not hold what the table's metadata says (no "
          + "column under the physical names of a column-mapped table, fewer bytes than its footer needs, a variant "
          + "not in the Variant encoding).",
          "Ask the data provider to check the table."),
      new Kind(IncompatibleSchemaChangeException.class, "The table's schema changed at a version in a way the "
          + "running stream cannot read with the schema it started with; it stops before that version.",
          "Restart the query or the connector task: it goes on from its checkpoint/offsets with the new schema. If "
          + "that fails again, start from new checkpoint/offsets with a chosen `startingVersion`."),
      new Kind(TableRecreatedException.class, "The table behind the name has a new id: it was dropped and created "
          + "again, and positions in the old one do not apply.", "Delete the checkpoint (Spark) or reset the "
          + "table's offset (`PATCH /connectors/{name}/offsets`), choosing `startingVersion` for the new table."),
      new Kind(InvalidPositionException.class, "A stored position (Spark checkpoint offset, Kafka source offset) "
          + "cannot be used: not this source's format, another table's, or moving backwards.", "Restore the "
          + "offsets, or start from a new checkpoint; the connector's can be written or reset with "
          + "`PATCH /connectors/{name}/offsets` (connector stopped), and are checked against the table."),
      new Kind(ServerErrorException.class, "The server kept failing (HTTP 429, 5xx, resets, cut answers) through "
          + "every retry, or reported a failure in its answer.", "The connector logs it and tries the table again "
          + "a `poll.interval.ms` later from its last record; a Spark query fails: restart it from its "
          + "checkpoint. Raise the retry limits (`http.retry.*`; `spark.delta.sharing.network.numRetries`, "
          + "`.maxRetryDuration`) for a server that needs longer to recover."),
      new Kind(EndpointUnreachableException.class, "The sharing server, the OAuth token endpoint or the table's "
          + "storage could not be reached through every retry: connection refused, unknown host, connect timeout "
          + "(a `ServerErrorException`). The message names the URL tried (without its query; only the host for "
          + "storage).", "Check the URL against the profile's `endpoint` or `tokenEndpoint`, that the server is up, "
          + "and that this machine reaches it (network, proxy, firewall). The connector reports it on the setting "
          + "of that URL, and while streaming tries again a `poll.interval.ms` later."),
      new Kind(InvalidRequestException.class, "The server refused a request as invalid (HTTP 400) for a reason "
          + "without a more specific type, or answered another unexpected status.", "The server's words in the "
          + "message say why; a value the server refuses (a version or timestamp) is fixed in the options."),
      new Kind(ProtocolViolationException.class, "The server's answer does not follow the Delta Sharing protocol; "
          + "also, for tables read straight from their storage, temporary credentials that cannot be used, a storage "
          + "location of no object store read here, or a storage listing that is not the store's.",
          "Report the message to the data provider (or the server's maintainers); for a listing through an emulator "
          + "or an S3-compatible server, check the storage endpoint settings."),
      new Kind(CancelledException.class, "A request or read was cut short because its client was closed: a "
          + "connector task or query stopping.", "None: it is not reported as a failure."),
      new Kind(DeltaSharingException.class, "The base of every type above; raised as such only when a request or "
          + "retry wait is interrupted (a task or query stopping).", "None, when the engine was stopping."));

  static final List<Example> EXAMPLES = List.of(
      other("`StreamOptions`", "a bad value", () -> StreamOptions.parse(
          Map.of(StreamOptions.STARTING_VERSION, "{value}"))),
      other("`StreamOptions`", "exclusive options", () -> StreamOptions.parse(
          Map.of(StreamOptions.STARTING_VERSION, "1", StreamOptions.STARTING_TIMESTAMP, "2024-01-31T00:00:00Z"))),
      other("`DeltaSharingProfile`", "no file", () -> DeltaSharingProfile.fromFile(Path.of("{file}"))),
      other("`DeltaSharingProfile`", "a field missing", () -> DeltaSharingProfile.fromJson(
          "{\"shareCredentialsVersion\": 1}")),
      factory("fromResponse", "HTTP 401", 401, "{server message}", "{what}", null),
      factory("fromResponse", "HTTP 401, token expired", 401, "{server message}", "{what}", Instant.EPOCH),
      factory("fromResponse", "HTTP 403", 403, "{server message}", "{what}", null),
      factory("fromResponse", "HTTP 404", 404, "{\"errorCode\": \"RESOURCE_DOES_NOT_EXIST\", \"message\": "
          + "\"{server message}\"}", "{what}", null),
      factory("fromResponse", "HTTP 404, not a protocol error", 404, "<html>Not Found</html>", "{what}", null),
      factory("historyNotShared", "HTTP 400: history sharing is not enabled", "{what}", "{server message}"),
      factory("fromResponse", "HTTP 400: version no longer served", 400, "Cannot load table version 3: it is "
          + "before the earliest available version 5.", "{what}", null),
      factory("fromResponse", "HTTP 400: change data not recorded", 400,
          "Error getting change data for range [3, 5] as change data was not recorded for version [3]",
          "changes of {table}", null),
      factory("sharedView", "a view answered without a version", "{table}", "{what}"),
      factory("asyncQueryFailed", "an asynchronous query reported failed", "{what}", "{query id}",
          json("{\"queryId\": \"{query id}\", \"status\": \"failed\", \"errorMessage\": \"{server message}\"}")),
      factory("asyncQueryFailed", "an asynchronous query refused as a bad request", "{what}", "{query id}",
          json("{\"queryId\": \"{query id}\", \"status\": \"failed\", \"errorCode\": "
              + "\"INVALID_PARAMETER_VALUE\", \"errorMessage\": \"{server message}\"}")),
      factory("asyncQueryTimedOut", "an asynchronous query still pending", "{what}", "{query id}",
          java.time.Duration.ofMinutes(10)),
      factory("fileIdsChanged", "a resume inside a version whose file ids changed", "{table}", 7L, 3L),
      factory("unverifiablePosition", "an older release's position inside a version", "{table}", 7L, 3L,
          "{how to go on in this engine}"),
      factory("deltaFormatRequired", "HTTP 400 asking for the delta format", "{what}", "{server message}"),
      factory("deltaFormatUnsupported", "a parquet answer for a delta table", "{what}", 3),
      factory("unsupportedFeature", "a reader feature not read", "{what}", "reader feature {feature}"),
      factory("ambiguousCalendar", "old dates", "{file}", "{column}", "dates before 1582-10-15",
          StreamOptions.DATETIME_REBASE_MODE),
      factory("invalidDeletionVector", "a bad vector", "{file}", "{problem}", null),
      factory("physicalColumnsMissing", "a column-mapped file", "{file}", List.of("{physical names}"),
          List.of("{file's columns}")),
      factory("malformedVariant", "a variant not in the Variant encoding", "{file}", "{column}", "{problem}"),
      factory("versionAfterLatest", "a version or time after the latest", "{what}", 12L, ""),
      factory("changeDataNotRecorded", "a directory-access range without change data", "{table}", 3L),
      factory("storageRefused", "storage refusing vended credentials", "{table}", "{what}", 403,
          "<Error><Code>AccessDenied</Code><Message>{storage message}</Message></Error>"),
      factory("storageRefused", "storage refusing otherwise", "{table}", "{what}", 404, ""),
      factory("accessModeRefused", "a table not shared for the access asked", "{table}",
          new io.sharestream.common.model.TableAccess(java.util.EnumSet.of(
              io.sharestream.common.model.TableAccess.Mode.DIR), "s3://{bucket}/{path}", List.of()), "url"),
      factory("logUnreadable", "a directory-access table whose log cannot be read", "{table}", "{problem}"),
      factory("logVersionUnavailable", "a directory-access version cleaned up from the log", "{table}", 7L, 12L),
      factory("shreddedVariant", "a shredded variant on a Spark that does not read them", "{file}", "{column}",
          "{spark}"),
      other("`Position`", "a stored offset", () -> Position.fromJson("{value}")),
      factory("retriesExhausted", "every attempt failed", "{what}", 5, new IOException("{failure}")),
      factory("unreachable", "the sharing server", EndpointUnreachableException.Target.SHARING_SERVER,
          "https://{host}:{port}/{path}", "{what}", 5, "connection refused", null),
      factory("unreachable", "the OAuth token endpoint", EndpointUnreachableException.Target.OAUTH_TOKEN_ENDPOINT,
          "https://{host}:{port}/{path}", "the access token request", 5, "unknown host {host}", null),
      factory("unreachable", "storage", EndpointUnreachableException.Target.STORAGE,
          "https://{storage host}/{path}?{signature}", "{what}", 5, "connect timed out after 30000 ms", null),
      factory("oauthRefused", "HTTP 401: invalid_client", "https://{token endpoint}", 401,
          "{\"error\":\"invalid_client\"}"),
      factory("oauthRefused", "HTTP 400: invalid_scope", "https://{token endpoint}", 400,
          "{\"error\":\"invalid_scope\",\"error_description\":\"{server message}\"}"),
      factory("oauthRefused", "HTTP 400: unauthorized_client", "https://{token endpoint}", 400,
          "{\"error\":\"unauthorized_client\"}"),
      factory("oauthRefused", "HTTP 404: not a token endpoint", "https://{token endpoint}", 404, ""),
      factory("oauthBadAnswer", "no access token", "https://{token endpoint}", "without an access_token"),
      factory("oauthFailing", "every attempt failed", "https://{token endpoint}", 5, new IOException("{failure}")),
      factory("fromResponse", "HTTP 429 or 5xx, not retried", 503, "{server message}", "{what}", null),
      factory("fromResponse", "HTTP 400, other", 400, "{server message}", "{what}", null),
      factory("fromResponse", "any other status", 409, "{server message}", "{what}", null),
      factory("protocol", "a bad answer", "{what}", "{problem}"),
      factory("unexpectedFormat", "a format not asked for", "{what}", "delta", "parquet"),
      factory("unusableStorageCredentials", "temporary credentials with a field missing",
          "the field awsTempCredentials.secretAccessKey is missing or empty"),
      factory("unusableStorageCredentials", "temporary credentials of an unknown kind", "they are of a kind this "
          + "reader does not know (fields: {fields}; known kinds: awsTempCredentials, azureUserDelegationSas, "
          + "gcpOauthToken)"),
      factory("unsupportedStorageLocation", "a location of another scheme", "{location}",
          "its scheme '{scheme}' is not one of an object store this reader reaches"),
      factory("unreadableStorageListing", "a listing answer that is not the store's", "Amazon S3",
          "its root element is <Error>, not <ListBucketResult>"),
      factory("cancelled", "a client closed", "{what}"));

  private ErrorsReference() {}

  static String markdown() {
    StringBuilder b = new StringBuilder()
        .append("# Errors and what to do\n\n")
        .append("<!-- Generated from Errors by ErrorsReferenceTest; do not edit. Regenerate: `").append(REGENERATE)
        .append("`. -->\n\n")
        .append("Every error of the core is a `").append(DeltaSharingException.class.getName()).append("` of a ")
        .append("type below. Its message says what went wrong and what to do, and never holds tokens, client ")
        .append("secrets or pre-signed URL query strings. In the messages below, `{...}` marks what varies: the ")
        .append("request (`query of <share>.<schema>.<table>`, ...), table, file; the server's words shown are ")
        .append("examples.\n\n")
        .append("- **Kafka connector**: a bad config is refused by `PUT /connector-plugins/")
        .append("DeltaSharingSourceConnector/config/validate` and at creation as a `ConfigException` on the ")
        .append("setting (see [below](#connector-configuration-errors)). While streaming, a failure stops the task ")
        .append("with `ConnectException: Streaming <table> failed: <message>` (task state `FAILED`, the trace in ")
        .append("`GET /connectors/{name}/status`); after the fix, restart it with ")
        .append("`POST /connectors/{name}/tasks/{id}/restart`. `ServerErrorException` does not stop the task.\n")
        .append("- **Spark**: errors of options, profile and table come from `load()` or the query's start as the ")
        .append("exception itself; errors while reading fail the query with a `StreamingQueryException` (streams) ")
        .append("or a `SparkException` (batch) whose cause is the exception below.\n\n");
    for (Kind k : KINDS) {
      String name = k.type.getSimpleName();
      b.append("- [`").append(name).append("`](#").append(name.toLowerCase(Locale.ROOT)).append(")\n");
    }
    for (Kind k : KINDS) {
      b.append("\n## `").append(k.type.getSimpleName()).append("`\n\n").append(k.when).append("\n\n**Fix:** ")
          .append(k.fix).append("\n");
      boolean header = false;
      for (Example e : EXAMPLES) {
        DeltaSharingException made = e.make.get();
        if (made.getClass() != k.type) {
          continue;
        }
        if (!header) {
          b.append("\n| raised by | case | message |\n|---|---|---|\n");
          header = true;
        }
        b.append("| ").append(e.raiser).append(" | ").append(e.label).append(" | ")
            .append(text(made.getMessage().replace(Instant.EPOCH.toString(), "{expirationTime}"))).append(" |\n");
      }
    }
    b.append("\n## Connector configuration errors\n\n")
        .append("The connector checks its config before it runs; each problem is a `ConfigException` on the ")
        .append("setting at fault (`Invalid value <value> for configuration <setting>: <reason>` at creation, the ")
        .append("setting's error messages in a validate answer):\n\n")
        .append("- a value outside the setting's valid values ([configuration](kafka-connect-config.md));\n")
        .append("- no credential form, more than one, or an incomplete one: on the first credential setting given ")
        .append("(`profile.path` when none);\n")
        .append("- `startingVersion` and `startingTimestamp` both set: on `startingTimestamp`;\n")
        .append("- validate only, against the server: a profile that cannot be read, an unreachable server or ")
        .append("credentials refused on the credential setting (`endpoint` when the profile is given as settings); ")
        .append("an OAuth failure (credentials or scope refused, token endpoint unreachable or not answering a ")
        .append("token) on the `oauth.*` setting at fault when the profile is given as settings, else on ")
        .append("`profile.path` / `profile.json`; a missing table or one without history on `tables`, a starting ")
        .append("version no ")
        .append("longer served on `startingVersion`, a key column the table lacks or a key table not in `tables` ")
        .append("on `key.columns`.\n\n")
        .append("Other connector errors are `ConnectException`s naming the fix: a key column missing when the task ")
        .append("starts (`fix key.columns`), and a refused `PATCH /connectors/{name}/offsets` (a table not ")
        .append("configured, an offset past the table's latest version). Spark refuses a user-given schema ")
        .append("(`IllegalArgumentException`: remove `.schema(...)`) and fails a query whose table was recreated ")
        .append("while it was planned (`IllegalStateException`: start it again).\n");
    return b.toString();
  }

  /** The {@link Errors} factory {@code method} called with {@code args}. */
  private static Example factory(String method, String label, Object... args) {
    return new Example(method, "`Errors." + method + "`", label, () -> {
      Method m = Arrays.stream(Errors.class.getMethods())
          .filter(c -> c.getName().equals(method) && c.getParameterCount() == args.length).findFirst()
          .orElseThrow(() -> new IllegalStateException("no Errors." + method + " with " + args.length + " args"));
      try {
        return (DeltaSharingException) m.invoke(null, args);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("Errors." + method + " failed", e);
      }
    });
  }

  private static com.fasterxml.jackson.databind.JsonNode json(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The error {@code raise} throws. */
  private static Example other(String raiser, String label, Supplier<Object> raise) {
    return new Example(null, raiser, label, () -> {
      try {
        raise.get();
      } catch (DeltaSharingException e) {
        return e;
      }
      throw new IllegalStateException(raiser + " raised nothing for " + label);
    });
  }

  /** Text fit for a table cell: '<' would open an HTML tag, '|' end the cell, a leading '_' start emphasis. */
  private static String text(String s) {
    return s.replace("|", "\\|").replace("<", "\\<").replaceAll("(?<!\\w)_", "\\\\_");
  }

  /** The Errors factories the examples call. */
  static List<String> exampleMethods() {
    List<String> out = new ArrayList<>();
    EXAMPLES.stream().filter(e -> e.method != null).forEach(e -> out.add(e.method));
    return out;
  }
}
