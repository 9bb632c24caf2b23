package io.sharestream.common.errors;

/**
 * A data file does not hold what the table's metadata says it must (e.g. no column under the table's physical column
 * names).
 */
public class InvalidDataFileException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public InvalidDataFileException(String message) {
    super(message);
  }

  public InvalidDataFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
