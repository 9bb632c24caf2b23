package io.sharestream.common.errors;

/** The profile (credentials file or options) is malformed or incomplete. */
public class InvalidProfileException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public InvalidProfileException(String message) {
    super(message);
  }

  public InvalidProfileException(String message, Throwable cause) {
    super(message, cause);
  }
}
