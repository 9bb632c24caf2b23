package io.sharestream.common.errors;

/** The table needs the {@code delta} response format (deletion vectors, column mapping, ...), which this reader does not support. */
public class DeltaFormatRequiredException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public DeltaFormatRequiredException(String message) {
    super(message);
  }

  public DeltaFormatRequiredException(String message, Throwable cause) {
    super(message, cause);
  }
}
