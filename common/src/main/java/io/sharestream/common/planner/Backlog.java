package io.sharestream.common.planner;

/** What a stream has yet to read up to the table's latest known version: files and their bytes. */
public final class Backlog {
  private final long files;
  private final long bytes;

  Backlog(long files, long bytes) {
    this.files = files;
    this.bytes = bytes;
  }

  public long files() {
    return files;
  }

  public long bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    return files + " files, " + bytes + " bytes";
  }
}
