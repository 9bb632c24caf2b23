package io.sharestream.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.common.errors.EndpointUnreachableException.Target;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.Secrets;
import io.sharestream.common.profile.DeltaSharingProfile;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * OAuth 2.0 access tokens of a version 2 profile: POSTs the profile's grant ({@link Grant}: client credentials with
 * HTTP Basic client authentication, or a JWT signed with the recipient's private key) to the token endpoint, caches
 * the access token and renews it before it expires (once less than 10 minutes, or half its lifetime for short-lived
 * tokens, remains). One thread fetches; the others wait for it.
 */
final class OAuthAccessTokens implements CredentialProvider {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration MAX_RENEWAL_MARGIN = Duration.ofMinutes(10);

  private final DeltaSharingProfile profile;
  private final Grant grant;
  private final HttpTransport http;
  private final ClientSettings settings;
  private final Retrier retrier;
  private final Clock clock;
  private final Object lock = new Object();
  private volatile Token token;

  private static final class Token {
    final String header;
    final Instant expiresAt;
    final Instant renewAt;

    Token(String value, Instant issuedAt, Duration lifetime) {
      this.header = "Bearer " + value;
      this.expiresAt = issuedAt.plus(lifetime);
      Duration margin = lifetime.dividedBy(2);
      this.renewAt = expiresAt.minus(margin.compareTo(MAX_RENEWAL_MARGIN) > 0 ? MAX_RENEWAL_MARGIN : margin);
    }
  }

  /** What a token request sends beside {@code Accept} and {@code User-Agent}. */
  interface Grant {
    /** The form body, {@code grant_type=...}. */
    String form(Instant now);

    /** The {@code Authorization} header value; null for none. */
    String authorization();
  }

  /** The client credentials grant: client id and secret as HTTP Basic, the scope in the form. */
  static Grant clientCredentials(DeltaSharingProfile profile) {
    return new Grant() {
      @Override
      public String form(Instant now) {
        return "grant_type=client_credentials"
            + (profile.scope() == null ? "" : "&scope=" + Http.queryValue(profile.scope()));
      }

      @Override
      public String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString(
            (profile.clientId() + ":" + profile.clientSecret()).getBytes(StandardCharsets.UTF_8));
      }
    };
  }

  OAuthAccessTokens(DeltaSharingProfile profile, Grant grant, HttpTransport http, ClientSettings settings,
      Clock clock) {
    this.profile = profile;
    this.grant = grant;
    this.http = http;
    this.settings = settings;
    this.retrier = new Retrier(settings.retry(), settings.sleeper(),
        (what, attempts, last) -> Errors.oauthFailing(profile.tokenEndpoint(), attempts, last));
    this.clock = clock;
  }

  @Override
  public String authorizationHeader() {
    Token t = token;
    if (t == null || !clock.instant().isBefore(t.renewAt)) {
      synchronized (lock) {
        t = token;
        if (t == null || !clock.instant().isBefore(t.renewAt)) {
          t = fetch();
          token = t;
        }
      }
    }
    return t.header;
  }

  @Override
  public void invalidate() {
    token = null;
  }

  @Override
  public Instant tokenExpiry() {
    Token t = token;
    return t == null ? null : t.expiresAt;
  }

  @Override
  public boolean renewable() {
    return true;
  }

  private Token fetch() {
    String what = "the access token request";
    URI uri = URI.create(profile.tokenEndpoint());
    return retrier.call(what, () -> {
      Instant issuedAt = clock.instant();
      String form = grant.form(issuedAt);
      Map<String, String> headers = new LinkedHashMap<>();
      String authorization = grant.authorization();
      if (authorization != null) {
        headers.put("Authorization", authorization);
      }
      headers.put("Accept", "application/json");
      headers.put("User-Agent", settings.userAgent());
      Answer r = http.send("POST", uri, headers, form, "application/x-www-form-urlencoded",
          Target.OAUTH_TOKEN_ENDPOINT);
      String text = Http.readSmall(r.body(), 64 * 1024);
      int status = r.status();
      if (status == 429 || status >= 500) {
        throw new TransientFailure("the OAuth token endpoint " + Errors.safeUrl(profile.tokenEndpoint())
            + " answered HTTP " + status, Http.retryAfter(r), null);
      }
      if (status != 200) {
        throw Errors.oauthRefused(profile.tokenEndpoint(), status, shorten(text));
      }
      JsonNode body;
      try {
        body = JSON.readTree(text);
      } catch (IOException e) {
        throw Errors.oauthBadAnswer(profile.tokenEndpoint(), "with a body that is not JSON");
      }
      JsonNode access = body == null ? null : body.get("access_token");
      JsonNode expiresIn = body == null ? null : body.get("expires_in");
      if (access == null || !access.isTextual() || access.asText().isEmpty()) {
        throw Errors.oauthBadAnswer(profile.tokenEndpoint(), "without an access_token");
      }
      long seconds;
      try {
        seconds = expiresIn == null ? 3600 : expiresIn.isNumber() ? expiresIn.asLong()
            : Long.parseLong(expiresIn.asText().trim());
      } catch (NumberFormatException e) {
        throw Errors.oauthBadAnswer(profile.tokenEndpoint(), "with a non-numeric expires_in");
      }
      Secrets.register(access.asText());
      return new Token(access.asText(), issuedAt, Duration.ofSeconds(Math.max(1, seconds)));
    });
  }

  private static String shorten(String s) {
    return s == null ? "" : s.length() > 300 ? s.substring(0, 300) + "..." : s;
  }

  @Override
  public String toString() {
    return "OAuthAccessTokens{" + profile.type().wireName() + ", tokenEndpoint="
        + Errors.safeUrl(profile.tokenEndpoint()) + ", clientId=" + profile.clientId() + ", secrets=<redacted>}";
  }
}
