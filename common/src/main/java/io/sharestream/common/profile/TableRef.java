package io.sharestream.common.profile;

import io.sharestream.common.errors.InvalidSettingException;
import java.util.Locale;
import java.util.Objects;

/** A shared table's three-part name {@code share.schema.table}. */
public final class TableRef implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final String share;
  private final String schema;
  private final String table;
  /** {@link #toString()}, made once: records and their headers name the table each. */
  private transient String name;

  public TableRef(String share, String schema, String table) {
    this.share = Objects.requireNonNull(share);
    this.schema = Objects.requireNonNull(schema);
    this.table = Objects.requireNonNull(table);
  }

  /** Parses {@code share.schema.table}; {@code what} names the setting it came from, for the error message. */
  public static TableRef parse(String name, String what) {
    String[] parts = name == null ? new String[0] : name.trim().split("\\.", -1);
    if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty() || parts[2].isEmpty()) {
      throw new InvalidSettingException(what + " must name a table as <share>.<schema>.<table>, not '" + name + "'.");
    }
    return new TableRef(parts[0], parts[1], parts[2]);
  }

  public String share() {
    return share;
  }

  public String schema() {
    return schema;
  }

  public String table() {
    return table;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TableRef)) {
      return false;
    }
    TableRef t = (TableRef) o;
    return share.equalsIgnoreCase(t.share) && schema.equalsIgnoreCase(t.schema) && table.equalsIgnoreCase(t.table);
  }

  @Override
  public int hashCode() {
    return toString().toLowerCase(Locale.ROOT).hashCode();
  }

  @Override
  public String toString() {
    String n = name;
    if (n == null) {
      n = share + "." + schema + "." + table;
      name = n;
    }
    return n;
  }
}
