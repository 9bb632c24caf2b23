package io.sharestream.common.errors;

/**
 * Base of every error the core raises. Messages say what went wrong and what to do; they never contain tokens,
 * client secrets or pre-signed URL query strings. Build instances through {@link Errors}.
 */
public class DeltaSharingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public DeltaSharingException(String message) {
    super(message);
  }

  public DeltaSharingException(String message, Throwable cause) {
    super(message, cause);
  }
}
