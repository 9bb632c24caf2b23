package io.sharestream.common.client;

import io.sharestream.common.profile.DeltaSharingProfile;
import java.time.Clock;
import java.time.Instant;

/** Supplies the {@code Authorization} header for sharing-server requests. Implementations are thread-safe. */
public interface CredentialProvider {
  /** The header value, e.g. {@code Bearer <token>}; fetches or renews a token when needed. */
  String authorizationHeader();

  /** The server answered 401 with the current credentials: drop any cached token so the next call gets a new one. */
  void invalidate();

  /** When the current token expires, or null when unknown (used in error messages only). */
  Instant tokenExpiry();

  /** Whether a 401 may be cured by fetching a new token (OAuth) rather than being final (static bearer token). */
  boolean renewable();

  /** The provider a profile calls for. */
  static CredentialProvider forProfile(DeltaSharingProfile profile, HttpTransport http, ClientSettings settings,
      Clock clock) {
    switch (profile.type()) {
      case OAUTH_CLIENT_CREDENTIALS:
        return new OAuthAccessTokens(profile, OAuthAccessTokens.clientCredentials(profile), http, settings, clock);
      case OAUTH_JWT_BEARER_PRIVATE_KEY_JWT:
        return new OAuthAccessTokens(profile, new PrivateKeyJwtGrant(profile), http, settings, clock);
      case BASIC:
        return new BearerToken("Basic " + java.util.Base64.getEncoder().encodeToString((profile.username() + ":"
            + profile.password()).getBytes(java.nio.charset.StandardCharsets.UTF_8)), null);
      case BEARER_TOKEN:
      default:
        return new BearerToken("Bearer " + profile.bearerToken(), profile.expirationTime());
    }
  }

  /** A fixed header: a profile's bearer token, or a {@code basic} profile's user name and password. */
  final class BearerToken implements CredentialProvider {
    private final String header;
    private final Instant expiry;

    BearerToken(String header, Instant expiry) {
      this.header = header;
      this.expiry = expiry;
      io.sharestream.common.errors.Secrets.register(header.substring(header.indexOf(' ') + 1));
    }

    @Override
    public String authorizationHeader() {
      return header;
    }

    @Override
    public void invalidate() {}

    @Override
    public Instant tokenExpiry() {
      return expiry;
    }

    @Override
    public boolean renewable() {
      return false;
    }

    @Override
    public String toString() {
      return "FixedCredentials{<redacted>" + (expiry == null ? "" : ", expires " + expiry) + "}";
    }
  }
}
