package io.sharestream.common.planner;

/** The change data feed's row labels and the columns that carry them. */
public final class ChangeTypes {
  private ChangeTypes() {}

  public static final String INSERT = "insert";
  public static final String DELETE = "delete";
  public static final String UPDATE_PREIMAGE = "update_preimage";
  public static final String UPDATE_POSTIMAGE = "update_postimage";

  /** Column of change data files, and of CDF output rows. */
  public static final String CHANGE_TYPE_COLUMN = "_change_type";
  public static final String COMMIT_VERSION_COLUMN = "_commit_version";
  public static final String COMMIT_TIMESTAMP_COLUMN = "_commit_timestamp";

  /** Whether a change type is a new row image (what flows for change commits without readChangeFeed). */
  public static boolean isNewImage(String changeType) {
    return INSERT.equals(changeType) || UPDATE_POSTIMAGE.equals(changeType);
  }
}
