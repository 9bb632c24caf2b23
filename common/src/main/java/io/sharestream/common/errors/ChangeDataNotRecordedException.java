package io.sharestream.common.errors;

/** The change data feed was not recorded for a version the read needs. */
public class ChangeDataNotRecordedException extends DeltaSharingException {
  private static final long serialVersionUID = 1L;
  private final long version;

  public ChangeDataNotRecordedException(String message, long version) {
    super(message);
    this.version = version;
  }

  /** The first version without change data, or -1 when the server did not say. */
  public long version() {
    return version;
  }
}
