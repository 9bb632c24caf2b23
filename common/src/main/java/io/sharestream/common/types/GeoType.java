package io.sharestream.common.types;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code geometry(<crs>)} or {@code geography(<crs>, <algorithm>)} (Delta reader feature {@code geospatial}; Spark 4.1+
 * {@code GeometryType}/{@code GeographyType}): a shape stored as its WKB (ISO well-known binary) in a Parquet binary
 * column annotated {@code GEOMETRY}/{@code GEOGRAPHY}. Rows carry the WKB bytes. The spatial reference ({@code crs},
 * default {@code OGC:CRS84}) and a geography's edge algorithm (default {@code SPHERICAL}) are kept as the schema says.
 */
public final class GeoType implements DataType {
  private static final long serialVersionUID = 1L;
  /** What Delta's schema says when it names no reference system. */
  public static final String DEFAULT_CRS = "OGC:CRS84";
  public static final String DEFAULT_ALGORITHM = "SPHERICAL";
  private static final Pattern TYPE = Pattern.compile("(geometry|geography)(?:\\((.*)\\))?",
      Pattern.CASE_INSENSITIVE);

  private final boolean geography;
  private final String crs;
  private final String algorithm;

  private GeoType(boolean geography, String crs, String algorithm) {
    this.geography = geography;
    this.crs = crs;
    this.algorithm = algorithm;
  }

  /**
   * The type a schema string names ({@code geometry}, {@code geometry(OGC:CRS84)}, {@code geography(OGC:CRS84,
   * SPHERICAL)}, {@code geography(SPHERICAL)}, ...), or null when it names another type.
   */
  static GeoType parse(String name) {
    Matcher m = TYPE.matcher(name.trim());
    if (!m.matches()) {
      return null;
    }
    boolean geography = m.group(1).equalsIgnoreCase("geography");
    String crs = DEFAULT_CRS;
    String algorithm = DEFAULT_ALGORITHM;
    if (m.group(2) != null && !m.group(2).trim().isEmpty()) {
      String[] parts = m.group(2).split(",");
      for (String p : parts) {
        String part = p.trim();
        if (geography && isAlgorithm(part)) {
          algorithm = part.toUpperCase(Locale.ROOT);
        } else {
          crs = part;
        }
      }
    }
    return new GeoType(geography, crs, algorithm);
  }

  private static boolean isAlgorithm(String s) {
    switch (s.toUpperCase(Locale.ROOT)) {
      case "SPHERICAL":
      case "VINCENTY":
      case "THOMAS":
      case "ANDOYER":
      case "KARNEY":
        return true;
      default:
        return false;
    }
  }

  /** A geography (edges on the sphere or spheroid) rather than a geometry (planar edges). */
  public boolean geography() {
    return geography;
  }

  /** The spatial reference system, e.g. {@code OGC:CRS84} or {@code EPSG:4326}. */
  public String crs() {
    return crs;
  }

  /** A geography's edge interpolation algorithm ({@code SPHERICAL}, ...); null for a geometry. */
  public String algorithm() {
    return geography ? algorithm : null;
  }

  /** As Delta's (and Spark's) schema JSON writes it: {@code geometry(OGC:CRS84)}, {@code geography(OGC:CRS84, SPHERICAL)}. */
  @Override
  public String simpleString() {
    return geography ? "geography(" + crs + ", " + algorithm + ")" : "geometry(" + crs + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GeoType && ((GeoType) o).geography == geography && ((GeoType) o).crs.equals(crs)
        && ((GeoType) o).algorithm.equals(algorithm);
  }

  @Override
  public int hashCode() {
    return simpleString().hashCode();
  }

  @Override
  public String toString() {
    return simpleString();
  }
}
