package io.sharestream.spark;

import io.sharestream.common.planner.Position;
import org.apache.spark.sql.execution.streaming.Offset;

/**
 * A stream offset: the core's {@link Position} at file granularity, as the JSON
 * {@code {"sourceVersion":1,"tableId":..,"tableVersion":v,"index":i,"isStartingVersion":b}} (SPEC §5); inside a
 * version ({@code index >= 0}) as {@code "sourceVersion":2} with the {@code "fileKey"} of the file at the index.
 * Spark's DSv1 offset class, which is a DSv2 offset too: the same offsets serve the catalog tables' DSv1 stream
 * ({@link CatalogTableSource}).
 */
final class SharingOffset extends Offset {
  private final Position position;

  SharingOffset(Position position) {
    this.position = position;
  }

  Position position() {
    return position;
  }

  /** Reads and checks an offset from a checkpoint (format version and shape; the table is checked by the stream). */
  static SharingOffset fromJson(String json) {
    return new SharingOffset(Position.fromJson(json));
  }

  @Override
  public String json() {
    return position.toJson();
  }
}
