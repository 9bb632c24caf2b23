package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.TableSnapshotInfo;
import io.sharestream.common.errors.HistoryNotSharedException;
import io.sharestream.common.errors.SharedViewException;
import io.sharestream.common.profile.TableRef;

/**
 * What a table is, from two requests: its latest version, then its metadata at that version, which only a table
 * shared with history answers (as streaming needs); a table without history gets its latest metadata instead, and so
 * does a shared view, which has no version at all.
 */
record TableProbe(TableRef table, boolean historyShared, TableSnapshotInfo snapshot) {
  static TableProbe of(DeltaSharingClient client, TableRef table) {
    long version;
    try {
      version = client.tableVersion(table);
    } catch (SharedViewException e) {
      return new TableProbe(table, false, client.metadata(table, null, null));
    }
    try {
      return new TableProbe(table, true, client.metadata(table, version, null));
    } catch (HistoryNotSharedException e) {
      return new TableProbe(table, false, client.metadata(table, null, null));
    }
  }

  /** The latest version, {@code -} for a shared view. */
  String version() {
    return snapshot.isView() ? "-" : Long.toString(snapshot.version());
  }

  /** {@code yes}/{@code no}, or {@code view} for a shared view (no history: batch reads only). */
  String history() {
    return snapshot.isView() ? "view" : yesNo(historyShared);
  }

  /**
   * The reader features the table needs, {@code -} for none; reader version 2 (before table features) means column
   * mapping.
   */
  String readerFeatures() {
    var features = snapshot.protocol().readerFeatures();
    if (features.isEmpty()) {
      return snapshot.protocol().minReaderVersion() == 2 ? "columnMapping" : "-";
    }
    return String.join(",", features);
  }

  /**
   * Whether the change data feed is on: {@code yes}/{@code no}; {@code unknown} for a table shared without history
   * whose metadata says nothing (servers hide its configuration), {@code -} for a view.
   */
  String changeDataFeed() {
    if (snapshot.isView()) {
      return "-";
    }
    boolean on = snapshot.metadata().changeDataFeedEnabled();
    return on ? "yes" : historyShared ? "no" : "unknown";
  }

  static String yesNo(boolean b) {
    return b ? "yes" : "no";
  }
}
