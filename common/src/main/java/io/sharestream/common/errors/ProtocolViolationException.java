package io.sharestream.common.errors;

/** The server's answer does not follow the Delta Sharing protocol. */
public class ProtocolViolationException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public ProtocolViolationException(String message) {
    super(message);
  }

  public ProtocolViolationException(String message, Throwable cause) {
    super(message, cause);
  }
}
