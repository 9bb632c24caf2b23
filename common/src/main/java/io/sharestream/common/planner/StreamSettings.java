package io.sharestream.common.planner;

import java.time.Duration;
import java.time.ZoneId;
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
  private final ZoneId partitionZone;

  public StreamSettings(StartingPoint startingPoint, boolean skipChangeCommits, boolean readChangeFeed,
      int versionsPerRequest, Integer filesPerRequest, Duration urlRefreshMargin, ZoneId partitionZone) {
    this.startingPoint = Objects.requireNonNull(startingPoint);
    this.skipChangeCommits = skipChangeCommits;
    this.readChangeFeed = readChangeFeed;
    this.versionsPerRequest = versionsPerRequest;
    this.filesPerRequest = filesPerRequest;
    this.urlRefreshMargin = Objects.requireNonNull(urlRefreshMargin);
    this.partitionZone = Objects.requireNonNull(partitionZone);
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

  /** Zone of offset-less timestamp partition values. */
  public ZoneId partitionZone() {
    return partitionZone;
  }

  public StreamSettings withUrlRefreshMargin(Duration margin) {
    return new StreamSettings(startingPoint, skipChangeCommits, readChangeFeed, versionsPerRequest, filesPerRequest,
        margin, partitionZone);
  }

  @Override
  public String toString() {
    return "StreamSettings{start=" + startingPoint + ", skipChangeCommits=" + skipChangeCommits + ", readChangeFeed="
        + readChangeFeed + ", versionsPerRequest=" + versionsPerRequest + ", filesPerRequest=" + filesPerRequest
        + ", urlRefreshMargin=" + urlRefreshMargin + ", partitionZone=" + partitionZone + "}";
  }
}
