package io.sharestream.common.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.Secrets;
import io.sharestream.common.types.Instants;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A Delta Sharing profile: the server endpoint and the recipient's credentials, in every form the official clients
 * accept. Version 1 carries a bearer token (optionally with {@code expirationTime}); version 2 names its
 * {@code type}: {@code bearer_token} (as version 1), {@code oauth_client_credentials} (an OAuth token endpoint,
 * client id and secret, optional scope), {@code basic} ({@code username} and {@code password}, sent as HTTP Basic)
 * or {@code oauth_jwt_bearer_private_key_jwt} (an {@code auth} object: an OAuth token endpoint whose access tokens
 * are granted for a JWT signed with the recipient's private key, RFC 7523; the key's PEM file is read with the
 * profile). {@link #toString()} never shows a secret.
 */
public final class DeltaSharingProfile implements java.io.Serializable {
  private static final long serialVersionUID = 2L;
  /** Highest {@code shareCredentialsVersion} this reader understands. */
  public static final int MAX_VERSION = 2;

  /** How the profile authenticates. */
  public enum Type {
    BEARER_TOKEN("bearer_token"),
    OAUTH_CLIENT_CREDENTIALS("oauth_client_credentials"),
    BASIC("basic"),
    OAUTH_JWT_BEARER_PRIVATE_KEY_JWT("oauth_jwt_bearer_private_key_jwt");

    final String wire;

    Type(String wire) {
      this.wire = wire;
    }

    /** The profile's name of the type, e.g. {@code oauth_client_credentials}. */
    public String wireName() {
      return wire;
    }

    static String names() {
      StringBuilder b = new StringBuilder();
      for (Type t : values()) {
        b.append(b.length() == 0 ? "'" : t.ordinal() == values().length - 1 ? " or '" : ", '").append(t.wire)
            .append('\'');
      }
      return b.toString();
    }
  }

  /** The private-key JWT fields of an {@code oauth_jwt_bearer_private_key_jwt} profile ({@code auth}). */
  public static final class PrivateKeyJwt implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final String issuer;
    private final String audience;
    private final String keyId;
    private final String algorithm;
    private final String privateKeyPem;

    PrivateKeyJwt(String issuer, String audience, String keyId, String algorithm, String privateKeyPem) {
      this.issuer = issuer;
      this.audience = audience;
      this.keyId = keyId;
      this.algorithm = algorithm;
      this.privateKeyPem = privateKeyPem;
      Secrets.register(privateKeyPem);
    }

    /** The authorization server the JWT is for: its {@code aud} claim. */
    public String issuer() {
      return issuer;
    }

    /** The resource the access token is for (the JWT's {@code resource} claim); null if none. */
    public String audience() {
      return audience;
    }

    /** The key's id at the authorization server (the JWT header's {@code kid}); null if none. */
    public String keyId() {
      return keyId;
    }

    /** The JWS algorithm, {@code RS256} (default) or {@code ES256}. */
    public String algorithm() {
      return algorithm;
    }

    /** The private key, PEM text (PKCS#8, or PKCS#1 for RSA). */
    public String privateKeyPem() {
      return privateKeyPem;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof PrivateKeyJwt)) {
        return false;
      }
      PrivateKeyJwt k = (PrivateKeyJwt) o;
      return issuer.equals(k.issuer) && Objects.equals(audience, k.audience) && Objects.equals(keyId, k.keyId)
          && algorithm.equals(k.algorithm) && privateKeyPem.equals(k.privateKeyPem);
    }

    @Override
    public int hashCode() {
      return Objects.hash(issuer, audience, keyId, algorithm);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final int version;
  private final String endpoint;
  private final Type type;
  private final String bearerToken;
  private final Instant expirationTime;
  private final String tokenEndpoint;
  private final String clientId;
  private final String clientSecret;
  private final String scope;
  private final String username;
  private final String password;
  private final PrivateKeyJwt privateKeyJwt;

  private DeltaSharingProfile(int version, String endpoint, Type type, String bearerToken, Instant expirationTime,
      String tokenEndpoint, String clientId, String clientSecret, String scope) {
    this(version, endpoint, type, bearerToken, expirationTime, tokenEndpoint, clientId, clientSecret, scope, null,
        null, null);
  }

  private DeltaSharingProfile(int version, String endpoint, Type type, String bearerToken, Instant expirationTime,
      String tokenEndpoint, String clientId, String clientSecret, String scope, String username, String password,
      PrivateKeyJwt privateKeyJwt) {
    this.version = version;
    this.endpoint = endpoint;
    this.type = type;
    this.bearerToken = bearerToken;
    this.expirationTime = expirationTime;
    this.tokenEndpoint = tokenEndpoint;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.scope = scope;
    this.username = username;
    this.password = password;
    this.privateKeyJwt = privateKeyJwt;
    Secrets.register(bearerToken);
    Secrets.register(clientSecret);
    Secrets.register(password);
  }

  /** Reads a profile file. */
  public static DeltaSharingProfile fromFile(Path file) {
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InvalidProfileException("Profile file " + file + " does not exist.");
    } catch (IOException e) {
      throw new InvalidProfileException("Profile file " + file + " cannot be read: " + e.getMessage());
    }
    return parse(text, "profile file " + file, file.toAbsolutePath().getParent());
  }

  /** Parses a profile given as JSON text. */
  public static DeltaSharingProfile fromJson(String json) {
    return parse(json, "profile", null);
  }

  /**
   * Parses a profile file's JSON text read from {@code location} (a name for messages); a private key file it names
   * by a relative path is looked for beside it when {@code directory} is given.
   */
  public static DeltaSharingProfile fromJson(String json, String location, Path directory) {
    return parse(json, "profile file " + location, directory);
  }

  /** Builds a profile from the same fields given as options (the reference client's option names). */
  public static DeltaSharingProfile fromMap(Map<String, String> fields) {
    com.fasterxml.jackson.databind.node.ObjectNode n = JSON.createObjectNode();
    fields.forEach((k, v) -> {
      if (k.equals("shareCredentialsVersion")) {
        try {
          n.put(k, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
          n.put(k, v);
        }
      } else {
        n.put(k, v);
      }
    });
    return parse(n.toString(), "profile options", null);
  }

  private static DeltaSharingProfile parse(String text, String source, Path directory) {
    JsonNode n;
    try {
      n = JSON.readTree(text);
    } catch (IOException e) {
      throw new InvalidProfileException("The " + source + " is not valid JSON.");
    }
    if (n == null || !n.isObject()) {
      throw new InvalidProfileException("The " + source + " must be a JSON object.");
    }
    JsonNode v = n.get("shareCredentialsVersion");
    if (v == null || v.isNull()) {
      throw new InvalidProfileException("The " + source + " has no 'shareCredentialsVersion'.");
    }
    if (!v.canConvertToInt() || !v.isIntegralNumber()) {
      throw new InvalidProfileException("'shareCredentialsVersion' in the " + source + " must be an integer, not " + v);
    }
    int version = v.asInt();
    if (version < 1) {
      throw new InvalidProfileException("'shareCredentialsVersion' in the " + source + " must be 1 or 2, not "
          + version);
    }
    if (version > MAX_VERSION) {
      throw new InvalidProfileException("The " + source + " has 'shareCredentialsVersion' " + version + ", which is "
          + "newer than this reader supports (" + MAX_VERSION + "). Upgrade the connector, or ask the provider for a "
          + "version " + MAX_VERSION + " profile.");
    }
    String endpoint = required(n, "endpoint", source);
    if (!endpoint.startsWith("http://") && !endpoint.startsWith("https://")) {
      throw new InvalidProfileException("'endpoint' in the " + source + " must be an http(s) URL, not '" + endpoint
          + "'.");
    }
    endpoint = endpoint.replaceAll("/+$", "");
    String typeText = n.hasNonNull("type") ? n.get("type").asText().toLowerCase(Locale.ROOT) : null;
    if (version == 2 && typeText == null) {
      throw new InvalidProfileException("The " + source + " (version 2) has no 'type'; use " + Type.names() + ".");
    }
    Type type = Type.BEARER_TOKEN;
    if (typeText != null) {
      type = null;
      for (Type t : Type.values()) {
        if (t.wire.equals(typeText)) {
          type = t;
        }
      }
      if (type == null) {
        throw new InvalidProfileException("'type' in the " + source + " is '" + typeText + "', which is not "
            + "supported; use " + Type.names() + ".");
      }
    }
    if (type == Type.BEARER_TOKEN) {
      String token = required(n, "bearerToken", source);
      Instant expiry = null;
      if (n.hasNonNull("expirationTime")) {
        String t = n.get("expirationTime").asText();
        try {
          expiry = Instants.parse(t);
        } catch (DateTimeParseException e) {
          throw new InvalidProfileException("'expirationTime' in the " + source + " is not an ISO-8601 instant "
              + "(e.g. 2024-01-31T00:00:00Z): '" + t + "'.");
        }
      }
      return new DeltaSharingProfile(version, endpoint, type, token, expiry, null, null, null, null);
    }
    if (version != 2) {
      throw new InvalidProfileException("The " + source + " uses type '" + type.wire + "', which needs "
          + "'shareCredentialsVersion' 2, not " + version + ".");
    }
    if (type == Type.BASIC) {
      return new DeltaSharingProfile(version, endpoint, type, null, null, null, null, null, null,
          required(n, "username", source), required(n, "password", source), null);
    }
    if (type == Type.OAUTH_JWT_BEARER_PRIVATE_KEY_JWT) {
      return privateKeyJwt(n, version, endpoint, source, directory);
    }
    String tokenEndpoint = required(n, "tokenEndpoint", source);
    String clientId = required(n, "clientId", source);
    String clientSecret = required(n, "clientSecret", source);
    String scope = n.hasNonNull("scope") && !n.get("scope").asText().isEmpty() ? n.get("scope").asText() : null;
    return new DeltaSharingProfile(version, endpoint, type, null, null, tokenEndpoint, clientId, clientSecret, scope);
  }

  /** An {@code oauth_jwt_bearer_private_key_jwt} profile: its fields in {@code auth}, as the official client has them. */
  private static DeltaSharingProfile privateKeyJwt(JsonNode n, int version, String endpoint, String source,
      Path directory) {
    JsonNode auth = n.get("auth");
    if (auth == null || !auth.isObject()) {
      throw new InvalidProfileException("The " + source + " (type 'oauth_jwt_bearer_private_key_jwt') has no "
          + "'auth' object.");
    }
    String in = source + "'s 'auth'";
    String tokenEndpoint = required(auth, "tokenEndpoint", in).replaceAll("/+$", "");
    String clientId = required(auth, "clientId", in);
    String issuer = required(auth, "issuer", in);
    String audience = optional(auth, "audience");
    String scope = optional(auth, "scope");
    JsonNode key = auth.get("privateKey");
    if (key == null || !key.isObject()) {
      throw new InvalidProfileException("The " + in + " has no 'privateKey' object (privateKeyFile, keyId, "
          + "algorithm).");
    }
    String keyIn = in + " 'privateKey'";
    String algorithm = optional(key, "algorithm");
    algorithm = algorithm == null ? "RS256" : algorithm.toUpperCase(Locale.ROOT);
    if (!algorithm.equals("RS256") && !algorithm.equals("ES256")) {
      throw new InvalidProfileException("'algorithm' in the " + keyIn + " is '" + algorithm + "'; use RS256 or "
          + "ES256.");
    }
    Path keyFile = java.nio.file.Paths.get(required(key, "privateKeyFile", keyIn));
    if (!keyFile.isAbsolute() && directory != null) {
      keyFile = directory.resolve(keyFile);
    }
    String pem;
    try {
      pem = new String(Files.readAllBytes(keyFile), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InvalidProfileException("The private key file " + keyFile + " the " + keyIn + " names does not "
          + "exist.");
    } catch (IOException e) {
      throw new InvalidProfileException("The private key file " + keyFile + " the " + keyIn + " names cannot be "
          + "read: " + e.getMessage());
    }
    return new DeltaSharingProfile(version, endpoint, Type.OAUTH_JWT_BEARER_PRIVATE_KEY_JWT, null, null,
        tokenEndpoint, clientId, null, scope, null, null,
        new PrivateKeyJwt(issuer, audience, optional(key, "keyId"), algorithm, pem));
  }

  private static String optional(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() || v.asText().trim().isEmpty() ? null : v.asText().trim();
  }

  private static String required(JsonNode n, String field, String source) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull() || v.asText().trim().isEmpty()) {
      throw new InvalidProfileException("The " + source + " has no '" + field + "'.");
    }
    return v.asText().trim();
  }

  public int version() {
    return version;
  }

  /** The server URL without a trailing slash; REST paths are appended to it. */
  public String endpoint() {
    return endpoint;
  }

  public Type type() {
    return type;
  }

  public String bearerToken() {
    return bearerToken;
  }

  /** When the bearer token expires, or null if the profile does not say. */
  public Instant expirationTime() {
    return expirationTime;
  }

  public String tokenEndpoint() {
    return tokenEndpoint;
  }

  public String clientId() {
    return clientId;
  }

  public String clientSecret() {
    return clientSecret;
  }

  public String scope() {
    return scope;
  }

  /** A {@code basic} profile's user name; else null. */
  public String username() {
    return username;
  }

  /** A {@code basic} profile's password; else null. */
  public String password() {
    return password;
  }

  /** An {@code oauth_jwt_bearer_private_key_jwt} profile's key and claims; else null. */
  public PrivateKeyJwt privateKeyJwt() {
    return privateKeyJwt;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DeltaSharingProfile)) {
      return false;
    }
    DeltaSharingProfile p = (DeltaSharingProfile) o;
    return version == p.version && endpoint.equals(p.endpoint) && type == p.type
        && Objects.equals(bearerToken, p.bearerToken) && Objects.equals(expirationTime, p.expirationTime)
        && Objects.equals(tokenEndpoint, p.tokenEndpoint) && Objects.equals(clientId, p.clientId)
        && Objects.equals(clientSecret, p.clientSecret) && Objects.equals(scope, p.scope)
        && Objects.equals(username, p.username) && Objects.equals(password, p.password)
        && Objects.equals(privateKeyJwt, p.privateKeyJwt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(version, endpoint, type, bearerToken, tokenEndpoint, clientId, clientSecret);
  }

  /** Endpoint and kind of credentials; secrets show as {@code <redacted>}. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("DeltaSharingProfile{version=").append(version).append(", endpoint=")
        .append(endpoint).append(", type=").append(type.wire);
    if (type == Type.BEARER_TOKEN) {
      b.append(", bearerToken=<redacted>");
      if (expirationTime != null) {
        b.append(", expirationTime=").append(expirationTime);
      }
    } else if (type == Type.BASIC) {
      b.append(", username=").append(username).append(", password=<redacted>");
    } else if (type == Type.OAUTH_JWT_BEARER_PRIVATE_KEY_JWT) {
      b.append(", tokenEndpoint=").append(tokenEndpoint).append(", clientId=").append(clientId).append(", issuer=")
          .append(privateKeyJwt.issuer).append(", algorithm=").append(privateKeyJwt.algorithm)
          .append(", privateKey=<redacted>");
    } else {
      b.append(", tokenEndpoint=").append(tokenEndpoint).append(", clientId=").append(clientId)
          .append(", clientSecret=<redacted>");
      if (scope != null) {
        b.append(", scope=").append(scope);
      }
    }
    return b.append('}').toString();
  }
}
