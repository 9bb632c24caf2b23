package io.sharestream.common.planner;

import io.sharestream.common.client.AccessSettings;
import io.sharestream.common.client.ResponseFormat;
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
  private final ResponseFormat responseFormat;
  private final boolean evolveOnRenameOrDrop;
  private final AccessSettings access;

  public StreamSettings(StartingPoint startingPoint, boolean skipChangeCommits, boolean readChangeFeed,
      int versionsPerRequest, Integer filesPerRequest, Duration urlRefreshMargin, ReadSettings read,
      ResponseFormat responseFormat, boolean evolveOnRenameOrDrop) {
    this(startingPoint, skipChangeCommits, readChangeFeed, versionsPerRequest, filesPerRequest, urlRefreshMargin, read,
        responseFormat, evolveOnRenameOrDrop, AccessSettings.DEFAULT);
  }

  private StreamSettings(StartingPoint startingPoint, boolean skipChangeCommits, boolean readChangeFeed,
      int versionsPerRequest, Integer filesPerRequest, Duration urlRefreshMargin, ReadSettings read,
      ResponseFormat responseFormat, boolean evolveOnRenameOrDrop, AccessSettings access) {
    this.startingPoint = Objects.requireNonNull(startingPoint);
    this.skipChangeCommits = skipChangeCommits;
    this.readChangeFeed = readChangeFeed;
    this.versionsPerRequest = versionsPerRequest;
    this.filesPerRequest = filesPerRequest;
    this.urlRefreshMargin = Objects.requireNonNull(urlRefreshMargin);
    this.read = Objects.requireNonNull(read);
    this.responseFormat = Objects.requireNonNull(responseFormat);
    this.evolveOnRenameOrDrop = evolveOnRenameOrDrop;
    this.access = Objects.requireNonNull(access);
  }

  /** Whether tables are read by URL or from their directories ({@code accessMode}), and where storage is. */
  public AccessSettings access() {
    return access;
  }

  public StreamSettings withAccess(AccessSettings a) {
    return new StreamSettings(startingPoint, skipChangeCommits, readChangeFeed, versionsPerRequest, filesPerRequest,
        urlRefreshMargin, read, responseFormat, evolveOnRenameOrDrop, a);
  }

  /** The defaults of {@link StreamOptions}. */
  public static StreamSettings defaults() {
    return StreamOptions.parse(java.util.Collections.<String, String>emptyMap());
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

  /** The answer formats to ask the server for (the engine sets its client's to it). */
  public ResponseFormat responseFormat() {
    return responseFormat;
  }

  /**
   * What a RENAME or DROP of a column-mapped table committed after the start does: false (Spark) stops the stream
   * at its version; true (Kafka) reads the versions from it with the new schema.
   */
  public boolean evolveOnRenameOrDrop() {
    return evolveOnRenameOrDrop;
  }

  public StreamSettings withUrlRefreshMargin(Duration margin) {
    return new StreamSettings(startingPoint, skipChangeCommits, readChangeFeed, versionsPerRequest, filesPerRequest,
        margin, read, responseFormat, evolveOnRenameOrDrop, access);
  }

  /** These settings with readChangeFeed semantics from {@code start} (batch change reads). */
  public StreamSettings forChanges(StartingPoint start) {
    return new StreamSettings(start, false, true, versionsPerRequest, filesPerRequest, urlRefreshMargin, read,
        responseFormat, evolveOnRenameOrDrop, access);
  }

  /** These settings for an engine that evolves its schema on renames and drops (see above). */
  public StreamSettings evolvingOnRenameOrDrop() {
    return new StreamSettings(startingPoint, skipChangeCommits, readChangeFeed, versionsPerRequest, filesPerRequest,
        urlRefreshMargin, read, responseFormat, true, access);
  }

  @Override
  public String toString() {
    return "StreamSettings{start=" + startingPoint + ", skipChangeCommits=" + skipChangeCommits + ", readChangeFeed="
        + readChangeFeed + ", versionsPerRequest=" + versionsPerRequest + ", filesPerRequest=" + filesPerRequest
        + ", urlRefreshMargin=" + urlRefreshMargin + ", read=" + read + ", responseFormat=" + responseFormat
        + (evolveOnRenameOrDrop ? ", evolveOnRenameOrDrop" : "") + ", access=" + access + "}";
  }
}
