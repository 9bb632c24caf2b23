package io.sharestream.common.errors;

/** A table version the read needs can no longer be served (log cleaned up, before the shared start). */
public class VersionNotAvailableException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public VersionNotAvailableException(String message) {
    super(message);
  }
}
