package io.sharestream.testkit.server;

import io.sharestream.testkit.delta.DeltaLog;
import io.sharestream.testkit.delta.Snapshot;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;

/**
 * One table as shared: its three-part name, where its Delta table lives, whether history is shared, whether it is
 * shared as a view, and when its queries are answered asynchronously.
 */
public final class SharedTable {
  public final String share;
  public final String schema;
  public final String name;
  public final boolean historyShared;
  /**
   * Whether it is a shared view or materialized view, as Databricks serves them: from the latest state of the Delta
   * table, without versions ({@code Delta-Table-Version} or per-file) or history (time travel, changes, streaming).
   */
  public final boolean view;
  /** Stable id reported by the list endpoints. */
  public final String id = UUID.randomUUID().toString();
  private volatile Location location;
  private volatile AsyncMode asyncMode;
  private volatile boolean accessDenied;

  /** The directory and the key its pre-signed URLs carry; a new location gets a new key, old URLs stop working. */
  static final class Location {
    final DeltaLog log;
    final String key;
    private volatile Snapshot latestState;

    Location(Path dir) {
      this.log = new DeltaLog(dir);
      this.key = UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * Protocol and metadata at the latest version, read again only when a commit was added (commits never change);
     * a log that cannot be replayed answers 400 with {@code errorCode}, as a version that cannot be loaded does.
     */
    Snapshot latestState(String errorCode) {
      long latest = log.latestVersion();
      Snapshot s = latestState;
      if (s == null || s.version != latest) {
        s = ApiHandler.tableState(log, latest, errorCode);
        latestState = s;
      }
      return s;
    }
  }

  SharedTable(String share, String schema, String name, Path dir, boolean historyShared, boolean view) {
    this.share = share;
    this.schema = schema;
    this.name = name;
    this.historyShared = historyShared && !view;
    this.view = view;
    this.location = new Location(dir);
    this.asyncMode = view ? AsyncMode.ALWAYS : AsyncMode.NEVER;
  }

  /** When its queries are answered asynchronously (default {@link AsyncMode#NEVER}, a view's
   *  {@link AsyncMode#ALWAYS}). */
  public AsyncMode asyncMode() {
    return asyncMode;
  }

  /** Sets when its queries are answered asynchronously, from the next submission on. */
  public SharedTable asyncMode(AsyncMode mode) {
    this.asyncMode = java.util.Objects.requireNonNull(mode, "mode");
    return this;
  }

  /** Whether its requests are refused with HTTP 403 (the provider revoked the recipient's access to it). */
  public boolean accessDenied() {
    return accessDenied;
  }

  /** Refuses (or grants again) its requests with HTTP 403, from the next request on; it stays listed. */
  public SharedTable accessDenied(boolean denied) {
    this.accessDenied = denied;
    return this;
  }

  public String fullName() {
    return share + "." + schema + "." + name;
  }

  public Path dir() {
    return location.log.tableDir();
  }

  Location location() {
    return location;
  }

  void relocate(Path dir) {
    this.location = new Location(dir);
  }

  boolean is(String s, String sc, String t) {
    return share.equalsIgnoreCase(s) && schema.equalsIgnoreCase(sc) && name.equalsIgnoreCase(t);
  }

  static String key(String fullName) {
    return fullName.toLowerCase(Locale.ROOT);
  }
}
