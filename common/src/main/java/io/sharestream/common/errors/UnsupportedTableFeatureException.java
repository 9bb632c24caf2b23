package io.sharestream.common.errors;

/** The table needs a Delta reader feature (or reader version) this product does not implement. */
public class UnsupportedTableFeatureException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public UnsupportedTableFeatureException(String message) {
    super(message);
  }

  public UnsupportedTableFeatureException(String message, Throwable cause) {
    super(message, cause);
  }
}
