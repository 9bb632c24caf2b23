package io.sharestream.common.model;

/** An entry of a list endpoint: a share, a schema of a share, or a table of a schema. */
public final class ListedItem {
  private final String name;
  private final String share;
  private final String schema;
  private final String id;

  public ListedItem(String name, String share, String schema, String id) {
    this.name = name;
    this.share = share;
    this.schema = schema;
    this.id = id;
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

  @Override
  public String toString() {
    return share == null ? name : schema == null ? share + "." + name : share + "." + schema + "." + name;
  }
}
