package io.sharestream.common.errors;

/**
 * The table needs the {@code delta} response format (deletion vectors, column mapping, ...) but the reader asked for
 * {@code parquet} only, or the server cannot answer a request for it in that format.
 */
public class DeltaFormatRequiredException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public DeltaFormatRequiredException(String message) {
    super(message);
  }

  public DeltaFormatRequiredException(String message, Throwable cause) {
    super(message, cause);
  }
}
