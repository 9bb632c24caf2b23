package io.sharestream.common.planner;

import java.time.Instant;
import java.util.Objects;

/** Where a new stream (one without a stored position) starts. */
public final class StartingPoint {
  /** Which start. */
  public enum Kind {
    /** Only commits made after the stream starts. */
    LATEST,
    /** The table's rows at the latest version, then every later change. */
    SNAPSHOT,
    /** Every change committed at a version and after (no snapshot). */
    VERSION,
    /** As VERSION with the earliest version whose changes the server still serves (a cleaned-up log starts late). */
    EARLIEST,
    /** As VERSION with the first version committed at or after an instant. */
    TIMESTAMP
  }

  public static final StartingPoint LATEST = new StartingPoint(Kind.LATEST, -1, null);
  public static final StartingPoint SNAPSHOT = new StartingPoint(Kind.SNAPSHOT, -1, null);
  public static final StartingPoint EARLIEST = new StartingPoint(Kind.EARLIEST, -1, null);

  private final Kind kind;
  private final long version;
  private final Instant timestamp;

  private StartingPoint(Kind kind, long version, Instant timestamp) {
    this.kind = kind;
    this.version = version;
    this.timestamp = timestamp;
  }

  public static StartingPoint version(long v) {
    if (v < 0) {
      throw new IllegalArgumentException("a starting version cannot be negative");
    }
    return new StartingPoint(Kind.VERSION, v, null);
  }

  public static StartingPoint timestamp(Instant t) {
    return new StartingPoint(Kind.TIMESTAMP, -1, Objects.requireNonNull(t));
  }

  public Kind kind() {
    return kind;
  }

  /** The version of {@link Kind#VERSION}. */
  public long version() {
    return version;
  }

  /** The instant of {@link Kind#TIMESTAMP}. */
  public Instant timestamp() {
    return timestamp;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StartingPoint)) {
      return false;
    }
    StartingPoint s = (StartingPoint) o;
    return kind == s.kind && version == s.version && Objects.equals(timestamp, s.timestamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, version, timestamp);
  }

  @Override
  public String toString() {
    switch (kind) {
      case VERSION: return "version " + version;
      case TIMESTAMP: return "timestamp " + timestamp;
      default: return kind.name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
