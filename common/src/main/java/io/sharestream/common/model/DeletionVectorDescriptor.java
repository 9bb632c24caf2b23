package io.sharestream.common.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.common.errors.Errors;
import java.io.Serializable;
import java.util.Objects;

/**
 * Where a file's deletion vector is (Delta's {@code deletionVector} descriptor): inline ({@code i}, the bitmap as
 * Z85 text), in a file behind a pre-signed URL ({@code p}, as sharing servers send it: the bitmap at {@code offset},
 * {@code sizeInBytes} long), or in a file named by a UUID relative to the table ({@code u}, which only a server can
 * resolve). {@code cardinality} rows of the data file are deleted. {@link #toString()} never shows a URL's query.
 */
public final class DeletionVectorDescriptor implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Storage types. */
  public static final char INLINE = 'i';
  public static final char URL = 'p';
  public static final char RELATIVE = 'u';

  private final char storageType;
  private final String pathOrInlineDv;
  private final int offset;
  private final int sizeInBytes;
  private final long cardinality;

  public DeletionVectorDescriptor(char storageType, String pathOrInlineDv, int offset, int sizeInBytes,
      long cardinality) {
    this.storageType = storageType;
    this.pathOrInlineDv = Objects.requireNonNull(pathOrInlineDv, "pathOrInlineDv");
    this.offset = offset;
    this.sizeInBytes = sizeInBytes;
    this.cardinality = cardinality;
  }

  /** Parses a {@code deletionVector} object; fails naming the field that is missing or wrong. */
  public static DeletionVectorDescriptor fromJson(JsonNode n) {
    String type = n.path("storageType").asText("");
    if (type.length() != 1 || "ipu".indexOf(type.charAt(0)) < 0) {
      throw new IllegalArgumentException("deletionVector with storageType '" + type + "' (expected i, p or u)");
    }
    if (!n.hasNonNull("pathOrInlineDv") || !n.path("sizeInBytes").canConvertToInt()
        || !n.path("cardinality").canConvertToLong()) {
      throw new IllegalArgumentException("deletionVector without pathOrInlineDv, sizeInBytes or cardinality");
    }
    int offset = n.hasNonNull("offset") ? n.get("offset").asInt() : 0;
    int size = n.get("sizeInBytes").asInt();
    long cardinality = n.get("cardinality").asLong();
    if (offset < 0 || size < 0 || cardinality < 0) {
      throw new IllegalArgumentException("deletionVector with a negative offset, sizeInBytes or cardinality");
    }
    return new DeletionVectorDescriptor(type.charAt(0), n.get("pathOrInlineDv").asText(), offset, size, cardinality);
  }

  public char storageType() {
    return storageType;
  }

  /** The inline Z85 text, the pre-signed URL (a secret: never log it) or the relative UUID path. */
  public String pathOrInlineDv() {
    return pathOrInlineDv;
  }

  /** Where the DV's length field starts in its file ({@code p}, {@code u}). */
  public int offset() {
    return offset;
  }

  /** Bytes of the serialized bitmap (without the file's length and checksum framing). */
  public int sizeInBytes() {
    return sizeInBytes;
  }

  /** Rows the vector deletes. */
  public long cardinality() {
    return cardinality;
  }

  /**
   * Identity of the vector that survives URL refreshes: a stored vector's file path (its URL without the query
   * string, which changes with every signature), offset, size and cardinality; an inline one's text.
   */
  public String stableKey() {
    String where = storageType == URL ? Errors.safeUrl(pathOrInlineDv) : pathOrInlineDv;
    return storageType + where + "@" + offset + ":" + sizeInBytes + ":" + cardinality;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeletionVectorDescriptor && ((DeletionVectorDescriptor) o).stableKey().equals(stableKey());
  }

  @Override
  public int hashCode() {
    return stableKey().hashCode();
  }

  @Override
  public String toString() {
    return "DeletionVector{" + storageType + (storageType == URL ? " " + Errors.safeUrl(pathOrInlineDv) : "")
        + ", offset=" + offset + ", size=" + sizeInBytes + ", cardinality=" + cardinality + "}";
  }
}
