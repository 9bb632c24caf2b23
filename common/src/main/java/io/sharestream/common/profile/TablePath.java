package io.sharestream.common.profile;

import io.sharestream.common.errors.InvalidSettingException;

/** A load path {@code <profile-file>#<share>.<schema>.<table>}: the profile location and the table. */
public final class TablePath {
  private final String profileLocation;
  private final TableRef table;

  private TablePath(String profileLocation, TableRef table) {
    this.profileLocation = profileLocation;
    this.table = table;
  }

  /** Splits at the last {@code #}; the table part must have exactly three non-empty parts. */
  public static TablePath parse(String path) {
    int hash = path == null ? -1 : path.lastIndexOf('#');
    if (hash <= 0) {
      throw new InvalidSettingException("The path must be <profile-file>#<share>.<schema>.<table>, not '" + path
          + "'.");
    }
    return new TablePath(path.substring(0, hash), TableRef.parse(path.substring(hash + 1), "The path's table part"));
  }

  public String profileLocation() {
    return profileLocation;
  }

  public TableRef table() {
    return table;
  }

  @Override
  public String toString() {
    return profileLocation + "#" + table;
  }
}
