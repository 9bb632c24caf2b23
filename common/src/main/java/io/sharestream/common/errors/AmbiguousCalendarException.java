package io.sharestream.common.errors;

/**
 * A data file holds dates before 1582-10-15 or timestamps before 1900-01-01T00:00:00Z, and nothing says which
 * calendar wrote them (Spark 3.1's {@code SparkUpgradeException} case): the reader must be told whether to rebase.
 */
public class AmbiguousCalendarException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;

  public AmbiguousCalendarException(String message) {
    super(message);
  }
}
