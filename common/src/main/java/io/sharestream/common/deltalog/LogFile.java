package io.sharestream.common.deltalog;

import java.util.Objects;

/** A file of a table's {@code _delta_log} directory: its name there, its size and when it was written. */
public final class LogFile {
  private final String name;
  private final long size;
  private final long modificationTime;

  /** {@code name} relative to {@code _delta_log/} ({@code 00000000000000000007.json}, {@code _sidecars/x.parquet}). */
  public LogFile(String name, long size, long modificationTime) {
    this.name = Objects.requireNonNull(name, "name");
    this.size = size;
    this.modificationTime = modificationTime;
  }

  public String name() {
    return name;
  }

  public long size() {
    return size;
  }

  /** Epoch milliseconds, as storage reports them. */
  public long modificationTime() {
    return modificationTime;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LogFile && ((LogFile) o).name.equals(name) && ((LogFile) o).size == size
        && ((LogFile) o).modificationTime == modificationTime;
  }

  @Override
  public int hashCode() {
    return name.hashCode();
  }

  @Override
  public String toString() {
    return name;
  }
}
