package io.sharestream.common.errors;

/** The share, schema or table does not exist for this recipient (HTTP 404). */
public class TableNotFoundException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public TableNotFoundException(String message) {
    super(message);
  }

  public TableNotFoundException(String message, Throwable cause) {
    super(message, cause);
  }
}
