package io.sharestream.common.planner;

import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.IncompatibleSchemaChangeException;
import io.sharestream.common.errors.TableRecreatedException;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.types.ColumnMapping;
import io.sharestream.common.types.SchemaCompatibility;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import io.sharestream.common.types.TypeWidening;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema a stream reads each version with (SPEC §4b, §6). The stream starts with the table's schema at its
 * latest version; versions up to that one are history and are read with it (by physical name or column id under
 * column mapping, so renames and drops before the start need nothing). Metadata committed later is checked: another
 * table id fails; added columns widen the schema from their version on; under column mapping a RENAME or DROP,
 * and a column's type widened (Delta's type widening), either stops the stream at its version (Spark: a restart
 * continues with the new schema) or, when the engine evolves, gives the versions from it the new schema (Kafka);
 * any other change fails. History is read under the start schema, widened types included (older files keep the
 * narrow type and are read as the wide one).
 */
final class SchemaTracker {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaTracker.class);

  private final String table;
  private final TableMetadata start;
  private final long startVersion;
  private final boolean evolveOnRenameOrDrop;
  private final boolean mapped;
  /** Schemas from the versions where they changed, after the start. */
  private final TreeMap<Long, StructType> changes = new TreeMap<>();
  /** Partition column names from the versions where a rename changed them (evolving engines only). */
  private final TreeMap<Long, List<String>> partitionColumns = new TreeMap<>();
  /** Versions a stream cannot read past, with the reason. */
  private final TreeMap<Long, DeltaSharingException> stops = new TreeMap<>();

  SchemaTracker(String table, TableMetadata start, long startVersion, boolean evolveOnRenameOrDrop) {
    this.table = table;
    this.start = start;
    this.startVersion = startVersion;
    this.evolveOnRenameOrDrop = evolveOnRenameOrDrop;
    this.mapped = ColumnMapping.isMapped(start.schema());
  }

  /** The schema of the newest version checked so far. */
  synchronized StructType current() {
    return changes.isEmpty() ? start.schema() : changes.lastEntry().getValue();
  }

  /** The schema units of {@code version} are read with. */
  synchronized StructType schemaAt(long version) {
    Map.Entry<Long, StructType> e = changes.floorEntry(version);
    return e == null ? start.schema() : e.getValue();
  }

  /** The partition columns of {@code version}, named as in {@link #schemaAt}. */
  synchronized List<String> partitionColumnsAt(long version) {
    Map.Entry<Long, List<String>> e = partitionColumns.floorEntry(version);
    return e == null ? start.partitionColumns() : e.getValue();
  }

  /**
   * Stops streams before {@code version} with {@code reason} (a protocol from that version on needs a reader feature
   * not read): the versions before it are read, then {@link #checkReadable} fails.
   */
  synchronized void stopAt(long version, DeltaSharingException reason) {
    stops.putIfAbsent(version, reason);
  }

  /** Whether a stream may read {@code version} (no rename, drop or protocol change stopped it at or before it). */
  synchronized boolean readable(long version) {
    return stops.floorEntry(version) == null;
  }

  /** Fails when a stream may not read {@code version}: a rename, drop or protocol change stopped it there. */
  synchronized void checkReadable(long version) {
    Map.Entry<Long, DeltaSharingException> stop = stops.floorEntry(version);
    if (stop != null) {
      throw stop.getValue();
    }
  }

  /** Checks the metadata of {@code version} (null: unknown, taken as history). */
  synchronized void check(TableMetadata m, Long version) {
    String at = version == null ? "" : " at version " + version;
    if (!m.id().equals(start.id())) {
      throw new TableRecreatedException("The table " + table + " was recreated: its id is " + m.id() + at
          + " but the stream started on id " + start.id() + ". Rows of the new table must not be mixed with the "
          + "old one's positions: delete the checkpoint/offsets and start the stream again.");
    }
    boolean history = version == null || version <= startVersion;
    if (mapped && history) {
      return; // read by physical name or id with the start schema: renames and drops before the start are fine
    }
    StructType current = history ? start.schema() : schemaAt(version);
    List<String> renamed = new ArrayList<>(mapped ? ColumnMapping.renamesAndDrops(current, m.schema()) : Collections.emptyList());
    if (!history) {
      renamed.addAll(TypeWidening.widenings(current, m.schema(), ""));
    }
    if (!renamed.isEmpty()) {
      renameOrDrop(m, version, renamed);
      return;
    }
    StructType widened = widened(current, m.schema());
    String problem = mapped
        ? SchemaCompatibility.incompatibility(ColumnMapping.physical(m.schema()), ColumnMapping.physical(widened))
        : SchemaCompatibility.incompatibility(m.schema(), widened);
    if (problem == null) {
      for (StructField f : current.fields()) {
        if (!f.nullable() && m.schema().indexOf(f.name()) < 0) {
          problem = "non-nullable column '" + f.name() + "' was dropped";
        }
      }
    }
    if (problem != null) {
      throw new IncompatibleSchemaChangeException("The schema of " + table + " changed incompatibly" + at + ": "
          + problem + ". The stream cannot read it with its schema. Restart the stream to read with the new schema; "
          + "if that fails again, start from a new checkpoint/offsets (choosing startingVersion).");
    }
    if (widened != current && !history) {
      LOG.info("Additive schema change of {}{}: new columns {}", table, at,
          widened.fields().subList(current.size(), widened.size()));
      changes.put(version, widened);
    }
  }

  private void renameOrDrop(TableMetadata m, long version, List<String> renamed) {
    String what = String.join(", ", renamed);
    if (evolveOnRenameOrDrop) {
      LOG.info("Schema change of {} at version {}: {}; rows from that version on carry the new schema", table,
          version, what);
      changes.put(version, m.schema());
      partitionColumns.put(version, m.partitionColumns());
      return;
    }
    stops.put(version, new IncompatibleSchemaChangeException("The schema of " + table + " changed at version "
        + version + ": " + what + ". A running stream keeps the schema it started with, so it stops before that "
        + "version. Restart the stream (from its checkpoint): it continues from here with the new schema."));
  }

  /** {@code current} with the columns of {@code next} it lacks appended, nullable (an additive change). */
  private static StructType widened(StructType current, StructType next) {
    List<StructField> added = new ArrayList<>();
    for (StructField f : next.fields()) {
      if (!has(current, f)) {
        added.add(new StructField(f.name(), f.type(), true, f.metadata()));
      }
    }
    return added.isEmpty() ? current : current.add(added.toArray(new StructField[0]));
  }

  /**
   * Whether {@code schema} has the column {@code f}: by column id where both have one, else by name (a schema from
   * before column mapping was switched on has no ids; the switch kept every name).
   */
  private static boolean has(StructType schema, StructField f) {
    Integer id = ColumnMapping.id(f);
    for (StructField c : schema.fields()) {
      Integer other = ColumnMapping.id(c);
      if (id != null && other != null ? id.equals(other)
          : c.name().toLowerCase(Locale.ROOT).equals(f.name().toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }
}
