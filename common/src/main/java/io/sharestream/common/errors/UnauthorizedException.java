package io.sharestream.common.errors;

/** The server rejected the credentials (HTTP 401) or denied access (HTTP 403). */
public class UnauthorizedException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public UnauthorizedException(String message) {
    super(message);
  }

  public UnauthorizedException(String message, Throwable cause) {
    super(message, cause);
  }
}
