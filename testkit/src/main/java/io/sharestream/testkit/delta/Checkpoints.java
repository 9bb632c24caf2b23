package io.sharestream.testkit.delta;

import static io.sharestream.testkit.delta.DeltaType.field;

import io.sharestream.testkit.delta.DeltaType.StructType;

/** The Parquet schema of a Delta checkpoint (the actions a reader needs: protocol, metaData, add, remove,
 * deletion vectors included). */
final class Checkpoints {
  private static final DeltaType STRING_MAP = DeltaType.map(DeltaType.STRING, DeltaType.STRING, true);

  private static final StructType DELETION_VECTOR = DeltaType.struct(
      field("storageType", DeltaType.STRING), field("pathOrInlineDv", DeltaType.STRING),
      field("offset", DeltaType.INTEGER), field("sizeInBytes", DeltaType.INTEGER),
      field("cardinality", DeltaType.LONG));

  static final StructType SCHEMA = DeltaType.struct(
      field("txn", DeltaType.struct(
          field("appId", DeltaType.STRING), field("version", DeltaType.LONG), field("lastUpdated", DeltaType.LONG))),
      field("add", DeltaType.struct(
          field("path", DeltaType.STRING), field("partitionValues", STRING_MAP), field("size", DeltaType.LONG),
          field("modificationTime", DeltaType.LONG), field("dataChange", DeltaType.BOOLEAN),
          field("tags", STRING_MAP), field("stats", DeltaType.STRING), field("deletionVector", DELETION_VECTOR))),
      field("remove", DeltaType.struct(
          field("path", DeltaType.STRING), field("deletionTimestamp", DeltaType.LONG),
          field("dataChange", DeltaType.BOOLEAN), field("extendedFileMetadata", DeltaType.BOOLEAN),
          field("partitionValues", STRING_MAP), field("size", DeltaType.LONG), field("tags", STRING_MAP),
          field("deletionVector", DELETION_VECTOR))),
      field("metaData", DeltaType.struct(
          field("id", DeltaType.STRING), field("name", DeltaType.STRING), field("description", DeltaType.STRING),
          field("format", DeltaType.struct(field("provider", DeltaType.STRING), field("options", STRING_MAP))),
          field("schemaString", DeltaType.STRING),
          field("partitionColumns", DeltaType.array(DeltaType.STRING, true)),
          field("configuration", STRING_MAP), field("createdTime", DeltaType.LONG))),
      field("protocol", DeltaType.struct(
          field("minReaderVersion", DeltaType.INTEGER), field("minWriterVersion", DeltaType.INTEGER),
          field("readerFeatures", DeltaType.array(DeltaType.STRING, true)),
          field("writerFeatures", DeltaType.array(DeltaType.STRING, true)))));

  private Checkpoints() {}
}
