package io.sharestream.common.client;

import io.sharestream.common.errors.InvalidSettingException;
import java.util.Locale;
import java.util.Set;

/**
 * The answer formats a client asks the sharing server for (SPEC §3 {@code responseFormat}). {@link #AUTO} accepts
 * both, so plain tables come as {@code parquet} and tables with deletion vectors or column mapping as {@code delta}.
 */
public enum ResponseFormat {
  /** {@code responseformat=delta,parquet} with the reader features the client reads. */
  AUTO(true, true),
  /** {@code responseformat=parquet}: tables that need the delta format are refused. */
  PARQUET(false, true),
  /** {@code responseformat=delta}, with the reader features the client reads. */
  DELTA(true, false);

  /** The answer format names of the protocol. */
  public static final String PARQUET_NAME = "parquet";
  public static final String DELTA_NAME = "delta";

  private final boolean delta;
  private final boolean parquet;

  ResponseFormat(boolean delta, boolean parquet) {
    this.delta = delta;
    this.parquet = parquet;
  }

  /** Parses the option value ({@code auto}, {@code parquet}, {@code delta}; case-insensitive; null: auto). */
  public static ResponseFormat parse(String option, String value) {
    if (value == null || value.trim().isEmpty()) {
      return AUTO;
    }
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException("'" + option + "' must be auto, parquet or delta, not '" + value + "'.");
    }
  }

  /** Whether an answer in {@code format} ({@code parquet} or {@code delta}) is one this setting asked for. */
  public boolean accepts(String format) {
    return DELTA_NAME.equalsIgnoreCase(format) ? delta : parquet;
  }

  /**
   * The {@code delta-sharing-capabilities} header of table data requests of a client reading {@code readerFeatures}
   * (lower case, in their order), declared when the delta format is asked for.
   */
  String capabilities(Set<String> readerFeatures) {
    StringBuilder b = new StringBuilder("responseformat=");
    b.append(delta && parquet ? "delta,parquet" : delta ? DELTA_NAME : PARQUET_NAME);
    if (delta) {
      b.append(";readerfeatures=").append(String.join(",", readerFeatures));
    }
    return b.append(";includeendstreamaction=true").toString();
  }

  /** The formats asked for, in words. */
  String asked() {
    return delta && parquet ? "'delta' or 'parquet'" : "'" + (delta ? DELTA_NAME : PARQUET_NAME) + "'";
  }
}
