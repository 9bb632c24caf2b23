package io.sharestream.common.errors;

/** The server kept failing (429, 5xx, broken responses) through every retry. */
public class ServerErrorException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public ServerErrorException(String message) {
    super(message);
  }

  public ServerErrorException(String message, Throwable cause) {
    super(message, cause);
  }
}
