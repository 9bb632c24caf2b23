package io.sharestream.common.planner;

/**
 * How much one plan may take: a file is admitted while both budgets are still positive before it is counted, so
 * at least one file always passes and bytes are a soft limit; all change data files of a version go together. A plan
 * may also be held to versions up to a last one (Spark's {@code Trigger.AvailableNow}: what was there when the query
 * started).
 */
public final class AdmissionLimits {
  /** No limit (e.g. Spark's ReadAllAvailable); still one request window at a time. */
  public static final AdmissionLimits UNLIMITED = new AdmissionLimits(Long.MAX_VALUE, Long.MAX_VALUE);

  private final long maxFiles;
  private final long maxBytes;
  private final long lastVersion;

  public AdmissionLimits(long maxFiles, long maxBytes) {
    this(maxFiles, maxBytes, Long.MAX_VALUE);
  }

  private AdmissionLimits(long maxFiles, long maxBytes, long lastVersion) {
    if (maxFiles < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("admission limits must be positive");
    }
    this.maxFiles = maxFiles;
    this.maxBytes = maxBytes;
    this.lastVersion = lastVersion;
  }

  public static AdmissionLimits files(long maxFiles) {
    return new AdmissionLimits(maxFiles, Long.MAX_VALUE);
  }

  /** These limits, and no version after {@code version}. */
  public AdmissionLimits upTo(long version) {
    return new AdmissionLimits(maxFiles, maxBytes, version);
  }

  public long maxFiles() {
    return maxFiles;
  }

  public long maxBytes() {
    return maxBytes;
  }

  /** The last version a plan may reach ({@link Long#MAX_VALUE}: the table's latest). */
  public long lastVersion() {
    return lastVersion;
  }

  @Override
  public String toString() {
    return "AdmissionLimits{maxFiles=" + maxFiles + ", maxBytes=" + maxBytes
        + (lastVersion == Long.MAX_VALUE ? "" : ", lastVersion=" + lastVersion) + "}";
  }
}
