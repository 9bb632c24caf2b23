package io.sharestream.common.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How a table may be read, as its listing or {@code metaData} line says ({@code accessModes}, {@code location},
 * {@code auxiliaryLocations}): through the pre-signed URLs of query answers ({@code url}), from its storage
 * directory with vended credentials ({@code dir}), or both. No {@code accessModes} means {@code url} only, as the
 * protocol prescribes for servers that predate directory access.
 */
public final class TableAccess implements Serializable {
  private static final long serialVersionUID = 1L;

  /** A way to read a table's files. */
  public enum Mode {
    /** Pre-signed URLs from the query and changes endpoints. */
    URL,
    /** The Delta table itself, read from its storage location with temporary credentials. */
    DIR
  }

  /** What a server that says nothing offers: URLs only. */
  public static final TableAccess URL_ONLY = new TableAccess(EnumSet.of(Mode.URL), null,
      Collections.<String>emptyList());

  private final Set<Mode> modes;
  private final String location;
  private final List<String> auxiliaryLocations;

  public TableAccess(Set<Mode> modes, String location, List<String> auxiliaryLocations) {
    this.modes = Collections.unmodifiableSet(modes.isEmpty() ? EnumSet.noneOf(Mode.class) : EnumSet.copyOf(modes));
    this.location = location;
    this.auxiliaryLocations = Collections.unmodifiableList(new ArrayList<>(auxiliaryLocations));
  }

  /**
   * Reads the access fields of a listing item or a {@code metaData} line. Unknown modes are ignored (a later
   * protocol may add some); an empty {@code accessModes} array offers nothing this client reads.
   */
  public static TableAccess fromJson(JsonNode n) {
    JsonNode modes = n.path("accessModes");
    String location = n.hasNonNull("location") ? n.get("location").asText() : null;
    List<String> aux = new ArrayList<>();
    n.path("auxiliaryLocations").forEach(l -> aux.add(l.asText()));
    if (!modes.isArray()) {
      return location == null && aux.isEmpty() ? URL_ONLY : new TableAccess(EnumSet.of(Mode.URL), location, aux);
    }
    Set<Mode> set = EnumSet.noneOf(Mode.class);
    for (JsonNode m : modes) {
      String s = m.asText().trim().toLowerCase(Locale.ROOT);
      if (s.equals("url")) {
        set.add(Mode.URL);
      } else if (s.equals("dir")) {
        set.add(Mode.DIR);
      }
    }
    return new TableAccess(set, location, aux);
  }

  public Set<Mode> modes() {
    return modes;
  }

  public boolean offers(Mode mode) {
    return modes.contains(mode);
  }

  /** The table's root directory (where {@code _delta_log} lies), when the server said. */
  public String location() {
    return location;
  }

  /** Other locations the table's log may name files in (each needs credentials of its own). */
  public List<String> auxiliaryLocations() {
    return auxiliaryLocations;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TableAccess)) {
      return false;
    }
    TableAccess t = (TableAccess) o;
    return modes.equals(t.modes) && java.util.Objects.equals(location, t.location)
        && auxiliaryLocations.equals(t.auxiliaryLocations);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(modes, location, auxiliaryLocations);
  }

  @Override
  public String toString() {
    return "TableAccess{modes=" + modes + (location == null ? "" : ", location=" + location)
        + (auxiliaryLocations.isEmpty() ? "" : ", auxiliaryLocations=" + auxiliaryLocations) + "}";
  }
}
