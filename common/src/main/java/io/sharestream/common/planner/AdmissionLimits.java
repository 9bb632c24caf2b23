package io.sharestream.common.planner;

/**
 * How much one plan may take: a file is admitted while both budgets are still positive before it is counted, so
 * at least one file always passes and bytes are a soft limit; all change data files of a version go together.
 */
public final class AdmissionLimits {
  /** No limit (e.g. Spark's ReadAllAvailable); still one request window at a time. */
  public static final AdmissionLimits UNLIMITED = new AdmissionLimits(Long.MAX_VALUE, Long.MAX_VALUE);

  private final long maxFiles;
  private final long maxBytes;

  public AdmissionLimits(long maxFiles, long maxBytes) {
    if (maxFiles < 1 || maxBytes < 1) {
      throw new IllegalArgumentException("admission limits must be positive");
    }
    this.maxFiles = maxFiles;
    this.maxBytes = maxBytes;
  }

  public static AdmissionLimits files(long maxFiles) {
    return new AdmissionLimits(maxFiles, Long.MAX_VALUE);
  }

  public long maxFiles() {
    return maxFiles;
  }

  public long maxBytes() {
    return maxBytes;
  }

  @Override
  public String toString() {
    return "AdmissionLimits{maxFiles=" + maxFiles + ", maxBytes=" + maxBytes + "}";
  }
}
