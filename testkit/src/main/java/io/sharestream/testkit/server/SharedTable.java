package io.sharestream.testkit.server;

import io.sharestream.testkit.delta.DeltaLog;
import io.sharestream.testkit.delta.Snapshot;
import io.sharestream.testkit.storage.Azurite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One table as shared: its three-part name, where its Delta table lives, whether history is shared, whether it is
 * shared as a view, when its queries are answered asynchronously, and how recipients may read its data
 * ({@link AccessMode}s; with {@link AccessMode#DIR}, from the server's {@link ObjectStore} or an {@link Azurite}
 * container at {@link #storageLocation()}).
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
  private volatile Set<AccessMode> accessModes = Collections.unmodifiableSet(EnumSet.of(AccessMode.URL));
  private volatile boolean accessModesAdvertised;
  private final List<Path> auxiliaryDirs = new CopyOnWriteArrayList<>();
  /** The Azurite container its files are mirrored to, or null: they are in the kit's {@link ObjectStore}. */
  private volatile String azureContainer;
  /** Whether its files are read through the GCS JSON API of the {@link ObjectStore}. */
  private volatile boolean gcs;

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

  /** How recipients may read its data (default {@link AccessMode#URL} only). */
  public Set<AccessMode> accessModes() {
    return accessModes;
  }

  /**
   * Sets how recipients may read its data, from the next request on: list entries and metaData lines then carry
   * {@code location}, {@code auxiliaryLocations} (if any) and {@code accessModes}; without {@link AccessMode#URL},
   * query and changes are refused; with {@link AccessMode#DIR}, {@code temporary-table-credentials} vends
   * credentials for the {@link ObjectStore}. Until first set, the table answers as a server without access modes
   * (nothing of these in its answers; url access only). A view cannot be shared for {@code dir} access.
   */
  public SharedTable accessModes(AccessMode... modes) {
    if (modes.length == 0) {
      throw new IllegalArgumentException("a table needs at least one access mode: " + fullName());
    }
    EnumSet<AccessMode> set = EnumSet.noneOf(AccessMode.class);
    for (AccessMode m : modes) {
      set.add(java.util.Objects.requireNonNull(m, "mode"));
    }
    if (view && set.contains(AccessMode.DIR)) {
      throw new IllegalArgumentException(fullName() + " is a view: it has no directory to share for dir access");
    }
    this.accessModes = Collections.unmodifiableSet(set);
    this.accessModesAdvertised = true;
    return this;
  }

  /** Whether its access modes were set, and its answers carry them. */
  boolean accessModesAdvertised() {
    return accessModesAdvertised;
  }

  /**
   * Adds {@code dir} as an auxiliary location of the table (files its log names by absolute
   * {@code s3://} paths under that location), served by the {@link ObjectStore} and listed in
   * {@code auxiliaryLocations}; returns its location.
   */
  public String addAuxiliaryLocation(Path dir) {
    if (view) {
      throw new IllegalArgumentException(fullName() + " is a view: it has no locations");
    }
    if (azureContainer != null) {
      throw new IllegalStateException(fullName() + ": a table mirrored to Azurite has no auxiliary locations");
    }
    auxiliaryDirs.add(dir.toAbsolutePath().normalize());
    return auxiliaryStorageLocations().get(auxiliaryDirs.size() - 1);
  }

  /** The directories of its auxiliary locations, in the order added. */
  public List<Path> auxiliaryDirs() {
    return List.copyOf(auxiliaryDirs);
  }

  /**
   * Its root: in the object store, {@code s3://kit/<share>/<schema>/<table>} ({@code gs://} read through GCS's API);
   * mirrored to Azurite, {@code abfss://<container>@devstoreaccount1.dfs.core.windows.net/<share>/<schema>/<table>}.
   */
  public String storageLocation() {
    String container = azureContainer;
    return container != null ? Azurite.location(container, keyRoot())
        : (gcs ? "gs://" : "s3://") + ObjectStore.BUCKET + "/" + keyRoot();
  }

  /**
   * Its files are read through the object store's Google Cloud Storage JSON API: its location is {@code gs://} and
   * its credentials are OAuth tokens.
   */
  public SharedTable storedInGcs() {
    this.gcs = true;
    return this;
  }

  /** Whether it is {@linkplain #storedInGcs stored in GCS}. */
  boolean gcs() {
    return gcs;
  }

  /**
   * Its files are read from {@code container} of an {@link Azurite} (which the test fills, e.g. by
   * {@link Azurite#mirror} of {@link #dir()} to {@link #keyRoot()}): its location names it and its credentials are
   * SAS tokens for it. No auxiliary location then.
   */
  public SharedTable storedInAzure(String container) {
    if (!auxiliaryDirs.isEmpty()) {
      throw new IllegalStateException(fullName() + ": a table mirrored to Azurite has no auxiliary locations");
    }
    this.azureContainer = container;
    return this;
  }

  /** The Azurite container its files are in, or null. */
  String azureContainer() {
    return azureContainer;
  }

  /** Its auxiliary locations: {@code s3://kit/<share>/<schema>/<table>.aux<n>}, n from 1. */
  public List<String> auxiliaryStorageLocations() {
    List<String> out = new ArrayList<>();
    for (int i = 1; i <= auxiliaryDirs.size(); i++) {
      out.add(storageLocation() + ".aux" + i);
    }
    return out;
  }

  /** The key prefix of its root: {@code <share>/<schema>/<table>} (no table name holds a dot, so no root holds
   *  {@code .aux<n>}). */
  public String keyRoot() {
    return share + "/" + schema + "/" + name;
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
