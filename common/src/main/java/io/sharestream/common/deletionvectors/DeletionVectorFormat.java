package io.sharestream.common.deletionvectors;

import io.sharestream.common.model.DeletionVectorDescriptor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Decodes deletion vectors from their descriptor and bytes (Delta protocol, "Deletion Vector Format"): an inline
 * vector is Z85 text of the bitmap; a stored one is read from its file as {@code [offset, offset + size + 8)}: a
 * big-endian length that must equal {@code sizeInBytes}, the bitmap, and its big-endian CRC-32. The bitmap must hold
 * exactly {@code cardinality} rows. Failures are {@link IllegalArgumentException}s saying what is wrong.
 */
public final class DeletionVectorFormat {
  private DeletionVectorFormat() {}

  /** Bytes to read from a stored vector's file, starting at its offset: length field, bitmap, checksum. */
  public static int storedLength(DeletionVectorDescriptor dv) {
    return dv.sizeInBytes() + 8;
  }

  /** The rows of an inline vector. */
  public static RowIndexSet inline(DeletionVectorDescriptor dv) {
    byte[] bitmap;
    try {
      bitmap = Z85.decode(dv.pathOrInlineDv(), dv.sizeInBytes());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the inline deletion vector is not valid Z85: " + e.getMessage(), e);
    }
    return checked(RowIndexSet.deserialize(bitmap), dv);
  }

  /** The rows of a stored vector from the {@link #storedLength} bytes read at its offset. */
  public static RowIndexSet stored(DeletionVectorDescriptor dv, byte[] framed) {
    if (framed.length != storedLength(dv)) {
      throw new IllegalArgumentException("the deletion vector file holds " + framed.length + " bytes at offset "
          + dv.offset() + ", not the " + storedLength(dv) + " its descriptor needs (offset past the file's end?)");
    }
    ByteBuffer in = ByteBuffer.wrap(framed);
    int size = in.getInt();
    if (size != dv.sizeInBytes()) {
      throw new IllegalArgumentException("the deletion vector's size in its file is " + size + " bytes, not the "
          + dv.sizeInBytes() + " of its descriptor (wrong offset?)");
    }
    byte[] bitmap = Arrays.copyOfRange(framed, 4, 4 + size);
    in.position(4 + size);
    int expected = in.getInt();
    CRC32 crc = new CRC32();
    crc.update(bitmap);
    if ((int) crc.getValue() != expected) {
      throw new IllegalArgumentException("the deletion vector's checksum does not match (CRC-32 "
          + Long.toHexString(crc.getValue()) + ", stored " + Integer.toHexString(expected) + ")");
    }
    return checked(RowIndexSet.deserialize(bitmap), dv);
  }

  /** The file name a relative ({@code u}) descriptor points to: {@code [prefix/]deletion_vector_<uuid>.bin}. */
  public static String relativePath(DeletionVectorDescriptor dv) {
    String text = dv.pathOrInlineDv();
    if (text.length() < Z85.UUID_LENGTH) {
      throw new IllegalArgumentException("the relative deletion vector path '" + text + "' is too short");
    }
    String prefix = text.substring(0, text.length() - Z85.UUID_LENGTH);
    return (prefix.isEmpty() ? "" : prefix + "/") + "deletion_vector_" + Z85.decodeUuid(text) + ".bin";
  }

  private static RowIndexSet checked(RowIndexSet rows, DeletionVectorDescriptor dv) {
    if (rows.cardinality() != dv.cardinality()) {
      throw new IllegalArgumentException("the deletion vector marks " + rows.cardinality() + " rows, but its "
          + "descriptor says " + dv.cardinality());
    }
    return rows;
  }

  /**
   * The path, relative to the table's root, of the file of a stored deletion vector ({@code u} descriptor):
   * {@code [<prefix>/]deletion_vector_<uuid>.bin}, its UUID the last 20 characters (Z85) of {@code pathOrInlineDv},
   * the random prefix what comes before them (Delta protocol, "Deletion Vector Descriptor Schema").
   */
  public static String storedPath(String pathOrInlineDv) {
    if (pathOrInlineDv.length() < Z85.UUID_LENGTH) {
      throw new IllegalArgumentException("a stored deletion vector's path '" + pathOrInlineDv + "' is shorter than "
          + "its UUID");
    }
    int cut = pathOrInlineDv.length() - Z85.UUID_LENGTH;
    String prefix = pathOrInlineDv.substring(0, cut);
    String name = "deletion_vector_" + Z85.decodeUuid(pathOrInlineDv.substring(cut)) + ".bin";
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }
}
