package io.sharestream.common.errors;

/**
 * The server (HTTP 403) or storage (a file refused even with a freshly signed URL) denied this recipient access to
 * one table, its credentials being accepted: the provider revoked or never granted it.
 */
public class AccessDeniedException extends UnauthorizedException {
  private static final long serialVersionUID = 1L;

  public AccessDeniedException(String message) {
    super(message);
  }
}
