package io.sharestream.common.errors;

/** A request or read was cut short because its client was closed (an engine stopping); not a failure to report. */
public class CancelledException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public CancelledException(String message) {
    super(message);
  }
}
