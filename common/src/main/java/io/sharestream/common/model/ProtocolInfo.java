package io.sharestream.common.model;

/** The {@code protocol} line: the reader version a client needs (always 1 in the parquet response format). */
public final class ProtocolInfo {
  private final int minReaderVersion;

  public ProtocolInfo(int minReaderVersion) {
    this.minReaderVersion = minReaderVersion;
  }

  public int minReaderVersion() {
    return minReaderVersion;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProtocolInfo && ((ProtocolInfo) o).minReaderVersion == minReaderVersion;
  }

  @Override
  public int hashCode() {
    return minReaderVersion;
  }

  @Override
  public String toString() {
    return "ProtocolInfo{minReaderVersion=" + minReaderVersion + "}";
  }
}
