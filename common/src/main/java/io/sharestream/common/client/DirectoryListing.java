package io.sharestream.common.client;

import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A {@link FileListing} answered from a table's Delta log in its storage directory: the head it was made with, then
 * the actions of {@code actions}, read as they are asked for.
 */
final class DirectoryListing implements FileListing {
  private final long tableVersion;
  private final ProtocolInfo protocol;
  private final TableMetadata metadata;
  private final Iterator<SharingAction> actions;
  private final ExpiryTracker expiry;
  private boolean closed;

  DirectoryListing(long tableVersion, ProtocolInfo protocol, TableMetadata metadata, Iterator<SharingAction> actions,
      ExpiryTracker expiry) {
    this.tableVersion = tableVersion;
    this.protocol = protocol;
    this.metadata = metadata;
    this.actions = actions;
    this.expiry = expiry;
  }

  @Override
  public long tableVersion() {
    return tableVersion;
  }

  @Override
  public boolean isView() {
    return false;
  }

  @Override
  public ProtocolInfo protocol() {
    return protocol;
  }

  @Override
  public TableMetadata metadata() {
    return metadata;
  }

  @Override
  public Long minUrlExpirationTimestamp() {
    return expiry.min();
  }

  @Override
  public String refreshToken() {
    return null;
  }

  @Override
  public int pages() {
    return 1;
  }

  @Override
  public boolean hasNext() {
    return !closed && actions.hasNext();
  }

  @Override
  public SharingAction next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return actions.next();
  }

  @Override
  public void close() {
    closed = true;
    if (actions instanceof Closeable) {
      try {
        ((Closeable) actions).close();
      } catch (IOException e) {
        // what was read stands; the log's files are only read
      }
    }
  }

  /** The least expiry of the URLs a listing handed out. */
  static final class ExpiryTracker {
    private Long min;

    void saw(long expiresAt) {
      min = min == null ? expiresAt : Math.min(min, expiresAt);
    }

    Long min() {
      return min;
    }
  }
}
