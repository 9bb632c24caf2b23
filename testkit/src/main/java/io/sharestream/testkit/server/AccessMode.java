package io.sharestream.testkit.server;

import java.util.Locale;

/**
 * How a recipient may read a table's data (the protocol's {@code accessModes}): {@link #URL} through pre-signed file
 * URLs from {@code query} and {@code changes}, {@link #DIR} straight from the table's directory in object storage
 * with temporary credentials from {@code temporary-table-credentials}.
 */
public enum AccessMode {
  /** URL-based access: query and changes answer pre-signed file URLs. */
  URL,
  /** Directory-based access: temporary credentials for the table's location. */
  DIR;

  /** The protocol's name: {@code url} or {@code dir}. */
  public String protocolName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode named {@code name} ({@code url} or {@code dir}, any case). */
  public static AccessMode of(String name) {
    for (AccessMode m : values()) {
      if (m.protocolName().equalsIgnoreCase(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown access mode '" + name + "': expected url or dir");
  }
}
