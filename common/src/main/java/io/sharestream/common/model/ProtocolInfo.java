package io.sharestream.common.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Collections;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code protocol} line: the reader version a client needs and, from reader version 3 on, the table features
 * it must implement ({@code readerFeatures}, delta response format only; the parquet format always says 1). Asked
 * with {@code includeHistoricalProtocol}, a history answer stamps its protocol lines with the {@link #version()} they
 * take effect at, and a protocol changed after the start comes among the file lines of its version.
 */
public final class ProtocolInfo implements SharingAction {
  /**
   * The reader features every engine of this product reads (lower case), with the names the capabilities header
   * uses: a client's default ({@code ClientSettings.readerFeatures()}).
   */
  public static final Set<String> SUPPORTED_READER_FEATURES =
      Collections.unmodifiableSet(new TreeSet<>(Arrays.asList("deletionvectors", "columnmapping", "timestampntz",
          "typewidening", "typewidening-preview", "varianttype", "varianttype-preview", "variantshredding",
          "variantshredding-preview", "geospatial")));
  /**
   * Reader features that concern only how a table's log is kept (v2 checkpoints, the vacuum protocol check): the
   * sharing server reads the log, a recipient reads files, so a table with them is read as any other.
   */
  public static final Set<String> LOG_ONLY_READER_FEATURES =
      Collections.unmodifiableSet(new TreeSet<>(Arrays.asList("v2checkpoint", "vacuumprotocolcheck")));
  /** Reader versions this product reads: 1, 2 (column mapping), 3 (table features). */
  public static final int MAX_READER_VERSION = 3;

  private final int minReaderVersion;
  private final int minWriterVersion;
  private final Set<String> readerFeatures;
  private final Long version;

  public ProtocolInfo(int minReaderVersion, int minWriterVersion, Set<String> readerFeatures) {
    this(minReaderVersion, minWriterVersion, readerFeatures, null);
  }

  private ProtocolInfo(int minReaderVersion, int minWriterVersion, Set<String> readerFeatures, Long version) {
    this.minReaderVersion = minReaderVersion;
    this.minWriterVersion = minWriterVersion;
    this.readerFeatures = Collections.unmodifiableSet(new TreeSet<>(readerFeatures));
    this.version = version;
  }

  /** The parquet-format protocol line: only the reader version. */
  public static ProtocolInfo parquet(JsonNode n) {
    return new ProtocolInfo(n.path("minReaderVersion").asInt(1), 0, Collections.<String>emptySet());
  }

  /** The delta-format {@code deltaProtocol} object. */
  public static ProtocolInfo delta(JsonNode n) {
    Set<String> features = new TreeSet<>();
    n.path("readerFeatures").forEach(f -> features.add(f.asText()));
    return new ProtocolInfo(n.path("minReaderVersion").asInt(1), n.path("minWriterVersion").asInt(0), features);
  }

  /** This protocol as of table version {@code v} (null: not said). */
  public ProtocolInfo withVersion(Long v) {
    return new ProtocolInfo(minReaderVersion, minWriterVersion, readerFeatures, v);
  }

  /** The table version this protocol takes effect at, when the answer says (historical protocol), else null. */
  public Long version() {
    return version;
  }

  public int minReaderVersion() {
    return minReaderVersion;
  }

  /** The writer version (delta format only; 0 when the server did not say). */
  public int minWriterVersion() {
    return minWriterVersion;
  }

  /** The reader features the table needs, as the server spelled them. */
  public Set<String> readerFeatures() {
    return readerFeatures;
  }

  /**
   * What of this protocol a reader of the {@link #SUPPORTED_READER_FEATURES} cannot read, in words ({@code null} when
   * it reads it all).
   */
  public String unsupported() {
    return unsupported(SUPPORTED_READER_FEATURES);
  }

  /**
   * What of this protocol a reader of {@code supported} (lower-case feature names; the log-only features are always
   * read) cannot read, in words naming each missing feature as the table spells it ({@code null} when it reads it
   * all).
   */
  public String unsupported(Set<String> supported) {
    if (minReaderVersion > MAX_READER_VERSION) {
      return "reader version " + minReaderVersion + " (this reader supports up to " + MAX_READER_VERSION + ")";
    }
    Set<String> missing = new TreeSet<>();
    for (String f : readerFeatures) {
      String name = f.toLowerCase(Locale.ROOT);
      if (!supported.contains(name) && !LOG_ONLY_READER_FEATURES.contains(name)) {
        missing.add(f);
      }
    }
    return missing.isEmpty() ? null
        : "reader feature" + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing);
  }

  /** Equal reader and writer requirements, whatever {@link #version()} each was stamped with. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ProtocolInfo)) {
      return false;
    }
    ProtocolInfo p = (ProtocolInfo) o;
    return p.minReaderVersion == minReaderVersion && p.minWriterVersion == minWriterVersion
        && p.readerFeatures.equals(readerFeatures);
  }

  @Override
  public int hashCode() {
    return minReaderVersion * 31 + readerFeatures.hashCode();
  }

  @Override
  public String toString() {
    return "ProtocolInfo{minReaderVersion=" + minReaderVersion + (minWriterVersion > 0 ? ", minWriterVersion="
        + minWriterVersion : "") + (readerFeatures.isEmpty() ? "" : ", readerFeatures=" + readerFeatures)
        + (version == null ? "" : ", version=" + version) + "}";
  }
}
