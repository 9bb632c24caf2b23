package io.sharestream.common.errors;

/**
 * An endpoint could not be reached through every retry: connection refused, unknown host, connect timeout, no
 * route. A {@link ServerErrorException}, so a streaming engine tries again later, as for a failing server. Its
 * message names the URL tried (without a query; only the host for storage).
 */
public class EndpointUnreachableException extends ServerErrorException {
  private static final long serialVersionUID = 1L;

  /** What was not reached. */
  public enum Target {
    /** The profile's {@code endpoint}: the Delta Sharing server. */
    SHARING_SERVER("endpoint", "the Delta Sharing server"),
    /** The profile's {@code tokenEndpoint}: the OAuth token endpoint. */
    OAUTH_TOKEN_ENDPOINT("tokenEndpoint", "the OAuth token endpoint"),
    /** The storage a pre-signed URL points at. */
    STORAGE(null, "the table's storage");

    private final String profileField;
    private final String description;

    Target(String profileField, String description) {
      this.profileField = profileField;
      this.description = description;
    }

    /** The profile field that names it, null for storage. */
    public String profileField() {
      return profileField;
    }

    /** In words, e.g. "the OAuth token endpoint". */
    public String description() {
      return description;
    }
  }

  private final Target target;
  private final String url;

  public EndpointUnreachableException(String message, Target target, String url, Throwable cause) {
    super(message, cause);
    this.target = target;
    this.url = url;
  }

  public Target target() {
    return target;
  }

  /** The URL tried, fit for messages (no query; scheme, host and port only for storage). */
  public String url() {
    return url;
  }
}
