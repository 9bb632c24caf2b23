package io.sharestream.common.errors;

/** The table behind the name has a new id: it was recreated, and positions of the old one do not apply. */
public class TableRecreatedException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public TableRecreatedException(String message) {
    super(message);
  }

  public TableRecreatedException(String message, Throwable cause) {
    super(message, cause);
  }
}
