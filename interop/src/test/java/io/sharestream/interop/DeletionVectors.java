package io.sharestream.interop;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * A small, independent reader of Delta deletion vectors (PROTOCOL.md "Deletion Vector Format"), only for checking
 * what the fixtures claim: descriptor to file, file framing (big-endian size and CRC-32), RoaringBitmapArray
 * (little-endian magic 1681511377, bucket count, per bucket a high-32-bit key and a portable 32-bit Roaring bitmap
 * with array, bitmap and run containers).
 */
final class DeletionVectors {
  private static final String Z85 =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  static final int MAGIC = 1681511377;

  private DeletionVectors() {
  }

  /** The file a {@code u} descriptor's {@code pathOrInlineDv} names: random prefix (if any) + UUID in Z85. */
  static Path file(Path tableDir, String pathOrInlineDv) {
    String prefix = pathOrInlineDv.substring(0, pathOrInlineDv.length() - 20);
    UUID uuid = uuid(pathOrInlineDv.substring(pathOrInlineDv.length() - 20));
    Path dir = prefix.isEmpty() ? tableDir : tableDir.resolve(prefix);
    return dir.resolve("deletion_vector_" + uuid + ".bin");
  }

  /** Z85 of 16 bytes (20 characters) to a UUID, most significant bytes first. */
  static UUID uuid(String z85) {
    ByteBuffer b = ByteBuffer.wrap(z85Decode(z85));
    return new UUID(b.getLong(), b.getLong());
  }

  static byte[] z85Decode(String s) {
    if (s.length() % 5 != 0) {
      throw new IllegalArgumentException("Z85 length " + s.length());
    }
    byte[] out = new byte[s.length() / 5 * 4];
    for (int i = 0, o = 0; i < s.length(); i += 5, o += 4) {
      long v = 0;
      for (int j = 0; j < 5; j++) {
        int d = Z85.indexOf(s.charAt(i + j));
        if (d < 0) {
          throw new IllegalArgumentException("not Z85: " + s.charAt(i + j));
        }
        v = v * 85 + d;
      }
      out[o] = (byte) (v >>> 24);
      out[o + 1] = (byte) (v >>> 16);
      out[o + 2] = (byte) (v >>> 8);
      out[o + 3] = (byte) v;
    }
    return out;
  }

  /** The bytes of the serialized bitmap a stored descriptor points at, its size and checksum checked. */
  static byte[] storedBitmap(Path tableDir, JsonNode descriptor) {
    Path f = file(tableDir, descriptor.path("pathOrInlineDv").asText());
    int offset = descriptor.path("offset").asInt();
    int size = descriptor.path("sizeInBytes").asInt();
    try (FileChannel ch = FileChannel.open(f)) {
      ByteBuffer version = ByteBuffer.allocate(1);
      ch.read(version, 0);
      if (version.get(0) != 1) {
        throw new IllegalStateException(f + ": format version " + version.get(0));
      }
      ByteBuffer buf = ByteBuffer.allocate(4 + size + 4); // big-endian: size, bitmap, CRC-32 of the bitmap
      ch.read(buf, offset);
      buf.flip();
      int storedSize = buf.getInt();
      if (storedSize != size) {
        throw new IllegalStateException(f + "@" + offset + ": size " + storedSize + " but descriptor says " + size);
      }
      byte[] bitmap = new byte[size];
      buf.get(bitmap);
      CRC32 crc = new CRC32();
      crc.update(bitmap);
      int storedCrc = buf.getInt();
      if ((int) crc.getValue() != storedCrc) {
        throw new IllegalStateException(f + "@" + offset + ": checksum mismatch");
      }
      return bitmap;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The row indexes a descriptor ({@code i} inline or {@code u} stored) marks as deleted, ascending. */
  static List<Long> rowIndexes(Path tableDir, JsonNode descriptor) {
    String type = descriptor.path("storageType").asText();
    byte[] bitmap;
    switch (type) {
      case "u":
        bitmap = storedBitmap(tableDir, descriptor);
        break;
      case "i":
        bitmap = z85Decode(descriptor.path("pathOrInlineDv").asText());
        break;
      default:
        throw new UnsupportedOperationException("storageType " + type);
    }
    return decodeBitmapArray(bitmap);
  }

  /** A serialized RoaringBitmapArray (portable format) to its values. */
  static List<Long> decodeBitmapArray(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int magic = b.getInt();
    if (magic != MAGIC) {
      throw new IllegalStateException("magic " + magic);
    }
    long buckets = b.getLong();
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < buckets; i++) {
      long high = Integer.toUnsignedLong(b.getInt());
      for (int low : decodeRoaring32(b)) {
        out.add(high << 32 | Integer.toUnsignedLong(low));
      }
    }
    return out;
  }

  /** One portable 32-bit Roaring bitmap (cookies 12346 and 12347) from {@code b}'s position on. */
  static List<Integer> decodeRoaring32(ByteBuffer b) {
    int cookie = b.getInt();
    int containers;
    byte[] runFlags = null;
    boolean offsets;
    if ((cookie & 0xFFFF) == 12347) {
      containers = (cookie >>> 16) + 1;
      runFlags = new byte[(containers + 7) / 8];
      b.get(runFlags);
      offsets = containers >= 4;
    } else if (cookie == 12346) {
      containers = b.getInt();
      offsets = true;
    } else {
      throw new IllegalStateException("Roaring cookie " + cookie);
    }
    int[] keys = new int[containers];
    int[] cards = new int[containers];
    for (int c = 0; c < containers; c++) {
      keys[c] = Short.toUnsignedInt(b.getShort());
      cards[c] = Short.toUnsignedInt(b.getShort()) + 1;
    }
    if (offsets) {
      b.position(b.position() + 4 * containers);
    }
    List<Integer> out = new ArrayList<>();
    for (int c = 0; c < containers; c++) {
      int base = keys[c] << 16;
      boolean run = runFlags != null && (runFlags[c / 8] & (1 << (c % 8))) != 0;
      if (run) {
        int runs = Short.toUnsignedInt(b.getShort());
        for (int r = 0; r < runs; r++) {
          int start = Short.toUnsignedInt(b.getShort());
          int length = Short.toUnsignedInt(b.getShort());
          for (int x = start; x <= start + length; x++) {
            out.add(base | x);
          }
        }
      } else if (cards[c] > 4096) {
        for (int w = 0; w < 1024; w++) {
          long word = b.getLong();
          for (int bit = 0; bit < 64; bit++) {
            if ((word & (1L << bit)) != 0) {
              out.add(base | (w * 64 + bit));
            }
          }
        }
      } else {
        for (int x = 0; x < cards[c]; x++) {
          out.add(base | Short.toUnsignedInt(b.getShort()));
        }
      }
    }
    return out;
  }

  /** Hex of {@code bytes} (for messages and reports). */
  static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte x : bytes) {
      s.append(String.format("%02x", x));
    }
    return s.toString();
  }
}
