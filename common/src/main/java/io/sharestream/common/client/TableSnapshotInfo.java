package io.sharestream.common.client;

import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.TableMetadata;

/**
 * The answer of the metadata endpoint: the version it describes ({@link #NO_VERSION} for a shared view, whose answers
 * carry none), its protocol and its metadata.
 */
public final class TableSnapshotInfo {
  /** The version of a shared view's answer, which has none. */
  public static final long NO_VERSION = -1;

  private final long version;
  private final ProtocolInfo protocol;
  private final TableMetadata metadata;

  public TableSnapshotInfo(long version, ProtocolInfo protocol, TableMetadata metadata) {
    this.version = version;
    this.protocol = protocol;
    this.metadata = metadata;
  }

  /** The version described, or {@link #NO_VERSION} for a shared view. */
  public long version() {
    return version;
  }

  /** Whether the answer came without a table version: a shared view or materialized view. */
  public boolean isView() {
    return version == NO_VERSION;
  }

  public ProtocolInfo protocol() {
    return protocol;
  }

  public TableMetadata metadata() {
    return metadata;
  }
}
