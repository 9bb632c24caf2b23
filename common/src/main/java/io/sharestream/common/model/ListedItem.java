package io.sharestream.common.model;

/** An entry of a list endpoint: a share, a schema of a share, or a table of a schema. */
public final class ListedItem {
  private final String name;
  private final String share;
  private final String schema;
  private final String id;
  private final TableAccess access;

  public ListedItem(String name, String share, String schema, String id) {
    this(name, share, schema, id, TableAccess.URL_ONLY);
  }

  public ListedItem(String name, String share, String schema, String id, TableAccess access) {
    this.name = name;
    this.share = share;
    this.schema = schema;
    this.id = id;
    this.access = access;
  }

  public String name() {
    return name;
  }

  /** The share it belongs to (null for a share itself). */
  public String share() {
    return share;
  }

  /** The schema it belongs to (tables only). */
  public String schema() {
    return schema;
  }

  /** Server-assigned id, when sent. */
  public String id() {
    return id;
  }

  /** For a table: how it may be read ({@code accessModes}; URLs only when the server says nothing). */
  public TableAccess access() {
    return access;
  }

  @Override
  public String toString() {
    return share == null ? name : schema == null ? share + "." + name : share + "." + schema + "." + name;
  }
}
