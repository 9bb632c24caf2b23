package io.sharestream.common.deltalog;

import io.sharestream.common.types.ArrayType;
import io.sharestream.common.types.DataType;
import io.sharestream.common.types.MapType;
import io.sharestream.common.types.PrimitiveType;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import java.util.Arrays;

/**
 * The columns of a Delta checkpoint this reader needs (Delta protocol, "Checkpoint Schema"), read by projection so
 * a pass for the table's protocol and metadata does not read its files' columns, nor the other way round.
 */
final class CheckpointSchemas {
  private static final DataType STRING = PrimitiveType.STRING;
  private static final DataType LONG = PrimitiveType.LONG;
  private static final DataType INT = PrimitiveType.INTEGER;
  private static final DataType BOOLEAN = PrimitiveType.BOOLEAN;
  private static final DataType STRING_MAP = new MapType(STRING, STRING, true);
  private static final DataType STRINGS = new ArrayType(STRING, true);

  private static final StructType DELETION_VECTOR = struct(field("storageType", STRING),
      field("pathOrInlineDv", STRING), field("offset", INT), field("sizeInBytes", INT), field("cardinality", LONG));

  /** {@code add}: what a snapshot's files need. */
  static final StructType ADD = struct(field("path", STRING), field("partitionValues", STRING_MAP),
      field("size", LONG), field("modificationTime", LONG), field("dataChange", BOOLEAN), field("stats", STRING),
      field("deletionVector", DELETION_VECTOR));

  static final StructType PROTOCOL = struct(field("minReaderVersion", INT), field("minWriterVersion", INT),
      field("readerFeatures", STRINGS), field("writerFeatures", STRINGS));

  static final StructType METADATA = struct(field("id", STRING), field("name", STRING),
      field("description", STRING), field("format", struct(field("provider", STRING), field("options", STRING_MAP))),
      field("schemaString", STRING), field("partitionColumns", STRINGS), field("configuration", STRING_MAP),
      field("createdTime", LONG));

  static final StructType SIDECAR = struct(field("path", STRING), field("sizeInBytes", LONG),
      field("modificationTime", LONG));

  /** A checkpoint's (or a V2 checkpoint's top file's) protocol, metadata and sidecars. */
  static final StructType HEAD = struct(field("protocol", PROTOCOL), field("metaData", METADATA),
      field("sidecar", SIDECAR));

  /** A checkpoint's or a sidecar's files. */
  static final StructType FILES = struct(field("add", ADD));

  private CheckpointSchemas() {}

  private static StructField field(String name, DataType type) {
    return new StructField(name, type, true);
  }

  private static StructType struct(StructField... fields) {
    return new StructType(Arrays.asList(fields));
  }
}
