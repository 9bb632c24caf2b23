package io.sharestream.common.client;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parameters of {@code GET .../changes}: a start (version or timestamp), an optional end, historical metadata
 * on or off, and {@code maxFiles} paging.
 */
public final class ChangesRequest {
  private Long startingVersion;
  private Instant startingTimestamp;
  private Long endingVersion;
  private Instant endingTimestamp;
  private boolean includeHistoricalMetadata = true;
  private Integer maxFiles;

  public static ChangesRequest fromVersion(long startingVersion) {
    ChangesRequest c = new ChangesRequest();
    c.startingVersion = startingVersion;
    return c;
  }

  public static ChangesRequest fromTimestamp(Instant startingTimestamp) {
    ChangesRequest c = new ChangesRequest();
    c.startingTimestamp = startingTimestamp;
    return c;
  }

  public ChangesRequest endingVersion(long v) {
    this.endingVersion = v;
    return this;
  }

  public ChangesRequest endingTimestamp(Instant t) {
    this.endingTimestamp = t;
    return this;
  }

  public ChangesRequest includeHistoricalMetadata(boolean on) {
    this.includeHistoricalMetadata = on;
    return this;
  }

  public ChangesRequest maxFiles(int n) {
    this.maxFiles = n;
    return this;
  }

  Long startingVersion() {
    return startingVersion;
  }

  Instant startingTimestamp() {
    return startingTimestamp;
  }

  Long endingVersion() {
    return endingVersion;
  }

  Instant endingTimestamp() {
    return endingTimestamp;
  }

  boolean includeHistoricalMetadata() {
    return includeHistoricalMetadata;
  }

  Map<String, String> params(String pageToken) {
    Map<String, String> p = new LinkedHashMap<>();
    if (startingVersion != null) {
      p.put("startingVersion", startingVersion.toString());
    }
    if (startingTimestamp != null) {
      p.put("startingTimestamp", startingTimestamp.toString());
    }
    if (endingVersion != null) {
      p.put("endingVersion", endingVersion.toString());
    }
    if (endingTimestamp != null) {
      p.put("endingTimestamp", endingTimestamp.toString());
    }
    if (includeHistoricalMetadata) {
      p.put("includeHistoricalMetadata", "true");
    }
    p.put("includeHistoricalProtocol", "true"); // delta format: the protocol of each version that changes it
    if (maxFiles != null) {
      p.put("maxFiles", maxFiles.toString());
    }
    if (pageToken != null) {
      p.put("pageToken", pageToken);
    }
    return p;
  }

  @Override
  public String toString() {
    return params(null).toString();
  }
}
