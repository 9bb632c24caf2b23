package io.sharestream.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.EndpointUnreachableException.Target;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.TableNotFoundException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.ListedItem;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.TableAccess;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.ProfileSource;
import io.sharestream.common.profile.TableRef;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Delta Sharing REST client: every endpoint the streaming and batch paths need, and file reads from storage,
 * over one {@link HttpTransport}.
 * Lists are paged lazily; query and changes answers are streamed line by line ({@link FileListing}); transient
 * failures are retried per {@link RetrySettings}; HTTP errors become typed exceptions from
 * {@link io.sharestream.common.errors.Errors}. Thread-safe; one instance per profile.
 */
public final class DeltaSharingClient implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(DeltaSharingClient.class);

  /**
   * The file-id scheme every file listing asks for ({@code fileidhash}), whatever the answer's format: ids, and with
   * them the order of files within a version that positions count in, stay the same when a table's answers switch
   * from parquet to delta. A server that echoes another scheme is refused; one that ignores the header is guarded
   * by the file key of {@link io.sharestream.common.planner.Position}.
   */
  public static final String FILE_ID_SCHEME = "parquet";

  private final ProfileSource profiles;
  private final ClientSettings settings;
  private final HttpTransport http;
  private final Clock clock;
  private final ExpiryWarnings expiry;
  private volatile Credentials credentials;
  private final Retrier retrier;
  private final AnswerFormat format;
  private final Set<IdleTimeoutInputStream> bodies = ConcurrentHashMap.newKeySet();
  private final DirectoryTables directories;
  private volatile boolean closed;
  private volatile boolean asyncQueries = true;

  public DeltaSharingClient(DeltaSharingProfile profile, ClientSettings settings) {
    this(profile, settings, Clock.systemUTC());
  }

  public DeltaSharingClient(DeltaSharingProfile profile, ClientSettings settings, Clock clock) {
    this(ProfileSource.fixed(profile), settings, clock);
  }

  /** A client of the profile {@code profiles} gives, whose changes it takes up as they come. */
  public DeltaSharingClient(ProfileSource profiles, ClientSettings settings) {
    this(profiles, settings, Clock.systemUTC());
  }

  public DeltaSharingClient(ProfileSource profiles, ClientSettings settings, Clock clock) {
    this.profiles = profiles;
    this.settings = settings;
    this.clock = clock;
    this.http = new HttpTransport(settings.connectTimeout(), settings.requestTimeout(), settings.network());
    this.expiry = new ExpiryWarnings(settings.expiryWarning(), clock);
    DeltaSharingProfile profile = profiles.current();
    this.credentials = new Credentials(profile, CredentialProvider.forProfile(profile, http, settings, clock));
    this.retrier = new Retrier(settings.retry(), settings.sleeper(), () -> closed, Errors::retriesExhausted);
    this.format = new AnswerFormat(settings.responseFormat(), settings.readerFeatures());
    this.directories = new DirectoryTables(this, settings.access(), clock);
  }

  /** The profile in use now (a profile file that changed is read again first, see {@link ProfileSource}). */
  public DeltaSharingProfile profile() {
    return credentials().profile;
  }

  /** How many times a changed profile file replaced the profile in use. */
  public long profileReloads() {
    return profiles.reloads();
  }

  /** When the credentials in use expire (a bearer token's {@code expirationTime}); null when unknown. */
  public Instant credentialsExpireAt() {
    return credentials().provider.tokenExpiry();
  }

  /** A profile and the credentials it gives. */
  private static final class Credentials {
    final DeltaSharingProfile profile;
    final CredentialProvider provider;

    Credentials(DeltaSharingProfile profile, CredentialProvider provider) {
      this.profile = profile;
      this.provider = provider;
    }
  }

  /** The credentials of the profile in use now: a new profile brings new credentials. */
  private Credentials credentials() {
    DeltaSharingProfile now = profiles.current();
    Credentials c = credentials;
    if (c.profile != now) {
      synchronized (this) {
        c = credentials;
        if (c.profile != now) {
          c = new Credentials(now, CredentialProvider.forProfile(now, http, settings, clock));
          credentials = c;
        }
      }
    }
    expiry.check(c.profile, profiles.location());
    return c;
  }

  public ClientSettings settings() {
    return settings;
  }

  Retrier retrier() {
    return retrier;
  }

  AnswerFormat format() {
    return format;
  }

  /**
   * Sends a GET for {@code range} (null: all) of a file in storage (a signed URL) over the client's
   * transport, its proxies and trust, and waits for its status and headers; {@link #close()} aborts the wait and
   * any read of the body. The answer, and each read of its body, may take the read timeout.
   */
  Answer storageGet(String url, String range, String what) throws IOException {
    checkOpen();
    Map<String, String> headers = new LinkedHashMap<>();
    if (range != null) {
      headers.put("Range", range);
    }
    headers.put("User-Agent", settings.userAgent());
    headers.putAll(UrlHeaders.headers(url));
    try {
      return http.send("GET", UrlHeaders.target(url), headers, null, null, Target.STORAGE, settings.readTimeout());
    } catch (IOException e) {
      if (closed) {
        throw Errors.cancelled(what);
      }
      throw e;
    }
  }

  /** The body of a {@link #storageGet} answer: its socket times out after the read timeout. */
  InputStream storageBody(Answer a) {
    return track(IdleTimeoutInputStream.unwatched(a.body(), bodies));
  }

  /**
   * Wraps a response body this client opened: idle timeout, and cancelled by {@link #close()}. A body arriving after
   * close began is wrapped too and cancelled at once, which aborts its exchange.
   */
  InputStream body(InputStream in) {
    return track(new IdleTimeoutInputStream(in, settings.readTimeout(), bodies));
  }

  /** A body registered with {@link #close()}: one registered after close began is cancelled here, not missed. */
  private InputStream track(IdleTimeoutInputStream body) {
    if (closed) {
      body.cancel();
    }
    return body;
  }

  void checkOpen() {
    if (closed) {
      throw new CancelledException("The Delta Sharing client was closed.");
    }
  }

  /**
   * Gets the profile's credentials now: a version 2 profile's OAuth access token (fetched, or the cached one), so
   * that failures of the token endpoint ({@link io.sharestream.common.errors.OAuthTokenException},
   * {@link io.sharestream.common.errors.EndpointUnreachableException}) are told apart from the sharing server's;
   * nothing to do for a bearer token.
   */
  public void authenticate() {
    checkOpen();
    credentials().provider.authorizationHeader();
  }

  // ------------------------------------------------------------------ lists

  /** Every share, fetched page by page as the iterator advances. */
  public Iterator<ListedItem> listShares() {
    return paged("/shares", "listing shares", n -> new ListedItem(n.path("name").asText(), null, null, id(n)));
  }

  public Iterator<ListedItem> listSchemas(String share) {
    return paged("/shares/" + Http.segment(share) + "/schemas", "listing schemas of share " + share,
        n -> new ListedItem(n.path("name").asText(), n.path("share").asText(share), null, null));
  }

  public Iterator<ListedItem> listTables(String share, String schema) {
    return paged("/shares/" + Http.segment(share) + "/schemas/" + Http.segment(schema) + "/tables",
        "listing tables of " + share + "." + schema, this::tableItem);
  }

  public Iterator<ListedItem> listAllTables(String share) {
    return paged("/shares/" + Http.segment(share) + "/all-tables", "listing all tables of share " + share,
        this::tableItem);
  }

  private ListedItem tableItem(JsonNode n) {
    return new ListedItem(n.path("name").asText(), n.path("share").asText(), n.path("schema").asText(), id(n),
        TableAccess.fromJson(n));
  }

  private static String id(JsonNode n) {
    return n.hasNonNull("id") ? n.get("id").asText() : null;
  }

  private Iterator<ListedItem> paged(String path, String what, Function<JsonNode, ListedItem> item) {
    return new ListPages(token -> getJson(path, token == null ? Collections.<String, String>emptyMap() : Collections.singletonMap("pageToken", token), what), what,
        item);
  }

  private JsonNode getJson(String path, Map<String, String> query, String what) {
    return retrier.call(what, () -> {
      Answer r = send("GET", path, query, null, what, AnswerKind.PLAIN);
      try (InputStream in = r.body()) {
        JsonNode n = JSON.readTree(in);
        if (n == null || !n.isObject()) {
          throw Errors.protocol(what, "the body is not a JSON object");
        }
        return n;
      }
    });
  }

  // ------------------------------------------------------------------ table version and metadata

  /**
   * The table's latest version. A table read from its directory asks the server for its metadata too, which keeps
   * its access modes current (a table the provider moves to URL access is read by URL from then on) and its access
   * checked.
   */
  public long tableVersion(TableRef table) {
    DirectoryTable dir = directory(table);
    if (dir != null) {
      serverMetadata(table, null, null);
      dir = directory(table);
    }
    if (dir != null) {
      return dir.tableVersion();
    }
    try {
      return version(table, null);
    } catch (InvalidRequestException refused) {
      return directoryAfterRefusal(table, refused).tableVersion();
    }
  }

  /** The first version committed at or after {@code startingTimestamp} (needs history sharing). */
  public long tableVersionAt(TableRef table, Instant startingTimestamp) {
    DirectoryTable dir = directory(table);
    return dir != null ? dir.tableVersionAt(startingTimestamp) : version(table, startingTimestamp);
  }

  /** The table's directory reader when it is read by directory access, else null ({@link DirectoryTables}). */
  private DirectoryTable directory(TableRef table) {
    return directories.directory(table, () -> serverMetadata(table, null, null).metadata().access());
  }

  /**
   * A server that refused a table's query may have moved it to directory access (the provider changed its access
   * modes): its metadata says; the refusal stands otherwise.
   */
  private DirectoryTable directoryAfterRefusal(TableRef table, InvalidRequestException refused) {
    DirectoryTable dir = directories.afterRefusal(table, () -> serverMetadata(table, null, null));
    if (dir == null) {
      throw refused;
    }
    return dir;
  }

  private long version(TableRef table, Instant ts) {
    String what = (ts == null ? "the version of " : "the version at " + ts + " of ") + table;
    Map<String, String> q = new LinkedHashMap<>();
    if (ts != null) {
      q.put("startingTimestamp", ts.toString());
    }
    try {
      return retrier.call(what, () -> {
        Answer r = send("GET", tablePath(table) + "/version", q, null, what, AnswerKind.PLAIN);
        Http.readSmall(r.body(), 1024);
        Long v = versionHeader(r, what);
        if (v == null) {
          throw Errors.sharedView(table.toString(), what);
        }
        return v;
      });
    } catch (InvalidRequestException | TableNotFoundException | VersionNotAvailableException refused) {
      // the protocol text leaves open how a server answers /version for a view: one that refuses it is asked for
      // the latest metadata, which a view answers without a version
      TableSnapshotInfo latest;
      try {
        latest = metadata(table, null, null);
      } catch (DeltaSharingException probe) {
        throw refused;
      }
      if (latest.isView()) {
        throw Errors.sharedView(table.toString(), "the latest metadata");
      }
      throw refused;
    }
  }

  /** The answer's {@code Delta-Table-Version}, or null without one (a shared view's answers have none). */
  static Long versionHeader(Answer r, String what) {
    String v = r.header("Delta-Table-Version");
    if (v == null) {
      return null;
    }
    try {
      long n = Long.parseLong(v.trim());
      if (n < 0) {
        throw Errors.protocol(what, "negative Delta-Table-Version " + v);
      }
      return n;
    } catch (NumberFormatException e) {
      throw Errors.protocol(what, "Delta-Table-Version is not a number: " + v);
    }
  }

  /**
   * Protocol and metadata of the table: latest, or at {@code version} / {@code timestamp} (one at most). A shared
   * view answers the latest without a version ({@link TableSnapshotInfo#isView()}).
   */
  public TableSnapshotInfo metadata(TableRef table, Long version, Instant timestamp) {
    DirectoryTable dir = directory(table);
    return dir != null ? dir.metadata(version, timestamp) : serverMetadata(table, version, timestamp);
  }

  /** The server's metadata answer; the table's access modes are taken from it. */
  private TableSnapshotInfo serverMetadata(TableRef table, Long version, Instant timestamp) {
    TableSnapshotInfo info = askMetadata(table, version, timestamp);
    if (!info.isView()) {
      directories.learned(table, info.metadata().access());
    }
    return info;
  }

  private TableSnapshotInfo askMetadata(TableRef table, Long version, Instant timestamp) {
    String what = "the metadata of " + table + (version != null ? " at version " + version
        : timestamp != null ? " at " + timestamp : "");
    Map<String, String> q = new LinkedHashMap<>();
    if (version != null) {
      q.put("version", version.toString());
    }
    if (timestamp != null) {
      q.put("timestamp", timestamp.toString());
    }
    return retrier.call(what, () -> {
      Answer r = send("GET", tablePath(table) + "/metadata", q, null, what, AnswerKind.METADATA);
      Long v = versionHeader(r, what);
      if (v == null && !q.isEmpty()) {
        throw Errors.sharedView(table.toString(), what);
      }
      format.check(r, what);
      ProtocolInfo protocol = null;
      TableMetadata metadata = null;
      int lines = 0;
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          if (line.trim().isEmpty()) {
            continue;
          }
          JsonNode n = JSON.readTree(line);
          if (n.has("protocol")) {
            protocol = format.protocol(n.get("protocol"), what);
            lines++;
          } else if (n.has("metaData")) {
            metadata = format.metadata(n.get("metaData"), what);
            lines++;
          } else if (n.has("endStreamAction")) {
            ServerListing.checkEndStream(n.get("endStreamAction"), what);
          }
        }
      } catch (IllegalArgumentException e) {
        throw Errors.protocol(what, e.getMessage());
      }
      if (protocol == null || metadata == null || lines != 2) {
        throw new TransientFailure("metadata answer without exactly one protocol and one metaData line", null, null);
      }
      return new TableSnapshotInfo(v == null ? TableSnapshotInfo.NO_VERSION : v, protocol, metadata);
    });
  }

  /**
   * Temporary credentials to read {@code location} (the table's root or one of its auxiliary locations; null: the
   * root) straight from storage, for a table shared with directory access: the {@code credentials} object of the
   * answer. Its secrets are never logged.
   */
  public JsonNode temporaryTableCredentials(TableRef table, String location) {
    String what = "temporary credentials for " + table + (location == null ? "" : " at " + location);
    String body = location == null ? "{}" : JSON.createObjectNode().put("location", location).toString();
    return retrier.call(what, () -> {
      Answer r = send("POST", tablePath(table) + "/temporary-table-credentials", Collections.<String, String>emptyMap(),
          body, what, AnswerKind.PLAIN);
      JsonNode n;
      try (InputStream in = r.body()) {
        n = JSON.readTree(in);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw Errors.protocol(what, "the answer is not JSON");
      }
      JsonNode credentials = n == null ? null : n.get("credentials");
      if (credentials == null || !credentials.isObject()) {
        throw Errors.protocol(what, "the answer has no credentials object");
      }
      return credentials;
    });
  }

  // ------------------------------------------------------------------ query and changes

  /**
   * Runs a query; the returned listing streams its lines and must be closed. The query announces that it may be
   * answered asynchronously ({@link QueryPages}).
   */
  public FileListing query(TableRef table, QueryRequest request) {
    DirectoryTable dir = directory(table);
    if (dir != null) {
      return dir.query(request);
    }
    try {
      return serverQuery(table, request);
    } catch (InvalidRequestException refused) {
      dir = directoryAfterRefusal(table, refused);
      return dir.query(request);
    }
  }

  private FileListing serverQuery(TableRef table, QueryRequest request) {
    String what = "the query of " + table + " " + request;
    return new ServerListing(this, table.toString(), what, new QueryPages(this, table, request, what),
        request.versioned());
  }

  /** Reads the change data feed; the returned listing streams its lines and must be closed. */
  public FileListing changes(TableRef table, ChangesRequest request) {
    DirectoryTable dir = directory(table);
    if (dir != null) {
      return dir.changes(request);
    }
    try {
      return serverChanges(table, request);
    } catch (InvalidRequestException refused) {
      dir = directoryAfterRefusal(table, refused);
      return dir.changes(request);
    }
  }

  private FileListing serverChanges(TableRef table, ChangesRequest request) {
    String what = "the changes of " + table + " " + request;
    return new ServerListing(this, table.toString(), what, pageToken -> send("GET", tablePath(table) + "/changes",
        request.params(pageToken), null, what, AnswerKind.FILES), true);
  }

  /** Whether queries announce {@code asyncquery=true}: until a server answers one asynchronously without saying so. */
  boolean asyncQueries() {
    return asyncQueries;
  }

  /**
   * Stops announcing asynchronous queries: the server answered one with a pending query although it does not
   * advertise {@code asyncquery} (the open-source reference server's stand-in, whose results ignore the query's
   * version and the client's reader features).
   */
  void stopAsyncQueries(String what) {
    if (asyncQueries) {
      asyncQueries = false;
      LOG.warn("The server answered {} asynchronously without advertising asyncquery in its capabilities; queries "
          + "of this client are sent synchronously from now on.", what);
    }
  }

  static String tablePath(TableRef t) {
    return "/shares/" + Http.segment(t.share()) + "/schemas/" + Http.segment(t.schema()) + "/tables/"
        + Http.segment(t.table());
  }

  // ------------------------------------------------------------------ transport

  /**
   * Sends one request; answers 200 with the body open, throws {@link TransientFailure} for 429/5xx and a typed
   * exception for other errors. A 401 with renewable credentials fetches a new token and tries once more; a 401
   * after that reads the profile file again, and a changed profile's credentials are tried once more.
   */
  Answer send(String method, String path, Map<String, String> query, String body, String what, AnswerKind kind)
      throws IOException {
    StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach((k, v) -> q.add(Http.queryValue(k) + "=" + Http.queryValue(v)));
    boolean renewed = false;
    boolean reloaded = false;
    while (true) {
      checkOpen();
      Credentials c = credentials();
      URI uri = URI.create(c.profile.endpoint() + path + q);
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Authorization", c.provider.authorizationHeader());
      headers.put("User-Agent", settings.userAgent());
      if (kind.tableData()) {
        headers.put("delta-sharing-capabilities", settings.responseFormat().capabilities(settings.readerFeatures())
            + (kind == AnswerKind.ASYNC_FILES ? ";asyncquery=true" : ""));
      }
      if (kind.files()) {
        headers.put("fileidhash", FILE_ID_SCHEME);
      }
      Answer r = exchange(method, uri, headers, body, what);
      int status = r.status();
      if (status == 200) {
        if (kind.files()) {
          checkFileIdScheme(r, what);
        }
        return r.withBody(body(r.body()));
      }
      String errorBody = Http.readSmall(r.body(), 64 * 1024);
      if (status == 401 && c.provider.renewable() && !renewed) {
        renewed = true;
        c.provider.invalidate();
        continue;
      }
      if (status == 401 && !reloaded) {
        reloaded = true;
        if (profiles.reload()) {
          renewed = false;
          continue;
        }
      }
      if (status == 429 || status >= 500) {
        throw new TransientFailure("HTTP " + status + " for " + what, Http.retryAfter(r), null);
      }
      throw Errors.fromResponse(status, errorBody, what, c.provider.tokenExpiry());
    }
  }

  /** Sends one request and waits for its status and headers; {@link #close()} aborts the wait. */
  private Answer exchange(String method, URI uri, Map<String, String> headers, String body, String what)
      throws IOException {
    try {
      return http.send(method, uri, headers, body, "application/json", Target.SHARING_SERVER);
    } catch (IOException e) {
      if (closed) {
        throw Errors.cancelled(what);
      }
      throw e;
    }
  }

  /** Fails when the answer echoes a file-id scheme other than the one asked for; no echo: the server ignores it. */
  private static void checkFileIdScheme(Answer r, String what) {
    String echo = r.header("fileidhash");
    if (echo != null && !echo.trim().equalsIgnoreCase(FILE_ID_SCHEME)) {
      Http.readSmall(r.body(), 0);
      throw Errors.protocol(what, "the server answered with file ids of the '" + echo.trim() + "' scheme although '"
          + FILE_ID_SCHEME + "' was asked for (fileidhash)");
    }
  }

  /**
   * Cancels every request and read of this client in flight, storage downloads included (they fail with
   * {@link CancelledException}), and refuses new ones.
   */
  @Override
  public void close() {
    closed = true;
    http.close();
    for (IdleTimeoutInputStream b : bodies) {
      b.cancel();
    }
  }

  @Override
  public String toString() {
    return "DeltaSharingClient{" + credentials.profile + "}";
  }
}
