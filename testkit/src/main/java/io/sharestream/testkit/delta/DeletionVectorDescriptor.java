package io.sharestream.testkit.delta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collection;
import java.util.NavigableSet;
import java.util.Objects;

/**
 * The {@code deletionVector} of an {@code add} or {@code remove} (protocol "Deletion Vector Descriptor Schema"):
 * {@code u} = stored in a {@code deletion_vector_<uuid>.bin} file of the table (optionally under a random prefix
 * directory) at {@code offset}; {@code i} = the bitmap inline, Z85-encoded; {@code p} = a file at an absolute path.
 */
public final class DeletionVectorDescriptor {
  public static final String STORED = "u";
  public static final String INLINE = "i";
  public static final String ABSOLUTE = "p";

  public final String storageType;
  public final String pathOrInlineDv;
  /** Where the DV's length field starts in its file; null for inline DVs (and means 0 for the others). */
  public final Integer offset;
  /** Size of the serialized bitmap, without framing or Z85 padding. */
  public final int sizeInBytes;
  /** Number of rows the DV deletes. */
  public final long cardinality;

  public DeletionVectorDescriptor(String storageType, String pathOrInlineDv, Integer offset, int sizeInBytes,
      long cardinality) {
    this.storageType = Objects.requireNonNull(storageType);
    this.pathOrInlineDv = Objects.requireNonNull(pathOrInlineDv);
    this.offset = offset;
    this.sizeInBytes = sizeInBytes;
    this.cardinality = cardinality;
  }

  /** An inline DV deleting {@code rowIndexes}. */
  public static DeletionVectorDescriptor inline(Collection<Long> rowIndexes) {
    byte[] bitmap = DeletionVectorBitmap.serialize(rowIndexes);
    return new DeletionVectorDescriptor(INLINE, Z85.encode(bitmap), null, bitmap.length,
        DeletionVectorBitmap.deserialize(bitmap).size());
  }

  /** Parses a descriptor; null when {@code n} is null or JSON null. */
  public static DeletionVectorDescriptor fromJson(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    return new DeletionVectorDescriptor(n.path("storageType").asText(), n.path("pathOrInlineDv").asText(),
        n.hasNonNull("offset") ? n.get("offset").asInt() : null, n.path("sizeInBytes").asInt(),
        n.path("cardinality").asLong());
  }

  /** The descriptor as Delta writes it in the log. */
  public ObjectNode toJson() {
    ObjectNode n = DeltaAction.JSON.createObjectNode();
    n.put("storageType", storageType);
    n.put("pathOrInlineDv", pathOrInlineDv);
    if (offset != null) {
      n.put("offset", offset);
    }
    n.put("sizeInBytes", sizeInBytes);
    n.put("cardinality", cardinality);
    return n;
  }

  public boolean isInline() {
    return INLINE.equals(storageType);
  }

  /** The protocol's unique id: storage type and path, plus {@code @offset} when there is an offset. */
  public String uniqueId() {
    return storageType + pathOrInlineDv + (offset == null ? "" : "@" + offset);
  }

  /** The DV file's path relative to the table root, for a stored ({@code u}) DV. */
  public String relativePath() {
    if (!STORED.equals(storageType)) {
      throw new IllegalStateException("a " + storageType + " deletion vector has no path in the table");
    }
    int cut = pathOrInlineDv.length() - Z85.UUID_LENGTH;
    String prefix = pathOrInlineDv.substring(0, cut);
    String name = "deletion_vector_" + Z85.decodeUuid(pathOrInlineDv.substring(cut)) + ".bin";
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** The DV file of a stored ({@code u}) or absolute ({@code p}) DV; tests corrupt it through this. */
  public Path absolutePath(Path tableDir) {
    if (ABSOLUTE.equals(storageType)) {
      return Path.of(URI.create(pathOrInlineDv));
    }
    return tableDir.resolve(relativePath());
  }

  /** The row indexes the DV deletes (its file read, size, checksum and cardinality checked). */
  public NavigableSet<Long> rowIndexes(Path tableDir) {
    byte[] bitmap;
    if (isInline()) {
      bitmap = Z85.decode(pathOrInlineDv, sizeInBytes);
    } else {
      try {
        bitmap = DeletionVectorFile.read(absolutePath(tableDir), offset == null ? 0 : offset, sizeInBytes);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read deletion vector " + this, e);
      }
    }
    NavigableSet<Long> rows = DeletionVectorBitmap.deserialize(bitmap);
    if (rows.size() != cardinality) {
      throw new IllegalStateException("DV cardinality mismatch: the descriptor says " + cardinality
          + ", the bitmap holds " + rows.size() + " rows: " + this);
    }
    return rows;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletionVectorDescriptor && toJson().equals(((DeletionVectorDescriptor) o).toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  @Override
  public String toString() {
    return toJson().toString();
  }
}
