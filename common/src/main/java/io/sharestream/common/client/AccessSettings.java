package io.sharestream.common.client;

import io.sharestream.common.storage.StorageSettings;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;

/**
 * How a table's files are reached: through the pre-signed URLs of the sharing server's answers, or from the table's
 * storage directory with credentials the server vends ({@code accessModes} of the protocol), and where storage is
 * for directory access.
 */
public final class AccessSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Which access a table is read by. */
  public enum Mode {
    /** URLs where the server offers them, else the table's directory. */
    AUTO,
    /** Only URLs: a table shared for directory access alone is refused. */
    URL,
    /** Only the table's directory: a table not shared for directory access is refused. */
    DIR;

    /** Parses a setting's value ({@code auto}, {@code url}, {@code dir}, any case); null for anything else. */
    public static Mode parse(String value) {
      for (Mode m : values()) {
        if (m.name().equalsIgnoreCase(value == null ? "" : value.trim())) {
          return m;
        }
      }
      return null;
    }

    @Override
    public String toString() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public static final AccessSettings DEFAULT = new AccessSettings(Mode.AUTO, StorageSettings.defaults());

  private final Mode mode;
  private final StorageSettings storage;

  public AccessSettings(Mode mode, StorageSettings storage) {
    this.mode = Objects.requireNonNull(mode, "mode");
    this.storage = Objects.requireNonNull(storage, "storage");
  }

  public Mode mode() {
    return mode;
  }

  /** Endpoints, region and addressing of the object stores read for directory access. */
  public StorageSettings storage() {
    return storage;
  }

  public AccessSettings withMode(Mode m) {
    return new AccessSettings(m, storage);
  }

  public AccessSettings withStorage(StorageSettings s) {
    return new AccessSettings(mode, s);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AccessSettings && ((AccessSettings) o).mode == mode
        && ((AccessSettings) o).storage.equals(storage);
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, storage);
  }

  @Override
  public String toString() {
    return "AccessSettings{mode=" + mode + ", storage=" + storage + "}";
  }
}
