package io.sharestream.common.errors;

/**
 * The OAuth token endpoint of a version 2 profile refused the client credentials, or answered without a usable
 * access token. Its message names the token endpoint (never the secret); {@link #profileField} says which profile
 * field is most likely at fault, so a connector can report it on the matching setting.
 */
public class OAuthTokenException extends UnauthorizedException {
  private static final long serialVersionUID = 1L;
  private final String profileField;
  private final String tokenEndpoint;

  public OAuthTokenException(String message, String profileField, String tokenEndpoint) {
    super(message);
    this.profileField = profileField;
    this.tokenEndpoint = tokenEndpoint;
  }

  /** {@code clientId}, {@code clientSecret}, {@code scope} or {@code tokenEndpoint}. */
  public String profileField() {
    return profileField;
  }

  /** The token endpoint's URL, fit for messages (no query). */
  public String tokenEndpoint() {
    return tokenEndpoint;
  }
}
