package io.sharestream.common.errors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place errors are made: it turns server answers into typed exceptions and words each message so it says
 * what to do. Every text that came from outside passes {@link #redact} first.
 */
public final class Errors {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern URL_QUERY = Pattern.compile("(https?://[^\\s\"'?#]+)\\?[^\\s\"']*");
  private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]+");
  private static final Pattern NOT_RECORDED = Pattern.compile("not recorded for version \\[?(\\d+)\\]?");

  private Errors() {}

  /** Strips query strings from URLs (pre-signed signatures) and bearer tokens from a text. */
  public static String redact(String text) {
    if (text == null) {
      return null;
    }
    return BEARER.matcher(URL_QUERY.matcher(text).replaceAll("$1?<redacted>")).replaceAll("$1<redacted>");
  }

  /** A URL fit for messages and logs: scheme, host and path, no query. */
  public static String safeUrl(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q) + "?<redacted>";
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
        return new UnauthorizedException("Access denied (HTTP 403) for " + what + ": this recipient may not read it "
            + "(or the server refused the network address). Ask the data provider to grant access." + said);
      case 404:
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
        + "this reader does not implement (it reads deletion vectors, column mapping and timestamps without time "
        + "zone). Ask the data provider to share the table without it.");
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

  public static ProtocolViolationException protocol(String what, String problem) {
    return new ProtocolViolationException("The server's answer to " + what + " does not follow the Delta Sharing "
        + "protocol: " + redact(problem));
  }

  /** A short description of a failure, secrets removed. */
  public static String describe(Throwable t) {
    if (t == null) {
      return "unknown";
    }
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + redact(m));
  }

  /** The {@code message} of a protocol error body (or any body, shortened), secrets removed. */
  static String serverMessage(String body) {
    if (body == null || body.isBlank()) {
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
