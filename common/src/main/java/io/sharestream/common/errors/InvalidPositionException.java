package io.sharestream.common.errors;

/** A stored position (offset, checkpoint) cannot be used: wrong format, other table, or moving backwards. */
public class InvalidPositionException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public InvalidPositionException(String message) {
    super(message);
  }

  public InvalidPositionException(String message, Throwable cause) {
    super(message, cause);
  }
}
