package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One action of a Delta log commit: the subset of the Delta protocol the kit writes and serves. */
public abstract class DeltaAction {
  static final ObjectMapper JSON = new ObjectMapper();

  DeltaAction() {}

  /** The single-key JSON object this action is written as, one per line of a commit file. */
  public abstract ObjectNode toJson();

  /**
   * Parses one commit line, given as its key and body; returns null for action kinds the kit does not model (txn,
   * domainMetadata, ...).
   */
  public static DeltaAction parse(String key, JsonNode body) {
    switch (key) {
      case "add":
        return AddFile.from(body);
      case "remove":
        return RemoveFile.from(body);
      case "cdc":
        return CdcFile.from(body);
      case "metaData":
        return Metadata.from(body);
      case "protocol":
        return Protocol.from(body);
      case "commitInfo":
        return new CommitInfo((ObjectNode) body);
      default:
        return null;
    }
  }

  static Map<String, String> partitionValues(JsonNode node) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node != null) {
      node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().isNull() ? null : e.getValue().asText()));
    }
    return Collections.unmodifiableMap(out);
  }

  static ObjectNode wrap(String key, ObjectNode body) {
    ObjectNode n = JSON.createObjectNode();
    n.set(key, body);
    return n;
  }

  /** A data file, by path relative to the table root (URI-encoded, as Delta writes it). */
  public abstract static class FileAction extends DeltaAction {
    public final String path;
    public final Map<String, String> partitionValues;
    public final long size;

    FileAction(String path, Map<String, String> partitionValues, long size) {
      this.path = path;
      this.partitionValues = Collections.unmodifiableMap(new LinkedHashMap<>(partitionValues));
      this.size = size;
    }

    ObjectNode base() {
      ObjectNode n = JSON.createObjectNode();
      n.put("path", path);
      n.set("partitionValues", JSON.valueToTree(partitionValues));
      n.put("size", size);
      return n;
    }
  }

  /** {@code add}: a file joins the table, minus the rows its deletion vector (if any) marks. */
  public static final class AddFile extends FileAction {
    public final long modificationTime;
    public final boolean dataChange;
    public final String stats;
    /** Null when no row of the file is deleted. */
    public final DeletionVectorDescriptor deletionVector;

    public AddFile(String path, Map<String, String> partitionValues, long size, long modificationTime,
        boolean dataChange, String stats) {
      this(path, partitionValues, size, modificationTime, dataChange, stats, null);
    }

    public AddFile(String path, Map<String, String> partitionValues, long size, long modificationTime,
        boolean dataChange, String stats, DeletionVectorDescriptor deletionVector) {
      super(path, partitionValues, size);
      this.modificationTime = modificationTime;
      this.dataChange = dataChange;
      this.stats = stats;
      this.deletionVector = deletionVector;
    }

    static AddFile from(JsonNode n) {
      return new AddFile(n.path("path").asText(), partitionValues(n.get("partitionValues")), n.path("size").asLong(),
          n.path("modificationTime").asLong(), n.path("dataChange").asBoolean(true),
          n.hasNonNull("stats") ? n.get("stats").asText() : null,
          DeletionVectorDescriptor.fromJson(n.get("deletionVector")));
    }

    /** The logical file's key in a snapshot: its path and its deletion vector's unique id (protocol rule). */
    public String logicalKey() {
      return DeltaAction.logicalKey(path, deletionVector);
    }

    /** The {@code remove} of this logical file (carrying its deletion vector). */
    public RemoveFile remove(long deletionTimestamp, boolean dataChange) {
      return new RemoveFile(path, partitionValues, size, deletionTimestamp, dataChange, deletionVector);
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode n = base();
      n.put("modificationTime", modificationTime);
      n.put("dataChange", dataChange);
      if (stats != null) {
        n.put("stats", stats);
      }
      if (deletionVector != null) {
        n.set("deletionVector", deletionVector.toJson());
      }
      return wrap("add", n);
    }
  }

  static String logicalKey(String path, DeletionVectorDescriptor dv) {
    return dv == null ? path : path + "\n" + dv.uniqueId();
  }

  /** {@code remove}: a logical file (a path with its deletion vector, if any) leaves the table. */
  public static final class RemoveFile extends FileAction {
    public final long deletionTimestamp;
    public final boolean dataChange;
    /** The deletion vector of the logical file removed; null when it had none. */
    public final DeletionVectorDescriptor deletionVector;

    public RemoveFile(String path, Map<String, String> partitionValues, long size, long deletionTimestamp,
        boolean dataChange) {
      this(path, partitionValues, size, deletionTimestamp, dataChange, null);
    }

    public RemoveFile(String path, Map<String, String> partitionValues, long size, long deletionTimestamp,
        boolean dataChange, DeletionVectorDescriptor deletionVector) {
      super(path, partitionValues, size);
      this.deletionTimestamp = deletionTimestamp;
      this.dataChange = dataChange;
      this.deletionVector = deletionVector;
    }

    static RemoveFile from(JsonNode n) {
      return new RemoveFile(n.path("path").asText(), partitionValues(n.get("partitionValues")),
          n.path("size").asLong(), n.path("deletionTimestamp").asLong(), n.path("dataChange").asBoolean(true),
          DeletionVectorDescriptor.fromJson(n.get("deletionVector")));
    }

    public String logicalKey() {
      return DeltaAction.logicalKey(path, deletionVector);
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode n = base();
      n.put("deletionTimestamp", deletionTimestamp);
      n.put("dataChange", dataChange);
      n.put("extendedFileMetadata", true);
      if (deletionVector != null) {
        n.set("deletionVector", deletionVector.toJson());
      }
      return wrap("remove", n);
    }
  }

  /** {@code cdc}: a change data file under {@code _change_data/}, rows carrying {@code _change_type}. */
  public static final class CdcFile extends FileAction {
    public CdcFile(String path, Map<String, String> partitionValues, long size) {
      super(path, partitionValues, size);
    }

    static CdcFile from(JsonNode n) {
      return new CdcFile(n.path("path").asText(), partitionValues(n.get("partitionValues")), n.path("size").asLong());
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode n = base();
      n.put("dataChange", false);
      return wrap("cdc", n);
    }
  }

  /** {@code metaData}: table id, schema, partition columns and configuration. */
  public static final class Metadata extends DeltaAction {
    public final String id;
    public final String name;
    public final String description;
    public final String schemaString;
    public final List<String> partitionColumns;
    public final Map<String, String> configuration;
    public final long createdTime;

    public Metadata(String id, String name, String description, String schemaString, List<String> partitionColumns,
        Map<String, String> configuration, long createdTime) {
      this.id = id;
      this.name = name;
      this.description = description;
      this.schemaString = schemaString;
      this.partitionColumns = Collections.unmodifiableList(new ArrayList<>(partitionColumns));
      this.configuration = Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
      this.createdTime = createdTime;
    }

    static Metadata from(JsonNode n) {
      List<String> parts = new ArrayList<>();
      n.path("partitionColumns").forEach(p -> parts.add(p.asText()));
      return new Metadata(n.path("id").asText(), n.hasNonNull("name") ? n.get("name").asText() : null,
          n.hasNonNull("description") ? n.get("description").asText() : null, n.path("schemaString").asText(), parts,
          partitionValues(n.get("configuration")), n.path("createdTime").asLong());
    }

    public DeltaType.StructType schema() {
      return DeltaType.parseSchema(schemaString);
    }

    public boolean changeDataFeedEnabled() {
      return "true".equalsIgnoreCase(configuration.get("delta.enableChangeDataFeed"));
    }

    /** Whether {@code delta.enableDeletionVectors} is on: DML marks rows in deletion vectors. */
    public boolean deletionVectorsEnabled() {
      return "true".equalsIgnoreCase(configuration.get("delta.enableDeletionVectors"));
    }

    /** Whether {@code delta.columnMapping.mode} is {@code name} or {@code id}. */
    public boolean columnMappingEnabled() {
      return ColumnMapping.enabled(this);
    }

    public Metadata withPartitionColumns(List<String> columns) {
      return new Metadata(id, name, description, schemaString, columns, configuration, createdTime);
    }

    public Metadata withSchema(String newSchemaString) {
      return new Metadata(id, name, description, newSchemaString, partitionColumns, configuration, createdTime);
    }

    public Metadata withConfiguration(Map<String, String> newConfiguration) {
      return new Metadata(id, name, description, schemaString, partitionColumns, newConfiguration, createdTime);
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode n = JSON.createObjectNode();
      n.put("id", id);
      if (name != null) {
        n.put("name", name);
      }
      if (description != null) {
        n.put("description", description);
      }
      n.putObject("format").put("provider", "parquet").putObject("options");
      n.put("schemaString", schemaString);
      n.set("partitionColumns", JSON.valueToTree(partitionColumns));
      n.set("configuration", JSON.valueToTree(configuration));
      n.put("createdTime", createdTime);
      return wrap("metaData", n);
    }
  }

  /** {@code protocol}: reader/writer versions and, for (3,7), table features. */
  public static final class Protocol extends DeltaAction {
    public final int minReaderVersion;
    public final int minWriterVersion;
    public final List<String> readerFeatures;
    public final List<String> writerFeatures;

    public Protocol(int minReaderVersion, int minWriterVersion, List<String> readerFeatures,
        List<String> writerFeatures) {
      this.minReaderVersion = minReaderVersion;
      this.minWriterVersion = minWriterVersion;
      this.readerFeatures = readerFeatures;
      this.writerFeatures = writerFeatures;
    }

    static Protocol from(JsonNode n) {
      return new Protocol(n.path("minReaderVersion").asInt(1), n.path("minWriterVersion").asInt(2),
          strings(n.get("readerFeatures")), strings(n.get("writerFeatures")));
    }

    private static List<String> strings(JsonNode n) {
      if (n == null || n.isNull()) {
        return null;
      }
      List<String> out = new ArrayList<>();
      n.forEach(e -> out.add(e.asText()));
      return out;
    }

    @Override
    public ObjectNode toJson() {
      ObjectNode n = JSON.createObjectNode();
      n.put("minReaderVersion", minReaderVersion);
      n.put("minWriterVersion", minWriterVersion);
      if (readerFeatures != null) {
        n.set("readerFeatures", JSON.valueToTree(readerFeatures));
      }
      if (writerFeatures != null) {
        n.set("writerFeatures", JSON.valueToTree(writerFeatures));
      }
      return wrap("protocol", n);
    }
  }

  /** {@code commitInfo}: provenance; kept as written. */
  public static final class CommitInfo extends DeltaAction {
    public final ObjectNode body;

    public CommitInfo(ObjectNode body) {
      this.body = body;
    }

    public String operation() {
      return body.path("operation").asText();
    }

    @Override
    public ObjectNode toJson() {
      return wrap("commitInfo", body);
    }
  }
}
