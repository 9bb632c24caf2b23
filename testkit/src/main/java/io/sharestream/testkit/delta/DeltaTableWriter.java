package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CommitInfo;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.StructType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import io.sharestream.testkit.delta.RowLevelCommand.Verdict;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.BinaryOperator;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Creates and evolves real Delta tables on local disk: Snappy Parquet data files (Hive-partitioned), change data
 * files under {@code _change_data/} when the change data feed is on, and {@code _delta_log} JSON commits with
 * {@code protocol}, {@code metaData}, {@code add}, {@code remove}, {@code cdc} and {@code commitInfo}. Each commit's
 * file modification time is its commit timestamp (which is what Delta readers take), strictly increasing.
 *
 * <p>As Delta Lake 3.2 does, tables may have deletion vectors (DML marks deleted rows in {@code deletion_vector_*.bin}
 * files or inline instead of rewriting files) and column mapping (partition directories and columns
 * named by physical names and Parquet field ids; renames and drops without rewrites). As Delta 4.0 does, a schema with
 * a {@code variant} column gets protocol (3,7) with the {@code variantType} reader and writer feature.
 *
 * <p>Every operation returns the version it committed. Rows are maps with logical column names (see
 * {@link ParquetRows}).
 */
public final class DeltaTableWriter {
  /** Row column Delta adds to change data files. */
  public static final String CHANGE_TYPE = "_change_type";

  private final Path dir;
  private final DeltaLog log;
  private final Clock clock;
  private final TimestampEncoding timestamps;
  private final int rowGroupBytes;
  private final boolean inlineDeletionVectors;
  private final DataFiles files;
  private Snapshot last;

  private DeltaTableWriter(Path dir, Clock clock, TimestampEncoding timestamps, int rowGroupBytes,
      boolean inlineDeletionVectors) {
    this.dir = dir;
    this.log = new DeltaLog(dir);
    this.clock = clock;
    this.timestamps = timestamps;
    this.rowGroupBytes = rowGroupBytes;
    this.inlineDeletionVectors = inlineDeletionVectors;
    this.files = new DataFiles(log, clock, timestamps, rowGroupBytes);
  }

  /** Starts a new table at {@code dir} (which must not hold one yet). */
  public static Builder create(Path dir, StructType schema) {
    return new Builder(dir, schema);
  }

  /** Continues an existing table (deletion vectors it writes are stored in files). */
  public static DeltaTableWriter open(Path dir) {
    DeltaTableWriter w = new DeltaTableWriter(dir, Clock.systemUTC(), TimestampEncoding.INT96, 128 * 1024 * 1024,
        false);
    w.log.latestVersion();
    return w;
  }

  /** Options of a new table. */
  public static final class Builder {
    private final Path dir;
    private final StructType schema;
    private List<String> partitionColumns = List.of();
    private boolean changeDataFeed;
    private boolean deletionVectors;
    private boolean inlineDeletionVectors;
    private String columnMapping;
    private String name;
    private String description;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private Clock clock = Clock.systemUTC();
    private TimestampEncoding timestamps = TimestampEncoding.INT96;
    private int rowGroupBytes = 128 * 1024 * 1024;
    private Protocol protocol;

    Builder(Path dir, StructType schema) {
      this.dir = dir;
      this.schema = schema;
    }

    public Builder partitionedBy(String... columns) {
      for (String c : columns) {
        schema.field(c);
      }
      this.partitionColumns = List.of(columns);
      return this;
    }

    /** Sets {@code delta.enableChangeDataFeed=true} and protocol (1,4) (or the writer feature with (3,7)). */
    public Builder changeDataFeed(boolean enabled) {
      this.changeDataFeed = enabled;
      return this;
    }

    /**
     * Sets {@code delta.enableDeletionVectors=true} and protocol (3,7) with the {@code deletionVectors} reader and
     * writer feature: DELETE, UPDATE and MERGE then mark rows in deletion vectors instead of rewriting files.
     */
    public Builder deletionVectors(boolean enabled) {
      this.deletionVectors = enabled;
      return this;
    }

    /** Whether deletion vectors are written inline in the log ({@code i}) rather than in files ({@code u}). */
    public Builder inlineDeletionVectors(boolean inline) {
      this.inlineDeletionVectors = inline;
      return this;
    }

    /**
     * Column mapping mode {@code "name"} or {@code "id"} ({@code "none"}: off): ids and physical names on every
     * field, protocol (2,5), or the {@code columnMapping} feature with deletion vectors.
     */
    public Builder columnMapping(String mode) {
      if (!List.of("name", "id", "none").contains(mode)) {
        throw new IllegalArgumentException("column mapping mode must be name, id or none: " + mode);
      }
      this.columnMapping = mode.equals("none") ? null : mode;
      return this;
    }

    public Builder name(String tableName) {
      this.name = tableName;
      return this;
    }

    public Builder description(String text) {
      this.description = text;
      return this;
    }

    public Builder property(String key, String value) {
      properties.put(key, value);
      return this;
    }

    /** Clock for commit timestamps (each commit is still at least 1 ms after the previous one). */
    public Builder clock(Clock c) {
      this.clock = c;
      return this;
    }

    public Builder timestamps(TimestampEncoding encoding) {
      this.timestamps = encoding;
      return this;
    }

    /** Parquet row group size; small values give files with many row groups. */
    public Builder rowGroupBytes(int bytes) {
      this.rowGroupBytes = bytes;
      return this;
    }

    /** Overrides the protocol action, e.g. (3,7) with {@code deletionVectors} to model tables needing delta format. */
    public Builder protocol(int minReader, int minWriter, List<String> readerFeatures, List<String> writerFeatures) {
      this.protocol = new Protocol(minReader, minWriter, readerFeatures, writerFeatures);
      return this;
    }

    /** Commits version 0 (empty table) and returns the writer. */
    public DeltaTableWriter commit() {
      return commit(List.of(), 1);
    }

    /**
     * Commits version 0 holding {@code rows}, at most {@code rowsPerFile} per data file and one file set per
     * partition (a {@code CREATE TABLE AS SELECT}), and returns the writer.
     */
    public DeltaTableWriter commit(List<Map<String, Object>> rows, int rowsPerFile) {
      DeltaTableWriter w = new DeltaTableWriter(dir, clock, timestamps, rowGroupBytes, inlineDeletionVectors);
      if (w.log.exists()) {
        throw new IllegalStateException("a Delta table already exists at " + dir);
      }
      Map<String, String> conf = new LinkedHashMap<>(properties);
      if (changeDataFeed) {
        conf.put("delta.enableChangeDataFeed", "true");
      }
      if (deletionVectors) {
        conf.put("delta.enableDeletionVectors", "true");
      }
      StructType tableSchema = schema;
      if (columnMapping != null) {
        int[] lastId = {0};
        tableSchema = ColumnMapping.assign(schema, lastId);
        conf.put(ColumnMapping.MODE, columnMapping);
        conf.put(ColumnMapping.MAX_COLUMN_ID, Integer.toString(lastId[0]));
      }
      Protocol p = protocol != null ? protocol
          : Protocols.of(changeDataFeed, deletionVectors, columnMapping != null);
      if (protocol == null && schema.containsVariant()) {
        p = Protocols.withFeature(p, Protocols.VARIANT_TYPE, true); // as Delta 4.0 does for a variant column
      }
      Metadata m = new Metadata(UUID.randomUUID().toString(), name, description, tableSchema.toSchemaString(),
          partitionColumns, conf, clock.millis());
      ObjectNode params = DeltaAction.JSON.createObjectNode();
      params.put("isManaged", "false");
      params.put("partitionBy", DeltaAction.JSON.valueToTree(partitionColumns).toString());
      List<DeltaAction> actions = new ArrayList<>(List.of(p, m));
      actions.addAll(w.dataFiles(new Snapshot(-1, clock.millis(), p, m, new LinkedHashMap<>()), rows, rowsPerFile));
      w.commit(actions, rows.isEmpty() ? "CREATE TABLE" : "CREATE TABLE AS SELECT", params);
      return w;
    }
  }

  public Path dir() {
    return dir;
  }

  public DeltaLog log() {
    return log;
  }

  public long version() {
    return log.latestVersion();
  }

  /** The table's latest snapshot (built on the last one this writer saw, so long logs stay cheap to append to). */
  public synchronized Snapshot snapshot() {
    last = log.snapshot(version(), last);
    return last;
  }

  public String tableId() {
    return snapshot().metadata.id;
  }

  /** Appends rows as one file per partition. */
  public long append(List<Map<String, Object>> rows) {
    return append(rows, Integer.MAX_VALUE);
  }

  /** Appends rows, at most {@code rowsPerFile} per data file (and one file set per partition). */
  public long append(List<Map<String, Object>> rows, int rowsPerFile) {
    ObjectNode params = DeltaAction.JSON.createObjectNode().put("mode", "Append");
    return commit(dataFiles(snapshot(), rows, rowsPerFile), "WRITE", params);
  }

  /** Writes {@code rows} as data files of table state {@code s}, at most {@code rowsPerFile} each, per partition. */
  private List<DeltaAction> dataFiles(Snapshot s, List<Map<String, Object>> rows, int rowsPerFile) {
    List<DeltaAction> actions = new ArrayList<>();
    for (List<Map<String, Object>> part : files.byPartition(s, rows).values()) {
      for (int i = 0; i < part.size(); i += rowsPerFile) {
        actions.add(files.write(s, part.subList(i, Math.min(part.size(), i + rowsPerFile)), true));
      }
    }
    return actions;
  }

  /**
   * Appends one file of {@code count} rows made by {@code row} as they are written, never all in memory: files of any
   * size (for memory benchmarks). The file has no stats; the table must be unpartitioned.
   */
  public long appendGenerated(long count, java.util.function.LongFunction<Map<String, Object>> row) {
    Snapshot s = snapshot();
    if (!s.metadata.partitionColumns.isEmpty()) {
      throw new IllegalArgumentException("appendGenerated supports unpartitioned tables only");
    }
    Iterable<Map<String, Object>> rows = () -> java.util.stream.LongStream.range(0, count).mapToObj(row).iterator();
    String path = files.writeGenerated(s, rows);
    long size;
    try {
      size = Files.size(log.resolve(path));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
    AddFile add = new AddFile(path, Map.of(), size, clock.millis(), true, null);
    return commit(List.of(add), "WRITE", DeltaAction.JSON.createObjectNode().put("mode", "Append"));
  }

  /** Appends {@code copies} data files each holding the same rows (one write, then byte copies): big tables fast. */
  public long appendCopies(List<Map<String, Object>> rows, int copies) {
    Snapshot s = snapshot();
    if (!s.metadata.partitionColumns.isEmpty()) {
      throw new IllegalArgumentException("appendCopies supports unpartitioned tables only");
    }
    AddFile first = files.write(s, rows, true);
    List<DeltaAction> actions = new ArrayList<>();
    actions.add(first);
    Path source = log.resolve(first.path);
    for (int i = 1; i < copies; i++) {
      String path = files.directory(s, Map.of()) + DataFiles.fileName("part-" + String.format("%05d", i));
      try {
        Files.createDirectories(log.resolve(path).getParent());
        Files.copy(source, log.resolve(path));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      actions.add(new AddFile(path, Map.of(), first.size, first.modificationTime, true, first.stats));
    }
    return commit(actions, "WRITE", DeltaAction.JSON.createObjectNode().put("mode", "Append"));
  }

  /**
   * Appends one version of {@code count} logical data files, each holding {@code rows}, backed by ONE physical
   * Parquet file: big versions (a million files) in seconds and a few hundred bytes of disk per file (its line in the
   * commit). The physical file is written once; each {@code add} names it through the kit's alias convention, path
   * {@code _alias-<n>/<physical file path>} ({@code n} = 0 .. count-1, zero-padded), which {@link DeltaLog#resolve}
   * (and so the kit server's storage handler, and this writer's readers) maps back to the physical file. The adds'
   * paths are distinct, so are their file ids (hashes of the path) and pre-signed URLs; each has the physical file's
   * size and stats ({@code numRecords} = rows.size()) and reads back as a real Parquet file of {@code rows}. No
   * other Delta reader knows the convention: such a table is served by the kit, not read from disk by Spark or
   * Delta. The commit is written as it is generated, never all in memory; the table must be unpartitioned.
   *
   * <p>Reading the table's snapshot (this writer's {@link #snapshot()}, the server's snapshot queries) holds every
   * add in memory, some hundreds of bytes each; history queries ({@code startingVersion}) stream the commit.
   */
  public long appendAliases(List<Map<String, Object>> rows, int count) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1: " + count);
    }
    Snapshot s = snapshot();
    if (!s.metadata.partitionColumns.isEmpty()) {
      throw new IllegalArgumentException("appendAliases supports unpartitioned tables only");
    }
    AddFile physical = files.write(s, rows, true);
    String format = "%0" + Math.max(7, Integer.toString(count - 1).length()) + "d";
    Iterable<DeltaAction> adds = () -> new java.util.Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < count;
      }

      @Override
      public DeltaAction next() {
        if (next >= count) {
          throw new java.util.NoSuchElementException();
        }
        String path = DeltaLog.ALIAS_PREFIX + String.format(format, next++) + "/" + physical.path;
        return new AddFile(path, Map.of(), physical.size, physical.modificationTime, true, physical.stats);
      }
    };
    return commit(adds, true, "WRITE", DeltaAction.JSON.createObjectNode().put("mode", "Append"));
  }

  /**
   * Deletes matching rows: files without a match stay, fully matched files go; others are rewritten, or on a table
   * with deletion vectors re-added with the matched rows marked (and then, as Delta does, no change data files).
   */
  public long deleteWhere(Predicate<Map<String, Object>> predicate) {
    Snapshot s = snapshot();
    List<DeltaAction> actions = command(s).run(row -> predicate.test(row) ? Verdict.DELETE : Verdict.KEEP, List::of,
        !s.metadata.deletionVectorsEnabled());
    return commit(actions, "DELETE", DeltaAction.JSON.createObjectNode().put("predicate", "<test predicate>"));
  }

  /**
   * Replaces matching rows by {@code update.apply(row)}: touched files are rewritten, or on a table with deletion
   * vectors the old rows are marked in their files' DVs and the new images written to new files.
   */
  public long updateWhere(Predicate<Map<String, Object>> predicate, UnaryOperator<Map<String, Object>> update) {
    Snapshot s = snapshot();
    List<DeltaAction> actions = command(s).run(row -> predicate.test(row)
        ? Verdict.replace(update.apply(new LinkedHashMap<>(row))) : Verdict.KEEP, List::of, true);
    return commit(actions, "UPDATE", DeltaAction.JSON.createObjectNode().put("predicate", "<test predicate>"));
  }

  /**
   * MERGE of {@code source} rows on {@code keyColumn}: a live row whose key a source row has becomes
   * {@code whenMatched.apply(target, source)} (null deletes it); source rows matching no live row are inserted when
   * {@code insertNotMatched}. Matched rows are handled as by {@link #updateWhere} (DVs or copy-on-write); change data
   * holds {@code update_preimage}/{@code update_postimage}, {@code delete} and {@code insert} rows.
   */
  public long merge(List<Map<String, Object>> source, String keyColumn,
      BinaryOperator<Map<String, Object>> whenMatched, boolean insertNotMatched) {
    Snapshot s = snapshot();
    s.metadata.schema().field(keyColumn);
    Map<Object, Map<String, Object>> byKey = new LinkedHashMap<>();
    for (Map<String, Object> row : source) {
      if (byKey.put(row.get(keyColumn), row) != null) {
        throw new IllegalArgumentException("MERGE source has key " + keyColumn + "=" + row.get(keyColumn)
            + " twice: Delta refuses a merge whose source matches a target row more than once");
      }
    }
    Set<Object> matched = new HashSet<>();
    List<DeltaAction> actions = command(s).run(row -> {
      Map<String, Object> match = byKey.get(row.get(keyColumn));
      if (match == null) {
        return Verdict.KEEP;
      }
      matched.add(row.get(keyColumn));
      Map<String, Object> after = whenMatched.apply(new LinkedHashMap<>(row), match);
      return after == null ? Verdict.DELETE : Verdict.replace(after);
    }, () -> {
      List<Map<String, Object>> inserts = new ArrayList<>();
      if (insertNotMatched) {
        byKey.forEach((k, row) -> {
          if (!matched.contains(k)) {
            inserts.add(row);
          }
        });
      }
      return inserts;
    }, true);
    ObjectNode params = DeltaAction.JSON.createObjectNode().put("predicate", "t." + keyColumn + " = s." + keyColumn);
    return commit(actions, "MERGE", params);
  }

  private RowLevelCommand command(Snapshot s) {
    return new RowLevelCommand(files, s, clock.millis(), inlineDeletionVectors);
  }

  /** Replaces the whole table content (removes every file, adds the new rows). */
  public long overwrite(List<Map<String, Object>> rows) {
    Snapshot s = snapshot();
    long now = clock.millis();
    List<DeltaAction> actions = new ArrayList<>();
    for (AddFile f : s.files()) {
      actions.add(f.remove(now, true));
    }
    for (List<Map<String, Object>> part : files.byPartition(s, rows).values()) {
      actions.add(files.write(s, part, true));
    }
    return commit(actions, "WRITE", DeltaAction.JSON.createObjectNode().put("mode", "Overwrite"));
  }

  /**
   * OPTIMIZE: rewrites each partition's files into one (a single file too when it has a deletion vector), live rows
   * only, with {@code dataChange=false} on every action.
   */
  public long compact() {
    Snapshot s = snapshot();
    long now = clock.millis();
    Map<Map<String, String>, List<AddFile>> groups = new LinkedHashMap<>();
    for (AddFile f : s.files()) {
      groups.computeIfAbsent(f.partitionValues, k -> new ArrayList<>()).add(f);
    }
    List<DeltaAction> actions = new ArrayList<>();
    for (List<AddFile> group : groups.values()) {
      if (group.size() < 2 && group.get(0).deletionVector == null) {
        continue;
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      for (AddFile f : group) {
        rows.addAll(readRows(s, f));
        actions.add(f.remove(now, false));
      }
      if (!rows.isEmpty()) {
        actions.add(files.write(s, rows, false));
      }
    }
    return commit(actions, "OPTIMIZE", DeltaAction.JSON.createObjectNode().put("predicate", "[]"));
  }

  /**
   * Adds a nullable column at the end of the schema (a metadata-only commit); with column mapping it gets fresh ids
   * and physical names (a name dropped before comes back as a new column, null in older files). A variant column
   * gives the protocol the {@code variantType} reader and writer feature, as Delta 4.0 does.
   */
  public long addColumn(Field field) {
    if (!field.nullable) {
      throw new IllegalArgumentException("an added column must be nullable");
    }
    Snapshot s = snapshot();
    Metadata m = s.metadata;
    if (!m.columnMappingEnabled()) {
      m = m.withSchema(m.schema().add(field).toSchemaString());
    } else {
      int[] lastId = {Integer.parseInt(m.configuration.getOrDefault(ColumnMapping.MAX_COLUMN_ID, "0"))};
      StructType added = ColumnMapping.assign(DeltaType.struct(field), lastId);
      Map<String, String> conf = new LinkedHashMap<>(m.configuration);
      conf.put(ColumnMapping.MAX_COLUMN_ID, Integer.toString(lastId[0]));
      m = m.withSchema(m.schema().add(added.fields.get(0)).toSchemaString()).withConfiguration(conf);
    }
    List<DeltaAction> actions = new ArrayList<>();
    Protocol p = s.protocol;
    if (field.type.containsVariant() && (p.readerFeatures == null
        || !p.readerFeatures.contains(Protocols.VARIANT_TYPE))) {
      actions.add(Protocols.withFeature(p, Protocols.VARIANT_TYPE, true));
    }
    actions.add(m);
    return commit(actions, "ADD COLUMNS", DeltaAction.JSON.createObjectNode().put("columns", field.name));
  }

  /**
   * Renames the column at {@code path} ({@code a}, or {@code a.b} for a nested field; {@code element}/{@code key}/
   * {@code value} step into arrays and maps): a metadata-only commit keeping its id and physical name, so old files
   * show their values under the new name. Needs column mapping.
   */
  public long renameColumn(String path, String newName) {
    Snapshot s = snapshot();
    requireColumnMapping(s, "rename column " + path);
    List<String> steps = List.of(path.split("\\."));
    StructType schema = ColumnMapping.alter(s.metadata.schema(), steps,
        f -> new Field(newName, f.type, f.nullable, f.metadata));
    List<String> partitionColumns = new ArrayList<>();
    for (String p : s.metadata.partitionColumns) {
      partitionColumns.add(steps.size() == 1 && p.equalsIgnoreCase(path) ? newName : p);
    }
    Metadata m = s.metadata.withSchema(schema.toSchemaString()).withPartitionColumns(partitionColumns);
    ObjectNode params = DeltaAction.JSON.createObjectNode().put("oldColumnPath", path);
    params.put("newColumnPath", steps.size() == 1 ? newName
        : String.join(".", steps.subList(0, steps.size() - 1)) + "." + newName);
    return commit(List.of(m), "RENAME COLUMN", params);
  }

  /** Drops the column at {@code path} (as in {@link #renameColumn}): metadata only; needs column mapping. */
  public long dropColumn(String path) {
    Snapshot s = snapshot();
    requireColumnMapping(s, "drop column " + path);
    if (s.metadata.partitionColumns.stream().anyMatch(path::equalsIgnoreCase)) {
      throw new IllegalArgumentException("cannot drop partition column " + path);
    }
    StructType schema = ColumnMapping.alter(s.metadata.schema(), List.of(path.split("\\.")), f -> null);
    ObjectNode params = DeltaAction.JSON.createObjectNode();
    params.putArray("columns").add(path);
    return commit(List.of(s.metadata.withSchema(schema.toSchemaString())), "DROP COLUMNS", params);
  }

  private static void requireColumnMapping(Snapshot s, String what) {
    if (!s.metadata.columnMappingEnabled()) {
      throw new IllegalStateException("cannot " + what + ": the table has no column mapping (create it with "
          + "columnMapping(\"name\") or columnMapping(\"id\"))");
    }
  }

  /**
   * Widens the type of the column at {@code path} ({@code a}, or {@code a.b} for a field of a struct) to {@code to}, as
   * Delta's type widening does: a metadata commit recording {@code {"fromType","toType"}} in the field's
   * {@code delta.typeChanges} metadata, the protocol given the {@code typeWidening} reader and writer feature. Files
   * written before keep the old type; later appends are written with the new one. The kit does not check that the
   * change is one Delta allows: tests of refused changes commit them too.
   */
  public long widenColumn(String path, DeltaType to) {
    Snapshot s = snapshot();
    StructType schema = ColumnMapping.alter(s.metadata.schema(), List.of(path.split("\\.")), f -> {
      Map<String, Object> metadata = new LinkedHashMap<>(f.metadata);
      List<Object> changes = new ArrayList<>();
      Object before = metadata.get("delta.typeChanges");
      if (before instanceof List) {
        changes.addAll((List<?>) before);
      }
      Map<String, Object> change = new LinkedHashMap<>();
      change.put("fromType", f.type.toJson().asText());
      change.put("toType", to.toJson().asText());
      changes.add(change);
      metadata.put("delta.typeChanges", changes);
      return new Field(f.name, to, f.nullable, metadata);
    });
    List<DeltaAction> actions = new ArrayList<>();
    Protocol p = s.protocol;
    if (p.readerFeatures == null || !p.readerFeatures.contains("typeWidening")) {
      actions.add(Protocols.withFeature(p, "typeWidening", true));
    }
    actions.add(s.metadata.withSchema(schema.toSchemaString()));
    return commit(actions, "CHANGE COLUMN", DeltaAction.JSON.createObjectNode().put("column", path)
        .put("newType", to.toJson().asText()));
  }

  /** Replaces the schema (any change, compatible or not): for tests of incompatible schema changes. */
  public long replaceSchema(StructType schema) {
    Snapshot s = snapshot();
    return commit(List.of(s.metadata.withSchema(schema.toSchemaString())), "CHANGE COLUMN",
        DeltaAction.JSON.createObjectNode());
  }

  /**
   * Sets a table property; the protocol is upgraded as Delta does for {@code delta.enableChangeDataFeed} ((1,4), or
   * the {@code changeDataFeed} writer feature) and {@code delta.enableDeletionVectors} ((3,7) with the
   * {@code deletionVectors} feature). {@code delta.columnMapping.mode} ({@code name} or {@code id}) on a table without
   * it turns column mapping on as Delta's upgrade does: every field gets an id and its name as physical name, the
   * protocol the {@code columnMapping} feature; later appends write the physical names and ids.
   */
  public long setProperty(String key, String value) {
    Snapshot s = snapshot();
    Map<String, String> conf = new LinkedHashMap<>(s.metadata.configuration);
    conf.put(key, value);
    List<DeltaAction> actions = new ArrayList<>();
    Protocol p = s.protocol;
    boolean on = "true".equalsIgnoreCase(value);
    if (ColumnMapping.MODE.equals(key) && !ColumnMapping.enabled(s.metadata)) {
      if (!List.of("name", "id").contains(value)) {
        throw new IllegalArgumentException("column mapping mode must be name or id: " + value);
      }
      int[] lastId = {0};
      StructType mapped = ColumnMapping.assign(s.metadata.schema(), lastId, true);
      conf.put(ColumnMapping.MAX_COLUMN_ID, Integer.toString(lastId[0]));
      actions.add(Protocols.withFeature(p, "columnMapping", true));
      actions.add(s.metadata.withConfiguration(conf).withSchema(mapped.toSchemaString()));
      return commit(actions, "SET TBLPROPERTIES", DeltaAction.JSON.createObjectNode());
    }
    if ("delta.enableChangeDataFeed".equals(key) && on && p.minWriterVersion < 4) {
      actions.add(new Protocol(p.minReaderVersion, 4, p.readerFeatures, p.writerFeatures));
    } else if ("delta.enableChangeDataFeed".equals(key) && on && p.minWriterVersion == 7
        && !p.writerFeatures.contains("changeDataFeed")) {
      actions.add(Protocols.withFeature(p, "changeDataFeed", false));
    } else if ("delta.enableDeletionVectors".equals(key) && on
        && (p.readerFeatures == null || !p.readerFeatures.contains("deletionVectors"))) {
      actions.add(Protocols.withFeature(p, "deletionVectors", true));
    }
    actions.add(s.metadata.withConfiguration(conf));
    return commit(actions, "SET TBLPROPERTIES", DeltaAction.JSON.createObjectNode());
  }

  /**
   * Commits {@code actions} as they are (after a {@code commitInfo}): for tests of broken logs, e.g. an add whose
   * deletion vector has a wrong cardinality or points past its file.
   */
  public long commitActions(String operation, List<? extends DeltaAction> actions) {
    return commit(actions, operation, DeltaAction.JSON.createObjectNode());
  }

  /**
   * Writes a single-part Parquet checkpoint of the latest version ({@code NNN.checkpoint.parquet}: protocol,
   * metadata and the live files with their deletion vectors, as Delta Lake writes it) and points
   * {@code _last_checkpoint} at it. Returns the version checkpointed.
   */
  public long checkpoint() {
    Snapshot s = snapshot();
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(Map.of("protocol", checkpointRow(s.protocol.toJson().get("protocol"))));
    rows.add(Map.of("metaData", checkpointRow(s.metadata.toJson().get("metaData"))));
    for (AddFile f : s.files()) {
      AddFile live = new AddFile(f.path, f.partitionValues, f.size, f.modificationTime, false, f.stats,
          f.deletionVector);
      rows.add(Map.of("add", checkpointRow(live.toJson().get("add"))));
    }
    Path file = log.checkpointFile(s.version);
    try {
      ParquetRows.write(file, Checkpoints.SCHEMA, rows, timestamps, rowGroupBytes);
      ObjectNode last = DeltaAction.JSON.createObjectNode().put("version", s.version).put("size", rows.size());
      Files.write(log.logDir().resolve("_last_checkpoint"), (last + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint " + file, e);
    }
    return s.version;
  }

  /**
   * Log cleanup as Delta Lake does it after a checkpoint: deletes the commits (and older checkpoints) before
   * {@code version}, which must have a checkpoint, so the table's history starts there.
   */
  public void cleanUpLogBefore(long version) {
    if (!log.checkpointVersions().contains(version)) {
      throw new IllegalArgumentException("version " + version + " has no checkpoint; call checkpoint() first");
    }
    try {
      for (long v : log.commitVersions().headSet(version)) {
        Files.delete(log.commitFile(v));
      }
      for (long v : log.checkpointVersions().headSet(version)) {
        Files.delete(log.checkpointFile(v));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A log action's JSON body as a checkpoint row value: objects as maps, arrays as lists. */
  private static Object checkpointRow(com.fasterxml.jackson.databind.JsonNode n) {
    return DeltaAction.JSON.convertValue(n, Object.class);
  }

  /**
   * Reads a live file's rows under the schema of {@code s} (which may be of another version: column mapping finds
   * renamed columns and leaves dropped ones out), logical names, partition columns filled in, deleted rows left out.
   */
  public List<Map<String, Object>> readRows(Snapshot s, AddFile f) {
    return files.read(s, f).live();
  }

  /** Every row of the table at its latest version, in file order. */
  public List<Map<String, Object>> readAll() {
    return readAll(version());
  }

  /** Every row of the table at {@code version}, under that version's schema, in file order. */
  public List<Map<String, Object>> readAll(long version) {
    Snapshot s = log.snapshot(version);
    List<Map<String, Object>> out = new ArrayList<>();
    for (AddFile f : s.files()) {
      out.addAll(readRows(s, f));
    }
    return out;
  }

  /** Writes the next commit atomically and stamps its modification time with the commit timestamp. */
  private long commit(List<? extends DeltaAction> actions, String operation, ObjectNode params) {
    return commit(actions, actions.stream().noneMatch(a -> a instanceof RemoveFile), operation, params);
  }

  /** Writes the next commit of {@code actions}, streamed to the file as they are iterated. */
  private synchronized long commit(Iterable<? extends DeltaAction> actions, boolean blindAppend, String operation,
      ObjectNode params) {
    long version = log.exists() ? log.latestVersion() + 1 : 0;
    long timestamp = clock.millis();
    if (version > 0) {
      timestamp = Math.max(timestamp, log.timestamp(version - 1) + 1);
    }
    ObjectNode info = DeltaAction.JSON.createObjectNode();
    info.put("timestamp", timestamp);
    info.put("operation", operation);
    info.set("operationParameters", params);
    if (version > 0) {
      info.put("readVersion", version - 1);
    }
    info.put("isBlindAppend", blindAppend);
    info.put("engineInfo", "sharestream-testkit");
    try {
      Files.createDirectories(log.logDir());
      Path tmp = log.logDir().resolve("." + UUID.randomUUID() + ".json.tmp");
      try (BufferedWriter w = new BufferedWriter(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8), 1 << 16)) {
        w.write(new CommitInfo(info).toJson().toString());
        w.newLine();
        for (DeltaAction a : actions) {
          w.write(a.toJson().toString());
          w.newLine();
        }
      }
      Files.setLastModifiedTime(tmp, FileTime.fromMillis(timestamp));
      Path target = log.commitFile(version);
      if (Files.exists(target)) {
        Files.delete(tmp);
        throw new FileAlreadyExistsException(target.toString(), null, "concurrent commit");
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      Files.setLastModifiedTime(target, FileTime.fromMillis(timestamp));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot commit version " + version + " of " + dir, e);
    }
    return version;
  }
}
