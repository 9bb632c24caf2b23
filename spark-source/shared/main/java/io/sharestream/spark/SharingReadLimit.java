package io.sharestream.spark;

import org.apache.spark.sql.connector.read.streaming.ReadLimit;

/**
 * The stream's admission limit: at most {@code maxFiles} files and, softly, {@code maxBytes} bytes per micro-batch
 * (at least one file always passes). Spark 3.1 has no composite limit of its own, so the stream hands this to Spark
 * as its default and gets it back in {@code latestOffset}; {@code Trigger.Once} asks for everything instead.
 */
final class SharingReadLimit implements ReadLimit {
  final long maxFiles;
  final long maxBytes;

  SharingReadLimit(long maxFiles, long maxBytes) {
    this.maxFiles = maxFiles;
    this.maxBytes = maxBytes;
  }

  @Override
  public String toString() {
    return "SharingReadLimit{maxFiles=" + maxFiles + (maxBytes == Long.MAX_VALUE ? "" : ", maxBytes=" + maxBytes)
        + "}";
  }
}
