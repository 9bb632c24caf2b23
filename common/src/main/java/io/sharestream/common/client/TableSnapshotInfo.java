package io.sharestream.common.client;

import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.TableMetadata;

/** The answer of the metadata endpoint: the version it describes, its protocol and its metadata. */
public final class TableSnapshotInfo {
  private final long version;
  private final ProtocolInfo protocol;
  private final TableMetadata metadata;

  public TableSnapshotInfo(long version, ProtocolInfo protocol, TableMetadata metadata) {
    this.version = version;
    this.protocol = protocol;
    this.metadata = metadata;
  }

  public long version() {
    return version;
  }

  public ProtocolInfo protocol() {
    return protocol;
  }

  public TableMetadata metadata() {
    return metadata;
  }
}
