package io.sharestream.common.storage;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.Secrets;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Temporary credentials a sharing server vended for a table's storage location (Delta Sharing's
 * {@code temporary-table-credentials}, Unity Catalog's {@code TemporaryCredentials}): AWS session credentials, an
 * Azure user delegation SAS or a GCP OAuth token, each valid under {@link #location()} until {@link #expiresAt()}.
 * Every secret is registered with {@link Secrets} as it is read, so no message or log shows it; {@link #toString()}
 * shows none either.
 */
public final class StorageCredentials implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  /** Which cloud's credentials these are. */
  public enum Kind {
    /** {@code awsTempCredentials}: access key id, secret access key, session token. */
    AWS("awsTempCredentials", "aws_temp_credentials"),
    /** {@code azureUserDelegationSas}: a SAS token. */
    AZURE_SAS("azureUserDelegationSas", "azure_user_delegation_sas"),
    /** {@code gcpOauthToken}: an OAuth 2.0 access token. */
    GCP_OAUTH("gcpOauthToken", "gcp_oauth_token");

    final String field;
    final String snakeField;

    Kind(String field, String snakeField) {
      this.field = field;
      this.snakeField = snakeField;
    }
  }

  private final StorageLocation location;
  private final Kind kind;
  private final String accessKeyId;
  private final String secretAccessKey;
  private final String sessionToken;
  private final String sasToken;
  private final String oauthToken;
  private final Instant expiresAt;

  private StorageCredentials(StorageLocation location, Kind kind, String accessKeyId, String secretAccessKey,
      String sessionToken, String sasToken, String oauthToken, Instant expiresAt) {
    this.location = Objects.requireNonNull(location, "location");
    this.kind = kind;
    this.accessKeyId = accessKeyId;
    this.secretAccessKey = secretAccessKey;
    this.sessionToken = sessionToken;
    this.sasToken = sasToken;
    this.oauthToken = oauthToken;
    this.expiresAt = Objects.requireNonNull(expiresAt, "expiresAt");
    registerSecrets();
  }

  /**
   * Reads {@code {"credentials": {...}}} or the inner object: {@code location}, {@code expirationTime} (epoch
   * milliseconds) and one of {@code awsTempCredentials} ({@code accessKeyId}, {@code secretAccessKey}, optional
   * {@code sessionToken}), {@code azureUserDelegationSas} ({@code sasToken}) or {@code gcpOauthToken}
   * ({@code oauthToken}). Unity Catalog's snake_case names are read too.
   *
   * @throws io.sharestream.common.errors.ProtocolViolationException when a field is missing or empty, the
   *     credentials are of no kind known here (or of several), or the location is not an object store's
   */
  public static StorageCredentials fromJson(JsonNode json) {
    JsonNode c = json == null ? null : json.has("credentials") ? json.get("credentials") : json;
    if (c == null || !c.isObject()) {
      throw Errors.unusableStorageCredentials("the answer holds no credentials object");
    }
    List<Kind> kinds = new ArrayList<>();
    for (Kind k : Kind.values()) {
      if (field(c, k.field, k.snakeField) != null) {
        kinds.add(k);
      }
    }
    // the secrets first, so they are known before any message could be made
    String accessKeyId = null;
    String secretAccessKey = null;
    String sessionToken = null;
    String sasToken = null;
    String oauthToken = null;
    for (Kind k : kinds) {
      JsonNode inner = field(c, k.field, k.snakeField);
      if (!inner.isObject()) {
        throw Errors.unusableStorageCredentials(k.field + " is not an object");
      }
      switch (k) {
        case AWS:
          secretAccessKey = secret(inner, k, "secretAccessKey", "secret_access_key", true);
          sessionToken = secret(inner, k, "sessionToken", "session_token", false);
          accessKeyId = text(inner, k, "accessKeyId", "access_key_id", true);
          break;
        case AZURE_SAS:
          sasToken = secret(inner, k, "sasToken", "sas_token", true);
          break;
        case GCP_OAUTH:
        default:
          oauthToken = secret(inner, k, "oauthToken", "oauth_token", true);
          break;
      }
    }
    if (kinds.size() != 1) {
      throw Errors.unusableStorageCredentials(kinds.isEmpty()
          ? "they are of a kind this reader does not know (fields: " + fieldNames(c) + "; known kinds: "
              + "awsTempCredentials, azureUserDelegationSas, gcpOauthToken)"
          : "they hold several kinds of credentials (" + kinds + ") where one is expected");
    }
    JsonNode loc = field(c, "location", "location");
    if (loc == null || !loc.isTextual() || loc.asText().trim().isEmpty()) {
      throw Errors.unusableStorageCredentials("the field location is missing or empty");
    }
    JsonNode exp = field(c, "expirationTime", "expiration_time");
    if (exp == null || !(exp.canConvertToLong() || exp.isTextual() && exp.asText().matches("\\d{1,18}"))) {
      throw Errors.unusableStorageCredentials("the field expirationTime (epoch milliseconds) is missing or not a "
          + "number");
    }
    Instant expiresAt = Instant.ofEpochMilli(exp.isTextual() ? Long.parseLong(exp.asText()) : exp.asLong());
    return new StorageCredentials(StorageLocation.parse(loc.asText()), kinds.get(0), accessKeyId, secretAccessKey,
        sessionToken, sasToken, oauthToken, expiresAt);
  }

  /** AWS session credentials ({@code sessionToken} null for long-term keys) valid under {@code location}. */
  public static StorageCredentials aws(String location, String accessKeyId, String secretAccessKey,
      String sessionToken, Instant expiresAt) {
    return new StorageCredentials(StorageLocation.parse(location), Kind.AWS, required(accessKeyId, "accessKeyId"),
        required(secretAccessKey, "secretAccessKey"), sessionToken, null, null, expiresAt);
  }

  /** An Azure SAS token (with or without its leading {@code ?}) valid under {@code location}. */
  public static StorageCredentials azureSas(String location, String sasToken, Instant expiresAt) {
    return new StorageCredentials(StorageLocation.parse(location), Kind.AZURE_SAS, null, null, null,
        stripQuestionMark(required(sasToken, "sasToken")), null, expiresAt);
  }

  /** A GCP OAuth 2.0 access token valid under {@code location}. */
  public static StorageCredentials gcpOauth(String location, String oauthToken, Instant expiresAt) {
    return new StorageCredentials(StorageLocation.parse(location), Kind.GCP_OAUTH, null, null, null, null,
        required(oauthToken, "oauthToken"), expiresAt);
  }

  private static String required(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " is required");
    }
    return value;
  }

  private static JsonNode field(JsonNode n, String name, String snakeName) {
    JsonNode v = n.get(name);
    if (v == null || v.isNull()) {
      v = n.get(snakeName);
    }
    return v == null || v.isNull() ? null : v;
  }

  private static String secret(JsonNode inner, Kind k, String name, String snakeName, boolean required) {
    JsonNode v = field(inner, name, snakeName);
    if (v != null && v.isTextual()) {
      Secrets.register(v.asText());
    }
    String s = text(inner, k, name, snakeName, required);
    return k == Kind.AZURE_SAS ? stripQuestionMark(s) : s;
  }

  private static String text(JsonNode inner, Kind k, String name, String snakeName, boolean required) {
    JsonNode v = field(inner, name, snakeName);
    if (v == null && !required) {
      return null;
    }
    if (v == null || !v.isTextual() || v.asText().isEmpty()) {
      throw Errors.unusableStorageCredentials("the field " + k.field + "." + name + " is missing or empty");
    }
    return v.asText();
  }

  private static String stripQuestionMark(String sas) {
    return sas.startsWith("?") ? sas.substring(1) : sas;
  }

  private static String fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return String.join(", ", names);
  }

  /** Registers every secret value, and a SAS token's signature alone ({@code sig=}, raw and decoded). */
  private void registerSecrets() {
    Secrets.register(secretAccessKey);
    Secrets.register(sessionToken);
    Secrets.register(oauthToken);
    Secrets.register(sasToken);
    if (sasToken != null) {
      for (String p : sasToken.split("&")) {
        if (p.startsWith("sig=")) {
          Secrets.register(p.substring(4));
          try {
            Secrets.register(UriCodec.decode(p.substring(4), "the SAS token"));
          } catch (RuntimeException malformed) {
            // the raw value is registered
          }
        }
      }
    }
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    registerSecrets(); // a copy in another JVM (a Spark executor) keeps them out of its messages too
  }

  /** The location these credentials are valid under (the table's root, or one of its auxiliary locations). */
  public StorageLocation location() {
    return location;
  }

  public Kind kind() {
    return kind;
  }

  /** AWS only; not a secret, but shown nowhere. */
  public String accessKeyId() {
    return accessKeyId;
  }

  /** AWS only. */
  public String secretAccessKey() {
    return secretAccessKey;
  }

  /** AWS only; null for credentials without a session. */
  public String sessionToken() {
    return sessionToken;
  }

  /** Azure only: the SAS query ({@code sv=...&sig=...}) without a leading {@code ?}. */
  public String sasToken() {
    return sasToken;
  }

  /** GCP only. */
  public String oauthToken() {
    return oauthToken;
  }

  public Instant expiresAt() {
    return expiresAt;
  }

  /** Whether these credentials are valid for {@code object}: it lies under their {@link #location()}. */
  public boolean covers(StorageLocation object) {
    return object.isUnder(location);
  }

  /**
   * Of {@code candidates} (a table's root and auxiliary credentials), the one whose location is the closest to
   * {@code object} among those covering it; null if none does.
   */
  public static StorageCredentials covering(Iterable<StorageCredentials> candidates, StorageLocation object) {
    StorageCredentials best = null;
    for (StorageCredentials c : candidates) {
      if (c.covers(object) && (best == null || c.location.key().length() > best.location.key().length())) {
        best = c;
      }
    }
    return best;
  }

  /** The signer of this kind of credentials: {@link S3Signer}, {@link AzureSasSigner} or {@link GcsSigner}. */
  public StorageSigner signer(StorageSettings settings) {
    switch (kind) {
      case AWS:
        return new S3Signer(this, settings);
      case AZURE_SAS:
        return new AzureSasSigner(this, settings);
      case GCP_OAUTH:
      default:
        return new GcsSigner(this, settings);
    }
  }

  /** The kind, location and expiry; never a secret. */
  @Override
  public String toString() {
    return "StorageCredentials{" + kind + " for " + location + ", expires " + expiresAt + "}";
  }
}
