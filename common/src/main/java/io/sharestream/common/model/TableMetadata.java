package io.sharestream.common.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.types.SchemaJson;
import io.sharestream.common.types.StructType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code metaData} line: table id, schema, partition columns and configuration, with the version it describes
 * when the server said (versioned reads and historical metadata).
 */
public final class TableMetadata implements SharingAction {
  private final String id;
  private final String name;
  private final String description;
  private final String schemaString;
  private final List<String> partitionColumns;
  private final Map<String, String> configuration;
  private final Long version;
  private final Long size;
  private final Long numFiles;
  private final TableAccess access;
  private volatile StructType schema;

  public TableMetadata(String id, String name, String description, String schemaString, List<String> partitionColumns,
      Map<String, String> configuration, Long version, Long size, Long numFiles) {
    this(id, name, description, schemaString, partitionColumns, configuration, version, size, numFiles,
        TableAccess.URL_ONLY);
  }

  public TableMetadata(String id, String name, String description, String schemaString, List<String> partitionColumns,
      Map<String, String> configuration, Long version, Long size, Long numFiles, TableAccess access) {
    this.id = Objects.requireNonNull(id, "id");
    this.name = name;
    this.description = description;
    this.schemaString = Objects.requireNonNull(schemaString, "schemaString");
    this.partitionColumns = Collections.unmodifiableList(new ArrayList<>(partitionColumns));
    this.configuration = Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
    this.version = version;
    this.size = size;
    this.numFiles = numFiles;
    this.access = Objects.requireNonNull(access, "access");
  }

  /** Parses the body of a {@code metaData} line (parquet response format). */
  public static TableMetadata fromJson(JsonNode n) {
    return parse(n, n);
  }

  /**
   * Parses the body of a delta-format {@code metaData} line: the Delta {@code deltaMetadata} action (full table
   * properties, schema with its field metadata) and the line's own {@code version}, {@code size}, {@code numFiles}.
   */
  public static TableMetadata fromDeltaJson(JsonNode n) {
    return parse(n.path("deltaMetadata"), n);
  }

  private static TableMetadata parse(JsonNode m, JsonNode line) {
    if (!m.hasNonNull("id") || !m.hasNonNull("schemaString")) {
      throw new IllegalArgumentException("metaData line without id or schemaString");
    }
    List<String> parts = new ArrayList<>();
    m.path("partitionColumns").forEach(p -> parts.add(p.asText()));
    Map<String, String> conf = new LinkedHashMap<>();
    m.path("configuration").fields().forEachRemaining(e -> conf.put(e.getKey(), e.getValue().asText()));
    return new TableMetadata(m.get("id").asText(), text(m, "name"), text(m, "description"),
        m.get("schemaString").asText(), parts, conf, number(line, "version"), number(line, "size"),
        number(line, "numFiles"), TableAccess.fromJson(line));
  }

  private static String text(JsonNode n, String field) {
    return n.hasNonNull(field) ? n.get(field).asText() : null;
  }

  private static Long number(JsonNode n, String field) {
    return n.hasNonNull(field) && n.get(field).canConvertToLong() ? n.get(field).asLong() : null;
  }

  public String id() {
    return id;
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  public String schemaString() {
    return schemaString;
  }

  /** The parsed schema (parsed once). */
  public StructType schema() {
    StructType s = schema;
    if (s == null) {
      s = SchemaJson.parse(schemaString);
      schema = s;
    }
    return s;
  }

  public List<String> partitionColumns() {
    return partitionColumns;
  }

  public Map<String, String> configuration() {
    return configuration;
  }

  /** Whether the server reports the change data feed as enabled. */
  public boolean changeDataFeedEnabled() {
    return "true".equalsIgnoreCase(configuration.get("enableChangeDataFeed"))
        || "true".equalsIgnoreCase(configuration.get("delta.enableChangeDataFeed"));
  }

  /** The version this metadata belongs to, if the server said. */
  public Long version() {
    return version;
  }

  /** The table's size in bytes at this version, if the server said (the reference server does not). */
  public Long size() {
    return size;
  }

  /** The table's number of files at this version, if the server said (the reference server does not). */
  public Long numFiles() {
    return numFiles;
  }

  /** How the table may be read: URLs, its directory, or both ({@code accessModes}). */
  public TableAccess access() {
    return access;
  }

  /** The same metadata reported for {@code v}. */
  public TableMetadata withVersion(long v) {
    return new TableMetadata(id, name, description, schemaString, partitionColumns, configuration, v, size,
        numFiles, access);
  }

  /** Same table description, ignoring the version it was reported at. */
  public boolean sameAs(TableMetadata o) {
    return id.equals(o.id) && schemaString.equals(o.schemaString) && partitionColumns.equals(o.partitionColumns)
        && configuration.equals(o.configuration);
  }

  @Override
  public String toString() {
    return "TableMetadata{id=" + id + ", partitionColumns=" + partitionColumns + ", version=" + version + "}";
  }
}
