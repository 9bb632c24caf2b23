package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The state of a Delta table at one version: protocol, metadata and the live data files in log order. */
public final class Snapshot {
  public final long version;
  public final long timestamp;
  public final Protocol protocol;
  public final Metadata metadata;
  private final Map<String, AddFile> files;

  Snapshot(long version, long timestamp, Protocol protocol, Metadata metadata, LinkedHashMap<String, AddFile> files) {
    this.version = version;
    this.timestamp = timestamp;
    this.protocol = protocol;
    this.metadata = metadata;
    this.files = Collections.unmodifiableMap(files);
  }

  /** Live files in the order they were added. */
  public Collection<AddFile> files() {
    return files.values();
  }

  public long sizeInBytes() {
    return files.values().stream().mapToLong(f -> f.size).sum();
  }
}
