package io.sharestream.common.errors;

/**
 * The table is a shared view or materialized view: the server answers it from a query, without table versions, so
 * it can be read in batch but has no history to stream, time-travel or read changes of.
 */
public class SharedViewException extends HistoryNotSharedException {
  private static final long serialVersionUID = 1L;

  public SharedViewException(String message) {
    super(message);
  }
}
