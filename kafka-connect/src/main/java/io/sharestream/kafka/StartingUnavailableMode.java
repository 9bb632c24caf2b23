package io.sharestream.kafka;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a table does when the version it starts or resumes at is no longer served (its log was cleaned up, or it was
 * shared from a later version): {@value DeltaSharingSourceConfig#STARTING_UNAVAILABLE_MODE}.
 */
public enum StartingUnavailableMode {
  /** The table is set aside (its state and reason in its metrics) while the task's other tables go on. */
  SET_ASIDE,
  /** The table goes on from the earliest version still served, with a warning naming the versions skipped. */
  EARLIEST;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  static String[] configValues() {
    return Arrays.stream(values()).map(StartingUnavailableMode::configValue).toArray(String[]::new);
  }

  static StartingUnavailableMode parse(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
