package io.sharestream.testkit.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's configuration of shares, schemas and tables. Names match case-insensitively, as in the protocol.
 * Changeable while the server runs: add tables or views, point a table at another directory (a table recreated under
 * the same name), change how a table may be read ({@link #accessModes}), or remove one.
 */
public final class SharedTables {
  private final Map<String, SharedTable> tables = new LinkedHashMap<>();
  private final Map<String, String> shareIds = new ConcurrentHashMap<>();

  /** Shares {@code share.schema.table} from {@code dir}, with history shared or not. */
  public SharedTable add(String share, String schema, String table, Path dir, boolean historyShared) {
    return put(new SharedTable(share, schema, table, dir, historyShared, false));
  }

  /**
   * Shares the Delta table at {@code dir} as the view (or materialized view) {@code share.schema.name}: listed as a
   * table, answered from its latest state without versions or history, its queries asynchronous
   * ({@link AsyncMode#ALWAYS}) to clients announcing {@code asyncquery=true}.
   */
  public SharedTable addView(String share, String schema, String name, Path dir) {
    return put(new SharedTable(share, schema, name, dir, false, true));
  }

  private synchronized SharedTable put(SharedTable t) {
    for (String part : List.of(t.share, t.schema, t.name)) {
      if (part.isEmpty() || part.chars().anyMatch(c -> c == '/' || c == ' ' || c < 0x20 || c == 0x7F)) {
        throw new IllegalArgumentException("invalid name part '" + part + "' in " + t.fullName());
      }
    }
    if (t.schema.contains(".") || t.name.contains(".")) {
      throw new IllegalArgumentException("schema and table names cannot contain '.': " + t.fullName());
    }
    if (tables.putIfAbsent(SharedTable.key(t.fullName()), t) != null) {
      throw new IllegalArgumentException("table " + t.fullName() + " is already shared");
    }
    return t;
  }

  /** Points a shared table at another directory: clients see a new table (new {@code metaData.id}) under the old name. */
  public synchronized void relocate(String fullName, Path dir) {
    get(fullName).relocate(dir);
  }

  /** Sets how recipients may read the table {@code fullName}'s data, from the next request on (see
   *  {@link SharedTable#accessModes(AccessMode...)}). */
  public synchronized SharedTable accessModes(String fullName, AccessMode... modes) {
    return get(fullName).accessModes(modes);
  }

  public synchronized void remove(String fullName) {
    if (tables.remove(SharedTable.key(fullName)) == null) {
      throw new IllegalArgumentException("no shared table " + fullName);
    }
  }

  public synchronized SharedTable get(String fullName) {
    SharedTable t = tables.get(SharedTable.key(fullName));
    if (t == null) {
      throw new IllegalArgumentException("no shared table " + fullName);
    }
    return t;
  }

  synchronized Optional<SharedTable> find(String share, String schema, String table) {
    return tables.values().stream().filter(t -> t.is(share, schema, table)).findFirst();
  }

  synchronized Optional<SharedTable> byKey(String key) {
    return tables.values().stream().filter(t -> t.location().key.equals(key)).findFirst();
  }

  synchronized List<String> shares() {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    tables.values().forEach(t -> out.add(t.share));
    return new ArrayList<>(out);
  }

  synchronized List<SharedTable> all() {
    return new ArrayList<>(tables.values());
  }

  synchronized boolean hasShare(String share) {
    return tables.values().stream().anyMatch(t -> t.share.equalsIgnoreCase(share));
  }

  /** Gives {@code share} an id, which the share and table lists then carry (a share has none unless given one). */
  public void setShareId(String share, String id) {
    shareIds.put(share.toLowerCase(java.util.Locale.ROOT), id);
  }

  /** The share's configured id, or null. */
  synchronized String shareId(String share) {
    return shareIds.get(share.toLowerCase(java.util.Locale.ROOT));
  }

  synchronized List<String> schemas(String share) {
    LinkedHashSet<String> out = new LinkedHashSet<>();
    tables.values().stream().filter(t -> t.share.equalsIgnoreCase(share)).forEach(t -> out.add(t.schema));
    return new ArrayList<>(out);
  }

  synchronized List<SharedTable> tables(String share, String schema) {
    List<SharedTable> out = new ArrayList<>();
    for (SharedTable t : tables.values()) {
      if (t.share.equalsIgnoreCase(share) && (schema == null || t.schema.equalsIgnoreCase(schema))) {
        out.add(t);
      }
    }
    return out;
  }
}
