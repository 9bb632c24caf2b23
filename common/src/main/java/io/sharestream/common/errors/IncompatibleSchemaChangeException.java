package io.sharestream.common.errors;

/** The table's schema changed in a way the running stream cannot read. */
public class IncompatibleSchemaChangeException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public IncompatibleSchemaChangeException(String message) {
    super(message);
  }

  public IncompatibleSchemaChangeException(String message, Throwable cause) {
    super(message, cause);
  }
}
