package io.sharestream.common.errors;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place errors are made: it turns server answers into typed exceptions and words each message so it says
 * what to do. Every text that came from outside passes {@link #redact} first.
 */
public final class Errors {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern URL_QUERY = Pattern.compile("(https?://[^\\s\"'?#]+)\\?[^\\s\"']*");
  /**
   * A token after "Bearer": 8 or more token characters, one at least not a letter (so "bearer token expired" keeps
   * its words; tokens the JVM knows are removed whatever they look like, {@link Secrets}).
   */
  private static final Pattern BEARER = Pattern.compile(
      "(?i)(bearer\\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}");
  private static final Pattern NOT_RECORDED = Pattern.compile("not recorded for version \\[?(\\d+)\\]?");
  /** How servers say a version is past the latest one (the reference server: "... as the latest version is 5"). */
  private static final Pattern BEYOND_LATEST = Pattern.compile("(?i)latest version is (\\d+)|as it does not exist");

  private Errors() {}

  /** Strips query strings from URLs (pre-signed signatures), bearer tokens and every {@link Secrets} from a text. */
  public static String redact(String text) {
    if (text == null) {
      return null;
    }
    String known = Secrets.remove(text);
    return BEARER.matcher(URL_QUERY.matcher(known).replaceAll("$1?<redacted>")).replaceAll("$1<redacted>");
  }

  /** A URL fit for messages and logs: scheme, host, port and path; no query, fragment or user info. */
  public static String safeUrl(String url) {
    if (url == null) {
      return null;
    }
    int q = url.indexOf('?');
    int f = url.indexOf('#');
    int end = q < 0 ? f : f < 0 ? q : Math.min(q, f);
    String base = end < 0 ? url : url.substring(0, end);
    int scheme = base.indexOf("://");
    int hostStart = scheme < 0 ? 0 : scheme + 3;
    int slash = base.indexOf('/', hostStart);
    int at = base.lastIndexOf('@', slash < 0 ? base.length() - 1 : slash);
    if (at >= hostStart) {
      base = base.substring(0, hostStart) + base.substring(at + 1);
    }
    return q < 0 ? base : base + "?<redacted>";
  }

  /** Only the scheme, host and port of a URL: how a pre-signed storage URL is named where a request failed. */
  public static String hostOf(String url) {
    String safe = safeUrl(url);
    int scheme = safe.indexOf("://");
    int hostStart = scheme < 0 ? 0 : scheme + 3;
    int end = hostStart;
    while (end < safe.length() && "/?#".indexOf(safe.charAt(end)) < 0) {
      end++;
    }
    return safe.substring(0, end);
  }

  /** The typed exception for an HTTP error answer of the sharing server to {@code what} (e.g. "query of s.sc.t"). */
  public static DeltaSharingException fromResponse(int status, String body, String what, Instant tokenExpiry) {
    String serverMessage = serverMessage(body);
    String lower = serverMessage.toLowerCase(Locale.ROOT);
    String said = serverMessage.isEmpty() ? "" : " The server said: " + serverMessage;
    switch (status) {
      case 401:
        return new UnauthorizedException("The Delta Sharing server rejected the credentials (HTTP 401) for " + what
            + "." + (tokenExpiry != null && tokenExpiry.isBefore(Instant.now())
                ? " The profile's bearer token expired at " + tokenExpiry + "; ask the data provider for a new "
                    + "profile."
                : tokenExpiry != null ? " The profile's bearer token expires at " + tokenExpiry + "." : "")
            + " Check the profile's credentials." + said);
      case 403:
        return new AccessDeniedException("Access denied (HTTP 403) for " + what + ": this recipient may not read it "
            + "(or the server refused the network address). Ask the data provider to grant access." + said);
      case 404:
        if (!isProtocolError(body)) { // not the server's answer about a share, schema or table: the path is wrong
          return new TableNotFoundException("Not found (HTTP 404) for " + what + ", and the answer is not a Delta "
              + "Sharing error: check the profile's endpoint (its host and path: the path is the prefix the server "
              + "serves the protocol under, before /shares)." + said);
        }
        return new TableNotFoundException("Not found (HTTP 404) for " + what + ": check the share, schema and table "
            + "names, and that the share is granted to this recipient." + said);
      default:
        break;
    }
    if (status == 400) {
      if (lower.contains("history sharing is not enabled") || lower.contains("cdf is not enabled on table")) {
        return historyNotShared(what, serverMessage);
      }
      Matcher m = NOT_RECORDED.matcher(serverMessage);
      boolean versionNamed = m.find();
      if (versionNamed || lower.contains("change data was not recorded")) {
        long v = versionNamed ? Long.parseLong(m.group(1)) : -1;
        return new ChangeDataNotRecordedException("The change data feed was not recorded"
            + (v >= 0 ? " for version " + v : "") + " of " + what.replaceFirst("^[a-z ]+ of ", "") + ". Read from a "
            + "version where the provider had enabled it (or set readChangeFeed=false)." + said, v);
      }
      if (lower.contains("too new") || lower.contains("responseformat=delta")
          || lower.contains("unsupported_delta_table_features") || lower.contains("unsupported delta table")) {
        return deltaFormatRequired(what, serverMessage);
      }
      Matcher beyond = BEYOND_LATEST.matcher(serverMessage);
      if (beyond.find()) {
        return versionAfterLatest(what, beyond.group(1) == null ? -1 : Long.parseLong(beyond.group(1)), said);
      }
      if (lower.contains("earliest") || lower.contains("cannot load table version") || lower.contains("you can only")
          || lower.contains("no longer available") || lower.contains("cannot time travel")) {
        return new VersionNotAvailableException("A version needed for " + what + " is no longer available on the "
            + "server (its log was cleaned up, or it is before the version the table is shared from). Start from a "
            + "later version: set a newer startingVersion, or for a running stream delete its checkpoint/offsets "
            + "and start again." + said);
      }
      return new InvalidRequestException("The server refused " + what + " as invalid (HTTP 400)." + said);
    }
    if (status == 429 || status >= 500) {
      return new ServerErrorException("The server answered HTTP " + status + " for " + what + "." + said);
    }
    return new InvalidRequestException("The server answered HTTP " + status + " for " + what + "." + said);
  }

  /** {@code what} (a request or read) was cut short by its client's close. */
  public static CancelledException cancelled(String what) {
    return new CancelledException("The request for " + what + " was cancelled: its client was closed.");
  }

  public static HistoryNotSharedException historyNotShared(String what, String serverMessage) {
    return new HistoryNotSharedException("The table is not shared with history, so " + what + " is not possible. "
        + "Streaming and reads by version or timestamp need it: ask the data provider to share the table WITH "
        + "HISTORY." + (serverMessage == null || serverMessage.isEmpty() ? "" : " The server said: " + serverMessage));
  }

  /**
   * {@code table} answered {@code what} without a table version: a shared view or materialized view, which has no
   * history to stream or to read by version.
   */
  public static SharedViewException sharedView(String table, String what) {
    return new SharedViewException(table + " is a shared view or materialized view: the server answered " + what
        + " without a table version, so it has no history to stream, to read by version or timestamp, or to read the "
        + "changes of. Read it in batch instead (spark.read.format(\"deltaSharing\"), or the CLI's head), or ask "
        + "the data provider to share the underlying table with history.");
  }

  /**
   * The server reported its asynchronous query {@code queryId} for {@code what} (e.g. "the query of s.sc.t") failed:
   * {@code status} is its {@code queryStatus} object. Classified as a synchronous answer would be: by its HTTP status
   * ({@code httpStatusErrorCode}, as an end-of-stream marker carries one) or its {@code errorCode}, else by its
   * message when that names a request the server refuses (a version beyond the latest, history not shared, ...); any
   * other failure is the server's.
   */
  public static DeltaSharingException asyncQueryFailed(String what, String queryId, JsonNode status) {
    String message = firstText(status, "errorMessage", "message", "error");
    String code = firstText(status, "errorCode", "error_code");
    ObjectNode body = JSON.createObjectNode();
    if (code != null) {
      body.put("errorCode", code);
    }
    body.put("message", message == null ? "" : message);
    String of = what + " (asynchronous query " + queryId + ")";
    Integer httpStatus = code == null ? null : ERROR_CODE_STATUS.get(code);
    if (status.path("httpStatusErrorCode").canConvertToInt()) {
      httpStatus = status.get("httpStatusErrorCode").asInt();
    }
    if (httpStatus != null && httpStatus >= 400) {
      return fromResponse(httpStatus, body.toString(), of, null);
    }
    DeltaSharingException refused = fromResponse(400, body.toString(), of, null);
    if (!(refused instanceof InvalidRequestException)) { // the message names what was wrong with the request
      return refused;
    }
    return new ServerErrorException("Asynchronous query " + queryId + " (" + what + ") failed on the server"
        + (message == null || message.trim().isEmpty() ? "" : ": " + redact(message.trim().replaceAll("\\.+$", "")))
        + ". Nothing was read; try again later, or ask the data provider if it keeps failing.");
  }

  /** The HTTP status a synchronous answer carries with each Delta Sharing (Databricks REST) error code. */
  private static final Map<String, Integer> ERROR_CODE_STATUS = new HashMap<>();

  static {
    for (String code : new String[] {"INVALID_PARAMETER_VALUE", "MALFORMED_REQUEST", "BAD_REQUEST", "INVALID_STATE",
        "UNSUPPORTED_OPERATION"}) {
      ERROR_CODE_STATUS.put(code, 400);
    }
    ERROR_CODE_STATUS.put("UNAUTHENTICATED", 401);
    ERROR_CODE_STATUS.put("PERMISSION_DENIED", 403);
    ERROR_CODE_STATUS.put("RESOURCE_DOES_NOT_EXIST", 404);
    ERROR_CODE_STATUS.put("INTERNAL_ERROR", 500);
    ERROR_CODE_STATUS.put("TEMPORARILY_UNAVAILABLE", 503);
  }

  private static String firstText(JsonNode n, String... fields) {
    for (String f : fields) {
      JsonNode v = n.get(f);
      if (v != null && !v.isNull()) {
        return v.isTextual() ? v.asText() : v.toString();
      }
    }
    return null;
  }

  /** The server's asynchronous query for {@code what} was still pending when the retry settings' time ran out. */
  public static ServerErrorException asyncQueryTimedOut(String what, String queryId, java.time.Duration waited) {
    return new ServerErrorException("The server was still computing " + what + " (asynchronous query " + queryId
        + ") after " + waited.getSeconds() + " s, the retry settings' overall time limit. Raise that limit if the "
        + "provider's queries take longer, or try again later.");
  }

  /**
   * A stored position of {@code table} inside a version without the key of its file (an older release's): where it
   * stands cannot be checked against the files the server lists now, and is not guessed; {@code howToGoOn} says what
   * the engine offers.
   */
  public static InvalidPositionException unverifiablePosition(String table, long version, long index,
      String howToGoOn) {
    return new InvalidPositionException("The stored position of " + table + " lies inside version " + version
        + " (file #" + index + ") and was written by an older release, which did not record which file that is: "
        + "the files the server lists now cannot be checked against it, and a guess could skip or repeat rows. "
        + howToGoOn);
  }

  /**
   * The file at {@code index} of {@code version} of {@code table} is not the one a stored position points into: the
   * server now gives other file ids (or another order) for the version.
   */
  public static InvalidPositionException fileIdsChanged(String table, long version, long index) {
    return new InvalidPositionException("The stream stopped inside version " + version + " of " + table + " (file "
        + "#" + index + "), but the server now lists that version with other file ids, so the files already read "
        + "cannot be told from the rest. This happens when the table's answer format changed (e.g. from parquet to "
        + "delta after the provider enabled deletion vectors) on a server that ignores the fileidhash header. "
        + "Nothing was read twice or skipped. To go on, restart the stream at version " + version + " (it reads "
        + "that version again, whole) or " + (version + 1) + " (it skips the rest of it) with a new "
        + "checkpoint/offsets reset and startingVersion.");
  }

  public static DeltaFormatRequiredException deltaFormatRequired(String what, String serverMessage) {
    return new DeltaFormatRequiredException("The table of " + what + " can only be served in the 'delta' response "
        + "format (it uses Delta features such as deletion vectors or column mapping), but responseFormat=parquet "
        + "asks for the parquet format only: set responseFormat=auto (the default) or delta."
        + (serverMessage == null || serverMessage.isEmpty() ? "" : " The server said: " + serverMessage));
  }

  /** A table that needs the delta format from a server that answered in parquet although delta was asked for. */
  public static DeltaFormatRequiredException deltaFormatUnsupported(String what, int minReaderVersion) {
    return new DeltaFormatRequiredException("The table of " + what + " needs Delta reader version "
        + minReaderVersion + " (deletion vectors, column mapping, ...), which only the 'delta' response format can "
        + "carry, but the server answered in the parquet format although delta was asked for: it does not support "
        + "the delta format. Ask the data provider to share the table from a server that does.");
  }

  /** The server answered in a response format the client did not ask for. */
  public static ProtocolViolationException unexpectedFormat(String what, String answered, String asked) {
    return protocol(what, "the server answered in the '" + answered + "' response format, but only " + asked
        + " was asked for");
  }

  /** The table needs a reader version or feature this product does not implement. */
  public static UnsupportedTableFeatureException unsupportedFeature(String what, String unsupported) {
    return new UnsupportedTableFeatureException("The table of " + what + " needs Delta " + unsupported + ", which "
        + "this reader does not implement (it reads deletion vectors, column mapping, timestamps without time zone, "
        + "type widening and variants, shredded or not). Ask the data provider to share the table without it.");
  }

  /** A deletion vector of {@code file} (table, version and file named) cannot be used. */
  public static InvalidDeletionVectorException invalidDeletionVector(String file, String problem, Throwable cause) {
    return new InvalidDeletionVectorException("The deletion vector of " + file + " cannot be used: "
        + redact(problem) + ". No row of the file was emitted. The shared table or the server's answer is corrupt: "
        + "ask the data provider to check the table.", cause);
  }

  /** A data file of a column-mapped table holds none of the table's physical columns. */
  public static InvalidDataFileException physicalColumnsMissing(String file, java.util.List<String> physical,
      java.util.List<String> inFile) {
    return new InvalidDataFileException("Data file " + file + " holds none of the table's columns under their "
        + "physical names (column mapping): the table's are " + physical + ", the file's " + inFile + ". The file "
        + "was not written for this table's column mapping; ask the data provider to check the table.");
  }

  /** A table read from its storage directory whose {@code _delta_log} does not hold a readable Delta table. */
  public static InvalidDataFileException logUnreadable(String table, String problem) {
    return new InvalidDataFileException("The Delta log of " + table + " cannot be read from its storage directory: "
        + redact(problem) + ". Ask the data provider to check the table, or read it through pre-signed URLs "
        + "(accessMode=url) if the server offers them.");
  }

  /**
   * Object storage refused a request for a table read from its storage directory: HTTP 401/403 with the credentials
   * the sharing server vended (revoked, or not covering what the log names), or another refusal.
   */
  public static DeltaSharingException storageRefused(String table, String what, int status, String body) {
    String said = body == null || body.trim().isEmpty() ? "" : " Storage said: " + serverMessage(body);
    if (status == 401 || status == 403) {
      return new AccessDeniedException("Storage refused " + what + " (HTTP " + status + ") with the credentials the "
          + "sharing server vended for " + table + ": the provider may have revoked this recipient's directory "
          + "access. It is tried again with new credentials; ask the data provider if it persists, or read the "
          + "table through URLs (accessMode=url) if the server offers them." + said);
    }
    return logUnreadable(table, "storage answered HTTP " + status + " for " + what + "." + said);
  }

  /**
   * A table whose access modes do not include the one {@code accessMode} asks for (or that is shared for directory
   * access without a location).
   */
  public static InvalidSettingException accessModeRefused(String table, io.sharestream.common.model.TableAccess offered,
      String accessMode) {
    String modes = offered.modes().isEmpty() ? "no access mode this client reads"
        : offered.modes().toString().toLowerCase(java.util.Locale.ROOT);
    return new InvalidSettingException(table + " is shared for " + modes + " access"
        + (offered.offers(io.sharestream.common.model.TableAccess.Mode.DIR) && offered.location() == null
            ? " but without a storage location" : "") + ", which accessMode=" + accessMode + " does not read. Set "
        + "accessMode=auto to read each table the way its server offers.");
  }

  /**
   * A version (or time) asked for after the table's latest version ({@code latest}, or -1 when not known); {@code
   * said}: what the server said, or empty.
   */
  public static VersionNotAvailableException versionAfterLatest(String what, long latest, String said) {
    return new VersionNotAvailableException("A version asked for " + what + " is after the table's latest version"
        + (latest < 0 ? "" : " (" + latest + ")") + ": ask for the latest version or an earlier one." + said);
  }

  /** A change data range of a table read from its storage directory with a version that recorded no change data. */
  public static ChangeDataNotRecordedException changeDataNotRecorded(String table, long version) {
    return new ChangeDataNotRecordedException("The change data feed was not recorded for version " + version + " of "
        + table + ". Read from a version where the provider had enabled it (or set readChangeFeed=false).", version);
  }

  /**
   * A version of a table read from its storage directory whose commit is gone from its {@code _delta_log} (cleaned
   * up), or not there yet; {@code earliest}: the first commit still listed, or -1.
   */
  public static VersionNotAvailableException logVersionUnavailable(String table, long version, long earliest) {
    return new VersionNotAvailableException("Version " + version + " of " + table + " can no longer be read from "
        + "its _delta_log" + (earliest >= 0 ? " (its earliest commit is now version " + earliest + ")" : "")
        + ": the provider's log cleanup removed it. Start from a later version: set a newer startingVersion (or "
        + "startingVersion=earliest), or for a running stream move or delete its checkpoint/offsets.");
  }

  /** A variant column of a data file whose Parquet layout or binary encoding is not a variant's. */
  public static InvalidDataFileException malformedVariant(String file, String column, String problem) {
    return new InvalidDataFileException("Column '" + column + "' of data file " + file + " holds a malformed "
        + "variant: " + redact(problem) + ". The file does not follow the Variant encoding; ask the data provider "
        + "to check the table.");
  }

  /**
   * A variant column of a data file stored shredded (a {@code typed_value} field), on a Spark whose reader does not
   * read shredded variants.
   */
  public static UnsupportedTableFeatureException shreddedVariant(String file, String column, String spark) {
    return new UnsupportedTableFeatureException("Column '" + column + "' of data file " + file + " is a shredded "
        + "variant (Delta reader feature variantShredding: its Parquet group has a typed_value field), which Spark "
        + spark + " does not read. Read the table on Spark 4.1 or later with the Spark 4 jar, or with the Kafka "
        + "connector or the CLI, which read shredded variants; or ask the data provider to share it without variant "
        + "shredding (delta.enableVariantShredding=false, then rewrite the files).");
  }

  /**
   * A file whose old dates or timestamps may be in the legacy hybrid calendar, read in EXCEPTION mode (as Spark
   * 3.1 does by default for files that do not say which calendar wrote them).
   */
  public static AmbiguousCalendarException ambiguousCalendar(String file, String column, String what,
      String modeOption) {
    return new AmbiguousCalendarException("Column '" + column + "' of file " + file + " holds " + what + ", which "
        + "is ambiguous: the file does not say whether it was written in the legacy hybrid (Julian) calendar of Spark "
        + "2.x and legacy Hive, or in the proleptic Gregorian calendar. Set " + modeOption + "=LEGACY to rebase "
        + "the values from the hybrid calendar (as Spark 3.1 does for such files), or " + modeOption + "=CORRECTED "
        + "to read them as they are.");
  }

  public static ServerErrorException retriesExhausted(String what, int attempts, Throwable last) {
    return new ServerErrorException("The Delta Sharing server kept failing for " + what + " after " + attempts
        + " attempt" + (attempts == 1 ? "" : "s") + "; last failure: " + describe(last) + ". It is retried with "
        + "backoff; raise the retry limits if the server needs longer to recover.", last);
  }

  /**
   * {@code target} could not be reached at {@code url} (shown as {@link #safeUrl}, or {@link #hostOf} for storage)
   * for {@code what} through {@code attempts} attempts; {@code reason} says how it failed (connection refused, ...).
   */
  public static EndpointUnreachableException unreachable(EndpointUnreachableException.Target target, String url,
      String what, int attempts, String reason, Throwable cause) {
    String shown = target == EndpointUnreachableException.Target.STORAGE ? hostOf(url) : safeUrl(url);
    String fix;
    switch (target) {
      case OAUTH_TOKEN_ENDPOINT:
        fix = "Check the profile's tokenEndpoint (scheme, host, port and path) and that this machine can reach it "
            + "(network, proxy, firewall).";
        break;
      case STORAGE:
        fix = "Check that this machine can reach the table's storage (network, proxy, firewall); if it can, the "
            + "storage may be down: ask the data provider.";
        break;
      case SHARING_SERVER:
      default:
        fix = "Check the profile's endpoint (scheme, host, port and path), that the server is up, and that this "
            + "machine can reach it (network, proxy, firewall).";
    }
    return new EndpointUnreachableException("Cannot reach " + target.description() + " at " + shown + " for "
        + what + " (" + attempts + " attempt" + (attempts == 1 ? "" : "s") + "): " + redact(reason) + ". " + fix,
        target, shown, cause);
  }

  /**
   * The OAuth token endpoint {@code tokenEndpoint} answered HTTP {@code status} (not 200, 429 or 5xx) with
   * {@code body}: the client credentials, the scope or the endpoint itself is wrong, as its OAuth error code tells.
   */
  public static OAuthTokenException oauthRefused(String tokenEndpoint, int status, String body) {
    String url = safeUrl(tokenEndpoint);
    String code = "";
    String description = "";
    try {
      JsonNode n = body == null || body.trim().isEmpty() ? null : JSON.readTree(body);
      if (n != null && n.isObject()) {
        code = n.path("error").asText("");
        description = n.path("error_description").asText("");
      }
    } catch (java.io.IOException | RuntimeException notJson) {
      // no OAuth error body
    }
    String said = serverMessage(description.isEmpty() ? (code.isEmpty() ? body : "") : description);
    String answered = "(HTTP " + status + (code.isEmpty() ? "" : ", " + redact(code)) + ")";
    String tail = said.isEmpty() ? "" : " The token endpoint said: " + said;
    if (code.equals("invalid_scope")) {
      return new OAuthTokenException("The OAuth token endpoint " + url + " refused the scope asked for " + answered
          + ". Check the profile's scope (leave it out if the endpoint needs none)." + tail, "scope", url);
    }
    if (code.equals("unauthorized_client")) {
      return new OAuthTokenException("The OAuth token endpoint " + url + " does not let this client use the client "
          + "credentials grant " + answered + ". Check the profile's clientId, or ask the data provider to allow the "
          + "grant for it." + tail, "clientId", url);
    }
    if (code.isEmpty() && status != 400 && status != 401 && status != 403) {
      return new OAuthTokenException("The OAuth token endpoint " + url + " answered " + answered.substring(1,
          answered.length() - 1) + ", which is not an answer of an OAuth 2 token endpoint. Check the profile's "
          + "tokenEndpoint." + tail, "tokenEndpoint", url);
    }
    return new OAuthTokenException("The OAuth token endpoint " + url + " refused the profile's client credentials "
        + answered + ". Check clientId, clientSecret and scope in the profile (a client secret may have been "
        + "rotated)." + tail, "clientSecret", url);
  }

  /** The OAuth token endpoint answered 200 with {@code problem} (e.g. "without an access_token"). */
  public static OAuthTokenException oauthBadAnswer(String tokenEndpoint, String problem) {
    String url = safeUrl(tokenEndpoint);
    return new OAuthTokenException("The OAuth token endpoint " + url + " answered HTTP 200 " + redact(problem)
        + ": it does not look like an OAuth 2 token endpoint. Check the profile's tokenEndpoint.", "tokenEndpoint",
        url);
  }

  /** The OAuth token endpoint kept failing (HTTP 429, 5xx, resets) through every retry. */
  public static ServerErrorException oauthFailing(String tokenEndpoint, int attempts, Throwable last) {
    return new ServerErrorException("The OAuth token endpoint " + safeUrl(tokenEndpoint) + " kept failing after "
        + attempts + " attempt" + (attempts == 1 ? "" : "s") + "; last failure: " + describe(last) + ". It is "
        + "retried with backoff; raise the retry limits if it needs longer to recover.", last);
  }

  /**
   * The temporary table credentials a sharing server vended (directory-based access: the table is read straight from
   * its storage with them) cannot be used: {@code problem} names the field missing or the kind not known.
   */
  public static ProtocolViolationException unusableStorageCredentials(String problem) {
    return new ProtocolViolationException("The temporary table credentials the sharing server answered cannot be "
        + "used to read the table's storage: " + redact(problem) + ". Report this to the data provider (or the "
        + "server's maintainers).");
  }

  /**
   * {@code location} (a table's storage location, or the path of one of its files in its Delta log) names no object
   * this reader can reach, or is malformed: {@code problem} says how.
   */
  public static ProtocolViolationException unsupportedStorageLocation(String location, String problem) {
    return new ProtocolViolationException("The storage location '" + redact(location) + "' cannot be read: "
        + redact(problem) + ". Tables are read from Amazon S3 (s3://, s3a://, s3n://), Azure Data Lake Storage and "
        + "Blob Storage (abfss://, abfs://, wasbs://, wasb://) and Google Cloud Storage (gs://); report any other "
        + "location to the data provider.");
  }

  /** The object listing {@code store} answered (e.g. "Amazon S3") cannot be read: {@code problem} says why. */
  public static ProtocolViolationException unreadableStorageListing(String store, String problem) {
    return new ProtocolViolationException("The object listing " + store + " answered cannot be read: "
        + redact(problem) + ". The storage did not answer as " + store + " does: check the storage endpoint "
        + "settings (an emulator or S3-compatible server must speak that API).");
  }

  public static ProtocolViolationException protocol(String what, String problem) {
    return new ProtocolViolationException("The server's answer to " + what + " does not follow the Delta Sharing "
        + "protocol: " + redact(problem));
  }

  /** A short description of a failure, secrets removed. */
  public static String describe(Throwable t) {
    if (t == null) {
      return "unknown";
    }
    if (t instanceof JsonProcessingException) { // the parser's message names its internals (its source object)
      JsonProcessingException j = (JsonProcessingException) t;
      JsonLocation at = j.getLocation();
      return "the answer is not valid JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column "
          + at.getColumnNr() + ")") + ": " + redact(String.valueOf(j.getOriginalMessage()).split("\\R", 2)[0]);
    }
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + redact(m));
  }

  /** Whether {@code body} is a protocol error: a JSON object with an error code or a message. */
  private static boolean isProtocolError(String body) {
    try {
      JsonNode n = body == null || body.trim().isEmpty() ? null : JSON.readTree(body.trim());
      return n != null && n.isObject() && (n.has("errorCode") || n.has("error_code") || n.has("message"));
    } catch (java.io.IOException | RuntimeException notJson) {
      return false;
    }
  }

  /** The {@code message} of a protocol error body (or any body, shortened), secrets removed. */
  static String serverMessage(String body) {
    if (body == null || body.trim().isEmpty()) {
      return "";
    }
    String text = body.trim();
    try {
      JsonNode n = JSON.readTree(text);
      if (n != null && n.isObject()) {
        String code = n.has("errorCode") ? n.get("errorCode").asText() : n.path("error_code").asText("");
        String msg = n.has("message") ? n.get("message").asText() : n.path("details").toString();
        text = (code.isEmpty() ? "" : code + ": ") + msg;
      }
    } catch (java.io.IOException | RuntimeException notJson) {
      // keep the raw text
    }
    if (text.length() > 500) {
      text = text.substring(0, 500) + "...";
    }
    return redact(text);
  }
}
