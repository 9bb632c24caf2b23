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
 * A Delta Sharing profile: the server endpoint and the recipient's credentials. Version 1 carries a bearer token
 * (optionally with {@code expirationTime}); version 2 with {@code type=oauth_client_credentials} carries an OAuth
 * token endpoint, client id and secret (and optional scope). {@link #toString()} never shows a secret.
 */
public final class DeltaSharingProfile implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  /** Highest {@code shareCredentialsVersion} this reader understands. */
  public static final int MAX_VERSION = 2;

  /** How the profile authenticates. */
  public enum Type {
    BEARER_TOKEN("bearer_token"),
    OAUTH_CLIENT_CREDENTIALS("oauth_client_credentials");

    final String wire;

    Type(String wire) {
      this.wire = wire;
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

  private DeltaSharingProfile(int version, String endpoint, Type type, String bearerToken, Instant expirationTime,
      String tokenEndpoint, String clientId, String clientSecret, String scope) {
    this.version = version;
    this.endpoint = endpoint;
    this.type = type;
    this.bearerToken = bearerToken;
    this.expirationTime = expirationTime;
    this.tokenEndpoint = tokenEndpoint;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.scope = scope;
    Secrets.register(bearerToken);
    Secrets.register(clientSecret);
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
    return parse(text, "profile file " + file);
  }

  /** Parses a profile given as JSON text. */
  public static DeltaSharingProfile fromJson(String json) {
    return parse(json, "profile");
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
    return parse(n.toString(), "profile options");
  }

  private static DeltaSharingProfile parse(String text, String source) {
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
      throw new InvalidProfileException("The " + source + " (version 2) has no 'type'; use 'bearer_token' or "
          + "'oauth_client_credentials'.");
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
            + "supported; use 'bearer_token' or 'oauth_client_credentials'.");
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
      throw new InvalidProfileException("The " + source + " uses type 'oauth_client_credentials', which needs "
          + "'shareCredentialsVersion' 2, not " + version + ".");
    }
    String tokenEndpoint = required(n, "tokenEndpoint", source);
    String clientId = required(n, "clientId", source);
    String clientSecret = required(n, "clientSecret", source);
    String scope = n.hasNonNull("scope") && !n.get("scope").asText().isEmpty() ? n.get("scope").asText() : null;
    return new DeltaSharingProfile(version, endpoint, type, null, null, tokenEndpoint, clientId, clientSecret, scope);
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

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DeltaSharingProfile)) {
      return false;
    }
    DeltaSharingProfile p = (DeltaSharingProfile) o;
    return version == p.version && endpoint.equals(p.endpoint) && type == p.type
        && Objects.equals(bearerToken, p.bearerToken) && Objects.equals(expirationTime, p.expirationTime)
        && Objects.equals(tokenEndpoint, p.tokenEndpoint) && Objects.equals(clientId, p.clientId)
        && Objects.equals(clientSecret, p.clientSecret) && Objects.equals(scope, p.scope);
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
