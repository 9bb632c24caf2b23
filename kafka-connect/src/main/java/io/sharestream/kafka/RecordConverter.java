package io.sharestream.kafka;

import io.sharestream.common.planner.ChangeRow;
import io.sharestream.common.planner.ChangeTypes;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns one table's rows into source records: the value a struct of the row (schema per table and schema
 * version), the key a struct of the key columns (null without), their fields named per
 * {@link FieldNameAdjustmentMode}, the timestamp the commit's, the headers the row's table, commit and change type,
 * the source offset the row's position. Deletes (readChangeFeed) may be followed by a tombstone.
 */
final class RecordConverter {
  /** Header names: the Spark source's change-feed column names, and the table. */
  static final String HEADER_TABLE = "_table";
  static final String HEADER_VERSION = "_commit_version";
  static final String HEADER_TIMESTAMP = "_commit_timestamp";
  static final String HEADER_CHANGE_TYPE = "_change_type";

  private final TableRef table;
  private final String topic;
  private final List<String> keyColumns;
  private final boolean tombstones;
  private final TimePrecisionMode mode;
  private final FieldNameAdjustmentMode names;
  private final Map<String, ?> partition;
  private final Map<StructType, Schemas> bySchema = new IdentityHashMap<>();
  /** Value schema versions by schema content: the column count, or one more than the last for a rename or drop. */
  private final Map<StructType, Integer> versions = new HashMap<>();
  private int lastVersion;
  /** The last commit timestamp formatted for the header, and its epoch millis: every row of a commit shares it. */
  private String commitTime;
  private long commitTimeMillis = Long.MIN_VALUE;

  RecordConverter(TableRef table, String topic, List<String> keyColumns, boolean tombstones, TimePrecisionMode mode,
      FieldNameAdjustmentMode names) {
    this.table = table;
    this.topic = topic;
    this.keyColumns = keyColumns;
    this.tombstones = tombstones;
    this.mode = mode;
    this.names = names;
    this.partition = SourceOffsets.partition(table);
  }

  /** Value and key conversions of one schema version of the table. */
  private static final class Schemas {
    final ConnectSchemas.Conversion value;
    final ConnectSchemas.Conversion key;

    Schemas(ConnectSchemas.Conversion value, ConnectSchemas.Conversion key) {
      this.value = value;
      this.key = key;
    }
  }

  private Schemas schemas(StructType schema) {
    Schemas s = bySchema.get(schema);
    if (s == null) {
      // the version grows with every additive change (the column count, stable across restarts) and with every
      // rename or drop of a column-mapped table (one more than the schema before)
      int version = versions.computeIfAbsent(schema, x -> Math.max(x.size(), lastVersion + 1));
      lastVersion = Math.max(lastVersion, version);
      ConnectSchemas.Conversion value = ConnectSchemas.struct(schema,
          ConnectSchemas.recordName(table.share(), table.schema(), table.table(), "Value"), version, false, mode,
          names);
      ConnectSchemas.Conversion key = null;
      if (!keyColumns.isEmpty()) {
        key = ConnectSchemas.struct(schema, keyColumns(schema),
            ConnectSchemas.recordName(table.share(), table.schema(), table.table(), "Key"), null, false, mode, names);
      }
      s = new Schemas(value, key);
      bySchema.put(schema, s);
    }
    return s;
  }

  /** The key columns as named in {@code schema}; fails naming the table and the column when one is missing. */
  private List<String> keyColumns(StructType schema) {
    List<String> out = new ArrayList<>();
    for (String c : keyColumns) {
      int i = schema.indexOf(c);
      if (i < 0) {
        for (int j = 0; j < schema.size() && i < 0; j++) {
          if (schema.field(j).name().equalsIgnoreCase(c)) {
            i = j;
          }
        }
      }
      if (i < 0) {
        throw new ConnectException("Key column '" + c + "' of " + table + " is not a column of the table ("
            + schema.fieldNames() + "): fix " + DeltaSharingSourceConfig.KEY_COLUMNS + ".");
      }
      StructField f = schema.field(i);
      out.add(f.name());
    }
    return out;
  }

  /** Checks the key columns against the table's schema at start, so a typo fails at once. */
  void checkKeyColumns(StructType schema) {
    schemas(schema);
  }

  /** How many records a row of {@code changeType} becomes: two for a delete followed by a tombstone. */
  int recordsFor(String changeType) {
    return tombstones && !keyColumns.isEmpty() && ChangeTypes.DELETE.equals(changeType) ? 2 : 1;
  }

  /**
   * The records of one row at {@code offset}: the row, and a tombstone after a delete of a keyed table when
   * tombstones are on.
   */
  void add(WorkUnit unit, ChangeRow row, Position offset, List<SourceRecord> out) {
    Schemas s = schemas(unit.schema());
    Struct value = (Struct) s.value.apply(row.row());
    Object key = s.key == null ? null : s.key.apply(row.row());
    Map<String, ?> sourceOffset = offset.toMap(); // kept per record until acked: a view of the position
    out.add(new SourceRecord(partition, sourceOffset, topic, null, s.key == null ? null : s.key.schema, key,
        s.value.schema, value, unit.commitTimestamp(), headers(unit, row.changeType())));
    if (tombstones && key != null && ChangeTypes.DELETE.equals(row.changeType())) {
      out.add(new SourceRecord(partition, sourceOffset, topic, null, s.key.schema, key, null, null,
          unit.commitTimestamp(), headers(unit, row.changeType())));
    }
  }

  private Headers headers(WorkUnit unit, String changeType) {
    ConnectHeaders h = new ConnectHeaders();
    h.addString(HEADER_TABLE, table.toString());
    h.addLong(HEADER_VERSION, unit.version());
    h.addString(HEADER_TIMESTAMP, commitTime(unit.commitTimestamp()));
    h.addString(HEADER_CHANGE_TYPE, changeType);
    return h;
  }

  /**
   * The commit time as ISO-8601 UTC text with milliseconds: the text a {@code SimpleHeaderConverter} writes for a
   * Connect {@code Timestamp} (and parses back into one), formatted once per commit rather than once per record.
   */
  private String commitTime(long millis) {
    if (millis != commitTimeMillis) {
      commitTime = COMMIT_TIME.format(Instant.ofEpochMilli(millis));
      commitTimeMillis = millis;
    }
    return commitTime;
  }

  private static final DateTimeFormatter COMMIT_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  /** A heartbeat: stores {@code offset} for the table without a data record. */
  SourceRecord heartbeat(String heartbeatTopic, Position offset, long now) {
    Struct value = new Struct(HEARTBEAT_SCHEMA).put("table", table.toString())
        .put("tableVersion", offset.tableVersion()).put("ts", new java.util.Date(now));
    return new SourceRecord(partition, offset.toMap(), heartbeatTopic, null, Schema.STRING_SCHEMA,
        table.toString(), HEARTBEAT_SCHEMA, value, now);
  }

  static final Schema HEARTBEAT_SCHEMA = SchemaBuilder.struct().name("io.sharestream.Heartbeat").version(1)
      .field("table", Schema.STRING_SCHEMA).field("tableVersion", Schema.INT64_SCHEMA)
      .field("ts", Timestamp.SCHEMA).build();

  String topic() {
    return topic;
  }
}
