package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedded Delta Sharing server over local Delta tables: the protocol's REST API under {@code /delta-sharing},
 * pre-signed file downloads under {@code /storage}, an OAuth token endpoint under {@code /oauth/token}, and an
 * S3-compatible {@link ObjectStore} for directory-based access under {@code /kit} ({@link Builder#accessModes}), all
 * on 127.0.0.1 with an ephemeral port unless {@link Builder#bindAddress}, {@link Builder#port} and
 * {@link Builder#publicUrl} say otherwise. Responses are streamed; nothing is cached, so tables changed on disk by a
 * {@link io.sharestream.testkit.delta.DeltaTableWriter} are served at once.
 *
 * <p>It answers as the open-source reference server v1.4.1 does, plus the parts of the protocol Databricks serves
 * beyond it: the {@code fileidhash} header ({@link Builder#honourFileIdHash}), asynchronous queries polled at
 * {@code .../queries/{queryId}} ({@link AsyncMode}, {@link Builder#async}, {@link Builder#asyncAdvertised}) and
 * shared views ({@link Builder#view}).
 *
 * <pre>{@code
 * try (DeltaSharingServer server = DeltaSharingServer.builder()
 *     .table("share", "schema", "events", tableDir, true)
 *     .start()) {
 *   Path profile = server.writeProfile(tmp.resolve("profile.share"));
 *   ...
 * }
 * }</pre>
 */
public final class DeltaSharingServer implements AutoCloseable {
  static final String PREFIX = "/delta-sharing";

  static {
    // The JDK server writes without TCP_NODELAY unless told so before its first HttpServer exists; a client's
    // delayed ACK then costs ~40 ms per response. The property is read once, when the server classes load.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  /** How {@code GET .../version?startingTimestamp=T} resolves T. */
  public enum TimestampResolution {
    /** The protocol's rule: the first version committed at or after T (the earliest retained one if T precedes
     *  them all). */
    EXACT,
    /** The reference server (v1.4.1, Delta Kernel): (the version as of T) + 1, so T exactly at a commit's time
     *  answers the next version, T at the latest commit's time a 400, and T before the first retained commit of a
     *  cleaned-up log 0. */
    REFERENCE
  }

  private final HttpServer http;
  private final ExecutorService executor;
  private final SharedTables tables;
  private final Faults faults = new Faults();
  private final RequestLog requests = new RequestLog();
  private final FileUrls urls;
  private final ObjectStore objectStore;
  private final OAuthHandler oauth;
  private volatile String bearerToken;
  private volatile String basicCredentials;
  private final Duration urlTtl;
  private final Duration credentialTtl;
  private final boolean metadataSizes;
  private final TimestampResolution timestampResolution;
  private final boolean historyInDeltaFormat;
  private final boolean deletionVectorFileIds;
  private final boolean honourFileIdHash;
  private final boolean asyncAdvertised;
  private final boolean viewVersionRefused;
  private final String baseUrl;

  private DeltaSharingServer(Builder b) throws IOException {
    this.tables = b.tables;
    this.bearerToken = b.bearerToken;
    this.urlTtl = b.urlTtl;
    this.credentialTtl = b.credentialTtl;
    this.metadataSizes = b.metadataSizes;
    this.timestampResolution = b.timestampResolution;
    this.historyInDeltaFormat = b.historyInDeltaFormat;
    this.deletionVectorFileIds = b.deletionVectorFileIds;
    this.honourFileIdHash = b.honourFileIdHash;
    this.asyncAdvertised = b.asyncAdvertised;
    this.viewVersionRefused = b.viewVersionRefused;
    if (b.tls != null) {
      com.sun.net.httpserver.HttpsServer https = com.sun.net.httpserver.HttpsServer.create(
          new InetSocketAddress(b.bindAddress, b.port), 64);
      https.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(b.tls.serverContext()));
      this.http = https;
    } else {
      this.http = HttpServer.create(new InetSocketAddress(b.bindAddress, b.port), 64);
    }
    this.baseUrl = b.publicUrl != null ? b.publicUrl : (b.tls != null ? "https://" : "http://") + b.advertisedHost
        + ":" + http.getAddress().getPort();
    this.urls = new FileUrls(baseUrl);
    this.objectStore = new ObjectStore(this);
    this.oauth = new OAuthHandler(this);
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "delta-sharing-test-server-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(executor);
    http.createContext(PREFIX, new ApiHandler(this));
    http.createContext("/storage/", new StorageHandler(this));
    http.createContext(GcsHandler.PATH, new GcsHandler(this));
    http.createContext("/oauth/token", oauth);
    http.createContext("/" + ObjectStore.BUCKET, new ObjectStoreHandler(this));
    http.start();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Server settings and the initial shared tables. */
  public static final class Builder {
    private final SharedTables tables = new SharedTables();
    private String bearerToken = "token-" + UUID.randomUUID();
    private Duration urlTtl = Duration.ofHours(1);
    private Duration credentialTtl = Duration.ofHours(1);
    private boolean metadataSizes;
    private TimestampResolution timestampResolution = TimestampResolution.EXACT;
    private boolean historyInDeltaFormat = true;
    private boolean deletionVectorFileIds;
    private boolean honourFileIdHash = true;
    private boolean asyncAdvertised = true;
    private boolean viewVersionRefused;
    private int port;
    private InetAddress bindAddress = InetAddress.getLoopbackAddress();
    private String advertisedHost = "127.0.0.1";
    private String publicUrl;
    private io.sharestream.testkit.net.TestCertificates tls;

    /** Shares {@code share.schema.table} from the Delta table at {@code dir}. */
    public Builder table(String share, String schema, String table, Path dir, boolean historyShared) {
      tables.add(share, schema, table, dir, historyShared);
      return this;
    }

    /**
     * Shares the Delta table at {@code dir} as the view (or materialized view) {@code share.schema.name}, as
     * Databricks serves them: listed as a table; {@code version} answered without {@code Delta-Table-Version};
     * {@code metadata} and the latest snapshot's {@code query} answered from the latest state without versions (the
     * query asynchronous to clients announcing {@code asyncquery=true}, see {@link SharedTables#addView}); time
     * travel, {@code startingVersion} and {@code changes} refused with 400 {@code INVALID_PARAMETER_VALUE}.
     */
    public Builder view(String share, String schema, String name, Path dir) {
      tables.addView(share, schema, name, dir);
      return this;
    }

    /** When the queries of the table or view {@code fullName} ({@code share.schema.table}, added before) are
     *  answered asynchronously (default {@link AsyncMode#NEVER} for tables, {@link AsyncMode#ALWAYS} for views). */
    public Builder async(String fullName, AsyncMode mode) {
      tables.get(fullName).asyncMode(mode);
      return this;
    }

    /**
     * Whether async answers (pending, failed, and the answers of polls) echo {@code delta-sharing-capabilities:
     * asyncquery=true} as Databricks does (default on); off, they mimic the reference server's stub, which never
     * echoes it (its pending answers say {@code responseformat=parquet}).
     */
    public Builder asyncAdvertised(boolean on) {
      this.asyncAdvertised = on;
      return this;
    }

    /**
     * Whether views refuse {@code /version} (HTTP 400 {@code INVALID_PARAMETER_VALUE}: a view has no version) instead
     * of answering it without a version (the default): the protocol text does not say which a server does.
     */
    public Builder viewVersionRefused(boolean refused) {
      this.viewVersionRefused = refused;
      return this;
    }

    /**
     * Whether the {@code fileidhash} request header of query, changes and poll requests is honoured (default on, as
     * the reference server v1.4.1): {@code parquet} makes file ids MD5 and {@code delta} SHA-256 of the file's path,
     * whatever the response format, the answer echoing the header; another value answers 400. Off, the header is
     * ignored: no echo, each format's own ids.
     */
    public Builder honourFileIdHash(boolean on) {
      this.honourFileIdHash = on;
      return this;
    }

    /** Gives a share an id for the share and table lists (default: none, as the reference server without ids). */
    public Builder shareId(String share, String id) {
      tables.setShareId(share, id);
      return this;
    }

    /**
     * Whether history requests (startingVersion, paged queries, changes) of tables with deletion vectors or column
     * mapping are answered in delta format, as Databricks does (default on); off, they are refused as the reference
     * server v1.4.1 refuses them ("Delta protocol version (3,7) is too new ..."), while metadata and unpaged snapshots
     * still answer in delta format.
     */
    public Builder historyInDeltaFormat(boolean on) {
      this.historyInDeltaFormat = on;
      return this;
    }

    /** Whether delta-format file lines with a stored deletion vector carry {@code deletionVectorFileId} (the
     *  reference server never sends it; default off). */
    public Builder deletionVectorFileIds(boolean on) {
      this.deletionVectorFileIds = on;
      return this;
    }

    public Builder bearerToken(String token) {
      this.bearerToken = token;
      return this;
    }

    /**
     * How recipients may read the table {@code fullName} ({@code share.schema.table}, added before): {@code url},
     * {@code dir} or both; changeable while the server runs ({@link SharedTables#accessModes}). Once set, its list
     * entries and metaData lines carry {@code location} ({@code s3://kit/<share>/<schema>/<table>}),
     * {@code auxiliaryLocations} and {@code accessModes}; without {@code url} its query and changes are refused; with
     * {@code dir} it is vended credentials for the {@link ObjectStore}. Default: unset, answers without these fields,
     * url access only.
     */
    public Builder accessModes(String fullName, AccessMode... modes) {
      tables.get(fullName).accessModes(modes);
      return this;
    }

    /**
     * The files of the table {@code fullName} are read from {@code container} of an Azurite (see
     * {@link SharedTable#storedInAzure}): its location and vended credentials are Azure's.
     */
    public Builder storedInAzure(String fullName, String container) {
      tables.get(fullName).storedInAzure(container);
      return this;
    }

    /**
     * The files of the table {@code fullName} are read through the object store's Google Cloud Storage JSON API (see
     * {@link SharedTable#storedInGcs}): its location is {@code gs://} and its vended credentials OAuth tokens.
     */
    public Builder storedInGcs(String fullName) {
      tables.get(fullName).storedInGcs();
      return this;
    }

    /** Adds {@code dir} as an auxiliary location of the table {@code fullName} (see
     *  {@link SharedTable#addAuxiliaryLocation}). */
    public Builder auxiliaryLocation(String fullName, Path dir) {
      tables.get(fullName).addAuxiliaryLocation(dir);
      return this;
    }

    /** Lifetime of vended temporary table credentials (default one hour); {@link Faults#credentialTtl} changes it
     *  while the server runs. */
    public Builder credentialTtl(Duration ttl) {
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("the credential lifetime must be positive: " + ttl);
      }
      this.credentialTtl = ttl;
      return this;
    }

    /** Lifetime of pre-signed URLs (default one hour, as the reference server). */
    public Builder urlTtl(Duration ttl) {
      this.urlTtl = ttl;
      return this;
    }

    /** Whether metaData lines carry the table's {@code size} and {@code numFiles}: the reference server does not
     *  (default off); other servers do. */
    public Builder metadataSizes(boolean on) {
      this.metadataSizes = on;
      return this;
    }

    /** How {@code startingTimestamp} on the version endpoint resolves (default {@link TimestampResolution#EXACT}). */
    public Builder timestampResolution(TimestampResolution resolution) {
      this.timestampResolution = resolution;
      return this;
    }

    /**
     * The host name the endpoint and the pre-signed URLs carry (default 127.0.0.1), for clients that reach the
     * loopback-bound server through a tunnel, e.g. containers via {@code host.testcontainers.internal}. A
     * {@link #publicUrl} takes precedence.
     */
    public Builder advertisedHost(String host) {
      this.advertisedHost = host;
      return this;
    }

    /**
     * The address to listen on (default the loopback address), e.g. {@code 0.0.0.0} for every interface of a
     * container whose clients are other containers.
     */
    public Builder bindAddress(String address) {
      try {
        this.bindAddress = InetAddress.getByName(address);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("cannot resolve the bind address '" + address + "'", e);
      }
      return this;
    }

    /**
     * The base URL clients reach the server at, {@code http(s)://host[:port]} (e.g. {@code http://sharing:8080}
     * behind a container name or a proxy): the profile endpoint, the token endpoint and the pre-signed file URLs
     * then start with it instead of {@code http://<advertised host>:<port>}. Default: none.
     */
    /**
     * Serves HTTPS with {@code certificates}' server certificate (the API, storage and the token endpoint alike):
     * clients trust it only with the test authority's certificate.
     */
    public Builder tls(io.sharestream.testkit.net.TestCertificates certificates) {
      this.tls = certificates;
      return this;
    }

    public Builder publicUrl(String url) {
      URI uri;
      try {
        uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
      } catch (IllegalArgumentException e) {
        uri = null;
      }
      boolean httpScheme = uri != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()));
      if (!httpScheme || uri.getRawAuthority() == null || uri.getRawUserInfo() != null || !uri.getRawPath().isEmpty()
          || uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new IllegalArgumentException("the public URL must be http(s)://host[:port] without a path: " + url);
      }
      this.publicUrl = uri.toString();
      return this;
    }

    /** Port to listen on; 0 (default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public DeltaSharingServer start() {
      try {
        return new DeltaSharingServer(this);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start the Delta Sharing test server", e);
      }
    }
  }

  /** The profile {@code endpoint}: {@code http://127.0.0.1:<port>/delta-sharing} (or under the public URL). */
  public String endpoint() {
    return baseUrl + PREFIX;
  }

  public int port() {
    return http.getAddress().getPort();
  }

  public String bearerToken() {
    return bearerToken;
  }

  /**
   * Replaces the bearer token the server accepts with a new one, as a provider rotating a recipient's token: the old
   * one is refused (HTTP 401) from now on. Returns the new token ({@link #profileJson()} has it).
   */
  public String rotateBearerToken() {
    bearerToken = "token-" + UUID.randomUUID();
    return bearerToken;
  }

  /** Accepts HTTP Basic credentials {@code username}:{@code password} too (a version 2 {@code basic} profile). */
  public DeltaSharingServer enableBasic(String username, String password) {
    basicCredentials = "Basic " + java.util.Base64.getEncoder().encodeToString((username + ":" + password)
        .getBytes(StandardCharsets.UTF_8));
    return this;
  }

  /** A version 2 {@code basic} profile for this server. */
  public String basicProfileJson(String username, String password) {
    ObjectNode p = Lines.JSON.createObjectNode();
    p.put("shareCredentialsVersion", 2);
    p.put("type", "basic");
    p.put("endpoint", endpoint());
    p.put("username", username);
    p.put("password", password);
    return p.toString();
  }

  /**
   * Turns on the token endpoint's JWT bearer grant (RFC 7523) for {@code clientId}: an assertion signed by the private
   * key of {@code publicKey} (RS256 or ES256), issued by the client, for audience {@code issuer} and not expired,
   * gets an access token of {@code tokenLifetime}.
   */
  public DeltaSharingServer enablePrivateKeyJwt(String clientId, String issuer, java.security.PublicKey publicKey,
      Duration tokenLifetime) {
    oauth.configureJwt(clientId, issuer, publicKey, tokenLifetime);
    return this;
  }

  /** A version 2 {@code oauth_jwt_bearer_private_key_jwt} profile for this server, the key in {@code keyFile}. */
  public String privateKeyJwtProfileJson(String clientId, String issuer, String keyFile, String algorithm) {
    ObjectNode p = Lines.JSON.createObjectNode();
    p.put("shareCredentialsVersion", 2);
    p.put("type", "oauth_jwt_bearer_private_key_jwt");
    p.put("endpoint", endpoint());
    ObjectNode auth = p.putObject("auth");
    auth.put("tokenEndpoint", tokenEndpoint());
    auth.put("clientId", clientId);
    auth.put("issuer", issuer);
    auth.put("audience", endpoint());
    auth.putObject("privateKey").put("privateKeyFile", keyFile).put("keyId", "key-1").put("algorithm", algorithm);
    return p.toString();
  }

  /** A version 1 profile (bearer token) for this server. */
  public String profileJson() {
    ObjectNode p = Lines.JSON.createObjectNode();
    p.put("shareCredentialsVersion", 1);
    p.put("endpoint", endpoint());
    p.put("bearerToken", bearerToken);
    return p.toString();
  }

  /**
   * The data files of {@code table}'s latest version (their paths in its log) in the order a reader numbers them
   * within a version: by the file ids this server answers with in the {@code parquet} id scheme, which clients ask
   * for. Lets a test pick, say, a version's second file.
   */
  public static List<String> filesInIdOrder(DeltaTableWriter table) {
    TreeMap<String, String> byId = new TreeMap<>();
    for (DeltaAction.AddFile f : table.snapshot().files()) {
      byId.put(FileUrls.fileId(f.path), f.path);
    }
    return new ArrayList<>(byId.values());
  }

  /** Writes {@link #profileJson()} to {@code file} and returns it. */
  public Path writeProfile(Path file) {
    try {
      Files.write(file, profileJson().getBytes(StandardCharsets.UTF_8));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Turns on the OAuth client-credentials endpoint; its tokens are then accepted by the API until they expire. */
  public DeltaSharingServer enableOAuth(String clientId, String clientSecret, Duration tokenLifetime) {
    oauth.configure(clientId, clientSecret, tokenLifetime);
    return this;
  }

  /** The OAuth token endpoint URL ({@code tokenEndpoint} of a version 2 profile). */
  public String tokenEndpoint() {
    return baseUrl + "/oauth/token";
  }

  /** A version 2 profile ({@code oauth_client_credentials}) for this server. */
  public String oauthProfileJson(String clientId, String clientSecret) {
    ObjectNode p = Lines.JSON.createObjectNode();
    p.put("shareCredentialsVersion", 2);
    p.put("type", "oauth_client_credentials");
    p.put("endpoint", endpoint());
    p.put("tokenEndpoint", tokenEndpoint());
    p.put("clientId", clientId);
    p.put("clientSecret", clientSecret);
    return p.toString();
  }

  public SharedTables tables() {
    return tables;
  }

  /** The S3-compatible object store of directory-based access: its endpoint, region and bucket. */
  public ObjectStore objectStore() {
    return objectStore;
  }

  /** Sets, while the server runs, when the queries of the table or view {@code fullName} are answered
   *  asynchronously (from the next submission on). */
  public DeltaSharingServer async(String fullName, AsyncMode mode) {
    tables.get(fullName).asyncMode(mode);
    return this;
  }

  public Faults faults() {
    return faults;
  }

  public RequestLog requests() {
    return requests;
  }

  Duration urlTtl() {
    return urlTtl;
  }

  Duration credentialTtl() {
    return credentialTtl;
  }

  String baseUrl() {
    return baseUrl;
  }

  boolean metadataSizes() {
    return metadataSizes;
  }

  TimestampResolution timestampResolution() {
    return timestampResolution;
  }

  boolean historyInDeltaFormat() {
    return historyInDeltaFormat;
  }

  boolean deletionVectorFileIds() {
    return deletionVectorFileIds;
  }

  boolean honourFileIdHash() {
    return honourFileIdHash;
  }

  boolean viewVersionRefused() {
    return viewVersionRefused;
  }

  boolean asyncAdvertised() {
    return asyncAdvertised;
  }

  FileUrls urls() {
    return urls;
  }

  String prefix() {
    return PREFIX;
  }

  boolean authorized(String header) {
    String basic = basicCredentials;
    if (basic != null && header != null && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8),
        basic.getBytes(StandardCharsets.UTF_8))) {
      return true;
    }
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    String token = header.substring(7).trim();
    return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), bearerToken.getBytes(StandardCharsets.UTF_8))
        || oauth.accepts(token);
  }

  @Override
  public void close() {
    http.stop(0);
    executor.shutdownNow();
  }
}
