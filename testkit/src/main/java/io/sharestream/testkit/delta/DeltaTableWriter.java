package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CdcFile;
import io.sharestream.testkit.delta.DeltaAction.CommitInfo;
import io.sharestream.testkit.delta.DeltaAction.Metadata;
import io.sharestream.testkit.delta.DeltaAction.Protocol;
import io.sharestream.testkit.delta.DeltaAction.RemoveFile;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.StructType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Creates and evolves real Delta tables on local disk: Snappy Parquet data files (Hive-partitioned), change data
 * files under {@code _change_data/} when the change data feed is on, and {@code _delta_log} JSON commits with
 * {@code protocol}, {@code metaData}, {@code add}, {@code remove}, {@code cdc} and {@code commitInfo}. Each commit's
 * file modification time is its commit timestamp (which is what Delta readers take), strictly increasing.
 *
 * <p>Every operation returns the version it committed. Rows are maps (see {@link ParquetRows}).
 */
public final class DeltaTableWriter {
  /** Row column Delta adds to change data files. */
  public static final String CHANGE_TYPE = "_change_type";

  private final Path dir;
  private final DeltaLog log;
  private final Clock clock;
  private final TimestampEncoding timestamps;
  private final int rowGroupBytes;
  private Snapshot last;

  private DeltaTableWriter(Path dir, Clock clock, TimestampEncoding timestamps, int rowGroupBytes) {
    this.dir = dir;
    this.log = new DeltaLog(dir);
    this.clock = clock;
    this.timestamps = timestamps;
    this.rowGroupBytes = rowGroupBytes;
  }

  /** Starts a new table at {@code dir} (which must not hold one yet). */
  public static Builder create(Path dir, StructType schema) {
    return new Builder(dir, schema);
  }

  /** Continues an existing table. */
  public static DeltaTableWriter open(Path dir) {
    DeltaTableWriter w = new DeltaTableWriter(dir, Clock.systemUTC(), TimestampEncoding.INT96, 128 * 1024 * 1024);
    w.log.latestVersion();
    return w;
  }

  /** Options of a new table. */
  public static final class Builder {
    private final Path dir;
    private final StructType schema;
    private List<String> partitionColumns = List.of();
    private boolean changeDataFeed;
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

    /** Sets {@code delta.enableChangeDataFeed=true} and protocol (1,4). */
    public Builder changeDataFeed(boolean enabled) {
      this.changeDataFeed = enabled;
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
      DeltaTableWriter w = new DeltaTableWriter(dir, clock, timestamps, rowGroupBytes);
      if (w.log.exists()) {
        throw new IllegalStateException("a Delta table already exists at " + dir);
      }
      Map<String, String> conf = new LinkedHashMap<>(properties);
      if (changeDataFeed) {
        conf.put("delta.enableChangeDataFeed", "true");
      }
      Protocol p = protocol != null ? protocol : new Protocol(1, changeDataFeed ? 4 : 2, null, null);
      Metadata m = new Metadata(UUID.randomUUID().toString(), name, description, schema.toSchemaString(),
          partitionColumns, conf, clock.millis());
      ObjectNode params = DeltaAction.JSON.createObjectNode();
      params.put("isManaged", "false");
      params.put("partitionBy", DeltaAction.JSON.valueToTree(partitionColumns).toString());
      w.commit(List.of(p, m), "CREATE TABLE", params);
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
    Snapshot s = snapshot();
    List<DeltaAction> actions = new ArrayList<>();
    for (List<Map<String, Object>> part : byPartition(s, rows).values()) {
      for (int i = 0; i < part.size(); i += rowsPerFile) {
        actions.add(writeData(s, part.subList(i, Math.min(part.size(), i + rowsPerFile)), true));
      }
    }
    ObjectNode params = DeltaAction.JSON.createObjectNode().put("mode", "Append");
    return commit(actions, "WRITE", params);
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
    String path = newFileName("part-00000");
    long size;
    try {
      ParquetRows.write(log.resolve(path), s.metadata.schema(), rows, timestamps, rowGroupBytes);
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
    AddFile first = writeData(s, rows, true);
    List<DeltaAction> actions = new ArrayList<>();
    actions.add(first);
    Path source = log.resolve(first.path);
    for (int i = 1; i < copies; i++) {
      String path = newFileName("part-" + String.format("%05d", i));
      try {
        Files.copy(source, log.resolve(path));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      actions.add(new AddFile(path, Map.of(), first.size, first.modificationTime, true, first.stats));
    }
    return commit(actions, "WRITE", DeltaAction.JSON.createObjectNode().put("mode", "Append"));
  }

  /** Deletes matching rows: files without a match stay, fully matched files go, others are rewritten. */
  public long deleteWhere(Predicate<Map<String, Object>> predicate) {
    return rewrite(predicate, null, "DELETE");
  }

  /** Replaces matching rows by {@code update.apply(row)}; touched files are rewritten. */
  public long updateWhere(Predicate<Map<String, Object>> predicate, UnaryOperator<Map<String, Object>> update) {
    return rewrite(predicate, update, "UPDATE");
  }

  private long rewrite(Predicate<Map<String, Object>> predicate, UnaryOperator<Map<String, Object>> update,
      String operation) {
    Snapshot s = snapshot();
    boolean cdf = s.metadata.changeDataFeedEnabled();
    List<DeltaAction> actions = new ArrayList<>();
    List<Map<String, Object>> changes = new ArrayList<>();
    long now = clock.millis();
    for (AddFile f : s.files()) {
      List<Map<String, Object>> rows = readRows(s, f);
      List<Map<String, Object>> kept = new ArrayList<>();
      boolean touched = false;
      for (Map<String, Object> row : rows) {
        if (!predicate.test(row)) {
          kept.add(row);
          continue;
        }
        touched = true;
        if (update == null) {
          changes.add(changeRow(row, "delete"));
        } else {
          Map<String, Object> after = update.apply(new LinkedHashMap<>(row));
          kept.add(after);
          changes.add(changeRow(row, "update_preimage"));
          changes.add(changeRow(after, "update_postimage"));
        }
      }
      if (!touched) {
        continue;
      }
      actions.add(new RemoveFile(f.path, f.partitionValues, f.size, now, true));
      for (List<Map<String, Object>> part : byPartition(s, kept).values()) {
        actions.add(writeData(s, part, true));
      }
    }
    if (cdf && !changes.isEmpty()) {
      actions.addAll(writeChanges(s, changes));
    }
    ObjectNode params = DeltaAction.JSON.createObjectNode().put("predicate", "<test predicate>");
    return commit(actions, operation, params);
  }

  /** Replaces the whole table content (removes every file, adds the new rows). */
  public long overwrite(List<Map<String, Object>> rows) {
    Snapshot s = snapshot();
    long now = clock.millis();
    List<DeltaAction> actions = new ArrayList<>();
    for (AddFile f : s.files()) {
      actions.add(new RemoveFile(f.path, f.partitionValues, f.size, now, true));
    }
    for (List<Map<String, Object>> part : byPartition(s, rows).values()) {
      actions.add(writeData(s, part, true));
    }
    return commit(actions, "WRITE", DeltaAction.JSON.createObjectNode().put("mode", "Overwrite"));
  }

  /** OPTIMIZE: rewrites each partition's files into one, with {@code dataChange=false} on every action. */
  public long compact() {
    Snapshot s = snapshot();
    long now = clock.millis();
    Map<Map<String, String>, List<AddFile>> groups = new LinkedHashMap<>();
    for (AddFile f : s.files()) {
      groups.computeIfAbsent(f.partitionValues, k -> new ArrayList<>()).add(f);
    }
    List<DeltaAction> actions = new ArrayList<>();
    for (List<AddFile> files : groups.values()) {
      if (files.size() < 2) {
        continue;
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      for (AddFile f : files) {
        rows.addAll(readRows(s, f));
        actions.add(new RemoveFile(f.path, f.partitionValues, f.size, now, false));
      }
      actions.add(writeData(s, rows, false));
    }
    return commit(actions, "OPTIMIZE", DeltaAction.JSON.createObjectNode().put("predicate", "[]"));
  }

  /** Adds a nullable column at the end of the schema (a metadata-only commit). */
  public long addColumn(Field field) {
    if (!field.nullable) {
      throw new IllegalArgumentException("an added column must be nullable");
    }
    Snapshot s = snapshot();
    Metadata m = s.metadata.withSchema(s.metadata.schema().add(field).toSchemaString());
    return commit(List.of(m), "ADD COLUMNS", DeltaAction.JSON.createObjectNode().put("columns", field.name));
  }

  /** Replaces the schema (any change, compatible or not): for tests of incompatible schema changes. */
  public long replaceSchema(StructType schema) {
    Snapshot s = snapshot();
    return commit(List.of(s.metadata.withSchema(schema.toSchemaString())), "CHANGE COLUMN",
        DeltaAction.JSON.createObjectNode());
  }

  /** Sets a table property (e.g. {@code delta.enableChangeDataFeed}); upgrades the protocol to (1,4) for CDF. */
  public long setProperty(String key, String value) {
    Snapshot s = snapshot();
    Map<String, String> conf = new LinkedHashMap<>(s.metadata.configuration);
    conf.put(key, value);
    List<DeltaAction> actions = new ArrayList<>();
    if ("delta.enableChangeDataFeed".equals(key) && "true".equalsIgnoreCase(value)
        && s.protocol.minWriterVersion < 4) {
      actions.add(new Protocol(s.protocol.minReaderVersion, 4, s.protocol.readerFeatures, s.protocol.writerFeatures));
    }
    actions.add(s.metadata.withConfiguration(conf));
    return commit(actions, "SET TBLPROPERTIES", DeltaAction.JSON.createObjectNode());
  }

  /**
   * Writes a single-part Parquet checkpoint of the latest version ({@code NNN.checkpoint.parquet}: protocol,
   * metadata and the live files, as Delta Lake writes it) and points {@code _last_checkpoint} at it. Returns the
   * version checkpointed.
   */
  public long checkpoint() {
    Snapshot s = snapshot();
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(Map.of("protocol", checkpointRow(s.protocol.toJson().get("protocol"))));
    rows.add(Map.of("metaData", checkpointRow(s.metadata.toJson().get("metaData"))));
    for (AddFile f : s.files()) {
      AddFile live = new AddFile(f.path, f.partitionValues, f.size, f.modificationTime, false, f.stats);
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

  /** Reads a live file's rows, partition columns filled in. */
  public List<Map<String, Object>> readRows(Snapshot s, AddFile f) {
    StructType schema = s.metadata.schema();
    List<String> parts = s.metadata.partitionColumns;
    try {
      List<Map<String, Object>> rows = ParquetRows.read(log.resolve(f.path), schema.without(parts));
      for (Map<String, Object> row : rows) {
        for (String p : parts) {
          row.put(p, PartitionValues.decode(schema.field(p).type, f.partitionValues.get(p)));
        }
      }
      return rows;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every row of the table at its latest version, in file order. */
  public List<Map<String, Object>> readAll() {
    Snapshot s = snapshot();
    List<Map<String, Object>> out = new ArrayList<>();
    for (AddFile f : s.files()) {
      out.addAll(readRows(s, f));
    }
    return out;
  }

  private static Map<String, Object> changeRow(Map<String, Object> row, String type) {
    Map<String, Object> r = new LinkedHashMap<>(row);
    r.put(CHANGE_TYPE, type);
    return r;
  }

  private Map<Map<String, String>, List<Map<String, Object>>> byPartition(Snapshot s, List<Map<String, Object>> rows) {
    StructType schema = s.metadata.schema();
    Map<Map<String, String>, List<Map<String, Object>>> out = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      Map<String, String> pv = new LinkedHashMap<>();
      for (String p : s.metadata.partitionColumns) {
        pv.put(p, PartitionValues.encode(schema.field(p).type, row.get(p)));
      }
      out.computeIfAbsent(pv, k -> new ArrayList<>()).add(row);
    }
    return out;
  }

  private AddFile writeData(Snapshot s, List<Map<String, Object>> rows, boolean dataChange) {
    StructType schema = s.metadata.schema();
    List<String> parts = s.metadata.partitionColumns;
    Map<String, String> pv = partitionValuesOf(s, rows);
    String path = partitionPrefix(parts, pv) + newFileName("part-00000");
    long size = writeParquet(path, schema.without(parts), rows);
    String stats = Stats.of(schema.without(parts), rows);
    return new AddFile(path, pv, size, clock.millis(), dataChange, stats);
  }

  private List<CdcFile> writeChanges(Snapshot s, List<Map<String, Object>> changes) {
    StructType schema = s.metadata.schema();
    List<String> parts = s.metadata.partitionColumns;
    StructType fileSchema = schema.without(parts).add(DeltaType.field(CHANGE_TYPE, DeltaType.STRING));
    List<CdcFile> out = new ArrayList<>();
    for (Map.Entry<Map<String, String>, List<Map<String, Object>>> e : byPartition(s, changes).entrySet()) {
      String path = "_change_data/" + partitionPrefix(parts, e.getKey()) + newFileName("cdc-00000");
      long size = writeParquet(path, fileSchema, e.getValue());
      out.add(new CdcFile(path, e.getKey(), size));
    }
    return out;
  }

  private Map<String, String> partitionValuesOf(Snapshot s, List<Map<String, Object>> rows) {
    Map<String, String> pv = new LinkedHashMap<>();
    StructType schema = s.metadata.schema();
    for (String p : s.metadata.partitionColumns) {
      pv.put(p, rows.isEmpty() ? null : PartitionValues.encode(schema.field(p).type, rows.get(0).get(p)));
    }
    return pv;
  }

  private static String partitionPrefix(List<String> parts, Map<String, String> pv) {
    StringBuilder b = new StringBuilder();
    for (String p : parts) {
      b.append(uriEncode(PartitionValues.directory(p, pv.get(p)))).append('/');
    }
    return b.toString();
  }

  /** Percent-encodes a relative path the way Delta records it (so {@code %} in a directory becomes {@code %25}). */
  private static String uriEncode(String segment) {
    try {
      return new URI(null, null, segment, null).getRawPath();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static String newFileName(String prefix) {
    return prefix + "-" + UUID.randomUUID() + ".c000.snappy.parquet";
  }

  private long writeParquet(String logPath, StructType fileSchema, List<Map<String, Object>> rows) {
    Path file = log.resolve(logPath);
    try {
      ParquetRows.write(file, fileSchema, rows, timestamps, rowGroupBytes);
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Writes the next commit atomically and stamps its modification time with the commit timestamp. */
  private synchronized long commit(List<? extends DeltaAction> actions, String operation, ObjectNode params) {
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
    info.put("isBlindAppend", actions.stream().noneMatch(a -> a instanceof RemoveFile));
    info.put("engineInfo", "sharestream-testkit");
    try {
      Files.createDirectories(log.logDir());
      Path tmp = log.logDir().resolve("." + UUID.randomUUID() + ".json.tmp");
      try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
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
