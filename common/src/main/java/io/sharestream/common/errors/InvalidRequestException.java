package io.sharestream.common.errors;

/** The server refused a request as invalid (HTTP 400) for a reason without a more specific type. */
public class InvalidRequestException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public InvalidRequestException(String message) {
    super(message);
  }

  public InvalidRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
