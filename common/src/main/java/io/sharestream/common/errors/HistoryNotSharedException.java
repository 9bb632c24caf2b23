package io.sharestream.common.errors;

/** The table is shared without history, which streaming and versioned reads need. */
public class HistoryNotSharedException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public HistoryNotSharedException(String message) {
    super(message);
  }

  public HistoryNotSharedException(String message, Throwable cause) {
    super(message, cause);
  }
}
