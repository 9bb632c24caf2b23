package io.sharestream.common.planner;

import java.io.Serializable;
import java.util.Objects;

/**
 * The request a file was listed by, so the same request can be run again to refresh its pre-signed URL (matched
 * by file id) without changing what is read. Serializable: Spark executors refresh URLs themselves.
 */
public final class FetchSpec implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Which endpoint and form. */
  public enum Kind {
    /** {@code query} with {@code version}: a snapshot. */
    SNAPSHOT,
    /** {@code query} for the latest snapshot (tables without history sharing); its version is the one listed. */
    LATEST,
    /** {@code query} with {@code startingVersion}/{@code endingVersion}. */
    QUERY,
    /** {@code changes} with {@code startingVersion}/{@code endingVersion}. */
    CHANGES,
    /**
     * The changes of versions {@code [start, end]} derived from the snapshots at {@code start - 1} to {@code end}
     * (for servers that answer snapshots but not history in the delta format).
     */
    SNAPSHOT_DIFF
  }

  private final Kind kind;
  private final long startVersion;
  private final long endVersion;

  private FetchSpec(Kind kind, long startVersion, long endVersion) {
    this.kind = kind;
    this.startVersion = startVersion;
    this.endVersion = endVersion;
  }

  public static FetchSpec snapshot(long version) {
    return new FetchSpec(Kind.SNAPSHOT, version, version);
  }

  public static FetchSpec latest(long listedVersion) {
    return new FetchSpec(Kind.LATEST, listedVersion, listedVersion);
  }

  public static FetchSpec query(long start, long end) {
    return new FetchSpec(Kind.QUERY, start, end);
  }

  public static FetchSpec changes(long start, long end) {
    return new FetchSpec(Kind.CHANGES, start, end);
  }

  public static FetchSpec snapshotDiff(long start, long end) {
    return new FetchSpec(Kind.SNAPSHOT_DIFF, start, end);
  }

  public Kind kind() {
    return kind;
  }

  public long startVersion() {
    return startVersion;
  }

  public long endVersion() {
    return endVersion;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FetchSpec)) {
      return false;
    }
    FetchSpec f = (FetchSpec) o;
    return kind == f.kind && startVersion == f.startVersion && endVersion == f.endVersion;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, startVersion, endVersion);
  }

  @Override
  public String toString() {
    return kind + "[" + startVersion + (endVersion != startVersion ? ".." + endVersion : "") + "]";
  }
}
