package io.sharestream.testkit.delta;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * Deletion vector files ({@code deletion_vector_<uuid>.bin}), framing big-endian: byte 0 the format version 1, then
 * per DV at its offset an int32 size, the serialized bitmap and an int32 CRC-32 of the bitmap.
 */
final class DeletionVectorFile {
  private static final int FORMAT_VERSION = 1;

  private DeletionVectorFile() {}

  /** Writes the bitmaps of {@code deletionVectors} into one new file in {@code tableDir}; descriptors in order. */
  static List<DeletionVectorDescriptor> write(Path tableDir, List<NavigableSet<Long>> deletionVectors)
      throws IOException {
    List<byte[]> bitmaps = new ArrayList<>();
    int size = 1;
    for (NavigableSet<Long> rows : deletionVectors) {
      byte[] b = DeletionVectorBitmap.serialize(rows);
      bitmaps.add(b);
      size += 4 + b.length + 4;
    }
    UUID uuid = UUID.randomUUID();
    ByteBuffer out = ByteBuffer.allocate(size).put((byte) FORMAT_VERSION);
    List<DeletionVectorDescriptor> descriptors = new ArrayList<>();
    for (int i = 0; i < bitmaps.size(); i++) {
      byte[] b = bitmaps.get(i);
      descriptors.add(new DeletionVectorDescriptor(DeletionVectorDescriptor.STORED, Z85.encodeUuid(uuid),
          out.position(), b.length, deletionVectors.get(i).size()));
      out.putInt(b.length).put(b).putInt((int) crc(b));
    }
    Files.write(tableDir.resolve("deletion_vector_" + uuid + ".bin"), out.array());
    return descriptors;
  }

  /** The bitmap of the DV at {@code offset} in {@code file}, its size and checksum checked. */
  static byte[] read(Path file, int offset, int sizeInBytes) throws IOException {
    try (SeekableByteChannel in = Files.newByteChannel(file)) {
      ByteBuffer version = ByteBuffer.allocate(1);
      in.read(version);
      if (version.get(0) != FORMAT_VERSION) {
        throw new IllegalStateException("Unsupported DV file format version " + version.get(0) + " in " + file);
      }
      if (offset < 1 || (long) offset + 8 + sizeInBytes > in.size()) {
        throw new IllegalStateException("DV at offset " + offset + " with " + sizeInBytes + " bytes lies outside "
            + file + " (" + in.size() + " bytes)");
      }
      ByteBuffer dv = ByteBuffer.allocate(sizeInBytes + 8);
      in.position(offset);
      while (dv.hasRemaining()) {
        if (in.read(dv) < 0) {
          throw new EOFException("DV file " + file + " ends inside the DV at offset " + offset);
        }
      }
      dv.flip();
      int size = dv.getInt();
      if (size != sizeInBytes) {
        throw new IllegalStateException("DV size mismatch in " + file + ": the file says " + size
            + ", the descriptor " + sizeInBytes);
      }
      byte[] bitmap = new byte[size];
      dv.get(bitmap);
      int checksum = dv.getInt();
      if (checksum != (int) crc(bitmap)) {
        throw new IllegalStateException("DV checksum mismatch in " + file + " at offset " + offset);
      }
      return bitmap;
    }
  }

  private static long crc(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return crc.getValue();
  }
}
