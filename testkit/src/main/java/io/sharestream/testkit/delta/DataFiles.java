package io.sharestream.testkit.delta;

import io.sharestream.testkit.delta.DeltaAction.AddFile;
import io.sharestream.testkit.delta.DeltaAction.CdcFile;
import io.sharestream.testkit.delta.DeltaType.Field;
import io.sharestream.testkit.delta.DeltaType.StructType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.UUID;

/**
 * A table's data and change data files as Delta lays them out: Hive partition directories (named by physical names
 * with column mapping, whose files, stats and partition values use them too); rows read back with logical names,
 * partition columns filled in and deletion vectors applied.
 */
final class DataFiles {

  private final DeltaLog log;
  private final Clock clock;
  private final TimestampEncoding timestamps;
  private final int rowGroupBytes;

  DataFiles(DeltaLog log, Clock clock, TimestampEncoding timestamps, int rowGroupBytes) {
    this.log = log;
    this.clock = clock;
    this.timestamps = timestamps;
    this.rowGroupBytes = rowGroupBytes;
  }

  Path tableDir() {
    return log.tableDir();
  }

  /** Every row of a data file in file order (row index = list position, deleted rows included) and the deleted. */
  static final class Rows {
    final List<Map<String, Object>> all;
    final NavigableSet<Long> deleted;

    Rows(List<Map<String, Object>> all, NavigableSet<Long> deleted) {
      this.all = all;
      this.deleted = deleted;
    }

    List<Map<String, Object>> live() {
      if (deleted.isEmpty()) {
        return all;
      }
      List<Map<String, Object>> out = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        if (!deleted.contains((long) i)) {
          out.add(all.get(i));
        }
      }
      return out;
    }
  }

  /** A file's rows under the schema of {@code s} (columns the file lacks read as null). */
  Rows read(Snapshot s, AddFile f) {
    StructType schema = s.metadata.schema();
    List<String> parts = s.metadata.partitionColumns;
    StructType fileSchema = schema.without(parts);
    boolean mapped = s.metadata.columnMappingEnabled();
    List<Map<String, Object>> rows;
    try {
      rows = ParquetRows.read(log.resolve(f.path), mapped ? ColumnMapping.physical(fileSchema) : fileSchema);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<Map<String, Object>> out = new ArrayList<>(rows.size());
    for (Map<String, Object> physical : rows) {
      @SuppressWarnings("unchecked")
      Map<String, Object> row = mapped ? (Map<String, Object>) ColumnMapping.toLogical(fileSchema, physical)
          : physical;
      for (String p : parts) {
        Field field = schema.field(p);
        row.put(p, PartitionValues.decode(field.type, f.partitionValues.get(ColumnMapping.physicalName(field))));
      }
      out.add(row);
    }
    NavigableSet<Long> deleted = f.deletionVector == null ? Collections.emptyNavigableSet()
        : f.deletionVector.rowIndexes(log.tableDir());
    return new Rows(out, deleted);
  }

  /** Rows grouped by their partition values (keyed by physical names). */
  Map<Map<String, String>, List<Map<String, Object>>> byPartition(Snapshot s, List<Map<String, Object>> rows) {
    Map<Map<String, String>, List<Map<String, Object>>> out = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      out.computeIfAbsent(partitionValues(s, row), k -> new ArrayList<>()).add(row);
    }
    return out;
  }

  private static Map<String, String> partitionValues(Snapshot s, Map<String, Object> row) {
    StructType schema = s.metadata.schema();
    Map<String, String> pv = new LinkedHashMap<>();
    for (String p : s.metadata.partitionColumns) {
      Field field = schema.field(p);
      pv.put(ColumnMapping.physicalName(field), row == null ? null : PartitionValues.encode(field.type, row.get(p)));
    }
    return pv;
  }

  /** Writes one data file of {@code rows} (all of one partition). */
  AddFile write(Snapshot s, List<Map<String, Object>> rows, boolean dataChange) {
    StructType fileSchema = s.metadata.schema().without(s.metadata.partitionColumns);
    Map<String, String> pv = partitionValues(s, rows.isEmpty() ? null : rows.get(0));
    String path = directory(s, pv) + fileName("part-00000");
    List<Map<String, Object>> physical = physicalRows(s, fileSchema, rows);
    StructType physicalSchema = physicalSchema(s, fileSchema);
    long size = writeParquet(path, physicalSchema, physical);
    Boolean tightBounds = s.metadata.deletionVectorsEnabled() ? Boolean.TRUE : null;
    return new AddFile(path, pv, size, clock.millis(), dataChange, Stats.of(physicalSchema, physical, tightBounds));
  }

  /** Writes change data files (rows carrying {@code _change_type}), one per partition. */
  List<CdcFile> writeChanges(Snapshot s, List<Map<String, Object>> changes) {
    StructType fileSchema = s.metadata.schema().without(s.metadata.partitionColumns)
        .add(DeltaType.field(DeltaTableWriter.CHANGE_TYPE, DeltaType.STRING));
    List<CdcFile> out = new ArrayList<>();
    for (Map.Entry<Map<String, String>, List<Map<String, Object>>> e : byPartition(s, changes).entrySet()) {
      String path = "_change_data/" + directory(s, e.getKey()) + fileName("cdc-00000");
      long size = writeParquet(path, physicalSchema(s, fileSchema), physicalRows(s, fileSchema, e.getValue()));
      out.add(new CdcFile(path, e.getKey(), size));
    }
    return out;
  }

  /** Writes rows as they are produced into a new file of an unpartitioned table; returns its log path. */
  String writeGenerated(Snapshot s, Iterable<Map<String, Object>> rows) {
    StructType schema = s.metadata.schema();
    String path = directory(s, Map.of()) + fileName("part-00000");
    Iterable<Map<String, Object>> physical = !s.metadata.columnMappingEnabled() ? rows : () -> {
      Iterator<Map<String, Object>> it = rows.iterator();
      return new Iterator<Map<String, Object>>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        @SuppressWarnings("unchecked")
        public Map<String, Object> next() {
          return (Map<String, Object>) ColumnMapping.toPhysical(schema, it.next());
        }
      };
    };
    writeParquet(path, physicalSchema(s, schema), physical);
    return path;
  }

  /**
   * The directory (with a trailing slash, or empty) new files of a partition go to: Hive partition directories,
   * named by the partition columns' physical names under column mapping (as Delta Lake 3.2 writes them).
   */
  String directory(Snapshot s, Map<String, String> pv) {
    StringBuilder b = new StringBuilder();
    for (String p : s.metadata.partitionColumns) {
      String key = s.metadata.columnMappingEnabled() ? ColumnMapping.physicalName(s.metadata.schema().field(p)) : p;
      b.append(uriEncode(PartitionValues.directory(key, pv.get(key)))).append('/');
    }
    return b.toString();
  }

  static String fileName(String prefix) {
    return prefix + "-" + UUID.randomUUID() + ".c000.snappy.parquet";
  }

  private static StructType physicalSchema(Snapshot s, StructType logical) {
    return s.metadata.columnMappingEnabled() ? ColumnMapping.physical(logical) : logical;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> physicalRows(Snapshot s, StructType logical,
      List<Map<String, Object>> rows) {
    if (!s.metadata.columnMappingEnabled()) {
      return rows;
    }
    List<Map<String, Object>> out = new ArrayList<>(rows.size());
    for (Map<String, Object> row : rows) {
      out.add((Map<String, Object>) ColumnMapping.toPhysical(logical, row));
    }
    return out;
  }

  /** Percent-encodes a relative path the way Delta records it (so {@code %} in a directory becomes {@code %25}). */
  private static String uriEncode(String segment) {
    try {
      return new URI(null, null, segment, null).getRawPath();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private long writeParquet(String logPath, StructType fileSchema, Iterable<Map<String, Object>> rows) {
    Path file = log.resolve(logPath);
    try {
      ParquetRows.write(file, fileSchema, rows, timestamps, rowGroupBytes);
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
