package io.sharestream.common.parquet;

import io.sharestream.common.errors.InvalidSettingException;
import java.util.Locale;

/**
 * How dates before 1582-10-15 and timestamps before 1900-01-01T00:00:00Z are read from a file that does not say
 * which calendar wrote them (Spark 3.1's {@code spark.sql.legacy.parquet.*RebaseModeInRead}). Files written by Spark
 * say it in their footer, and their own answer wins, as in Spark.
 */
public enum RebaseMode {
  /** Fail on such values (Spark 3.1's default). */
  EXCEPTION,
  /** Rebase them from the legacy hybrid Julian/Gregorian calendar to the proleptic Gregorian calendar. */
  LEGACY,
  /** Read them as they are (the file was written in the proleptic Gregorian calendar). */
  CORRECTED;

  /** Parses {@code value} (case-insensitive) of the setting {@code option}. */
  public static RebaseMode parse(String option, String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException("'" + option + "' must be EXCEPTION, LEGACY or CORRECTED, not '" + value
          + "'.");
    }
  }
}
