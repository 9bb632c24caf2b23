package io.sharestream.common.planner;

import io.sharestream.common.parquet.ReadSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * The typed settings the planner sees, built from either engine's options by {@link StreamOptions}: where to start,
 * how change commits are treated, and how the server is asked.
 */
public final class StreamSettings {
  private final StartingPoint startingPoint;
  private final boolean skipChangeCommits;
  private final boolean readChangeFeed;
  private final int versionsPerRequest;
  private final Integer filesPerRequest;
  private final Duration urlRefreshMargin;
  private final ReadSettings read;

  public StreamSettings(StartingPoint startingPoint, boolean skipChangeCommits, boolean readChangeFeed,
      int versionsPerRequest, Integer filesPerRequest, Duration urlRefreshMargin, ReadSettings read) {
    this.startingPoint = Objects.requireNonNull(startingPoint);
    this.skipChangeCommits = skipChangeCommits;
    this.readChangeFeed = readChangeFeed;
    this.versionsPerRequest = versionsPerRequest;
    this.filesPerRequest = filesPerRequest;
    this.urlRefreshMargin = Objects.requireNonNull(urlRefreshMargin);
    this.read = Objects.requireNonNull(read);
  }

  /** The defaults of {@link StreamOptions}. */
  public static StreamSettings defaults() {
    return StreamOptions.parse(java.util.Map.of());
  }

  public StartingPoint startingPoint() {
    return startingPoint;
  }

  public boolean skipChangeCommits() {
    return skipChangeCommits;
  }

  public boolean readChangeFeed() {
    return readChangeFeed;
  }

  public int versionsPerRequest() {
    return versionsPerRequest;
  }

  /** Page size ({@code maxFiles}) of query and changes requests; null: unpaged. */
  public Integer filesPerRequest() {
    return filesPerRequest;
  }

  /** URLs expiring within this margin are refreshed before they are handed out. */
  public Duration urlRefreshMargin() {
    return urlRefreshMargin;
  }

  /** How data files are decoded: partition value zone, calendar rebase modes. */
  public ReadSettings read() {
    return read;
  }

  public StreamSettings withUrlRefreshMargin(Duration margin) {
    return new StreamSettings(startingPoint, skipChangeCommits, readChangeFeed, versionsPerRequest, filesPerRequest,
        margin, read);
  }

  @Override
  public String toString() {
    return "StreamSettings{start=" + startingPoint + ", skipChangeCommits=" + skipChangeCommits + ", readChangeFeed="
        + readChangeFeed + ", versionsPerRequest=" + versionsPerRequest + ", filesPerRequest=" + filesPerRequest
        + ", urlRefreshMargin=" + urlRefreshMargin + ", read=" + read + "}";
  }
}
