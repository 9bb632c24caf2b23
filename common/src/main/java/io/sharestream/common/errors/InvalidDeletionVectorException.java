package io.sharestream.common.errors;

/**
 * A deletion vector cannot be used: its bytes are corrupt (checksum, magic number, size), it lies past its file's
 * end, or it disagrees with its descriptor.
 */
public class InvalidDeletionVectorException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public InvalidDeletionVectorException(String message) {
    super(message);
  }

  public InvalidDeletionVectorException(String message, Throwable cause) {
    super(message, cause);
  }
}
