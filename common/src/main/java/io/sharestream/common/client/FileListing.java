package io.sharestream.common.client;

import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import java.io.Closeable;
import java.util.Iterator;

/**
 * The answer to a query or changes request, streamed: its head ({@link #tableVersion()}, {@link #protocol()},
 * {@link #metadata()}), then file actions and historical metadata one by one. Answered by the sharing server
 * (pre-signed URLs) or, for a table read from its storage directory, from the table's Delta log; the planners
 * cannot tell the two apart. Close it to release what it holds.
 */
public interface FileListing extends Iterator<SharingAction>, Closeable {
  /**
   * The table version of the answer (snapshot version, or the starting version of a range), or
   * {@link TableSnapshotInfo#NO_VERSION} for a shared view's answer.
   */
  long tableVersion();

  /** Whether the answer came without a table version: a shared view or materialized view. */
  boolean isView();

  ProtocolInfo protocol();

  /** The metadata at the head of the answer. */
  TableMetadata metadata();

  /** The least URL expiry reported (after the listing is exhausted), or null. */
  Long minUrlExpirationTimestamp();

  /** The refresh token of a latest-snapshot query that asked for one (after the listing is exhausted), or null. */
  String refreshToken();

  /** How many pages were read so far. */
  int pages();

  @Override
  void close();

  /** Drains the listing into {@code sink} and closes it. */
  @Override
  default void forEachRemaining(java.util.function.Consumer<? super SharingAction> sink) {
    try {
      Iterator.super.forEachRemaining(sink);
    } finally {
      close();
    }
  }
}
