package io.sharestream.testkit.delta;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * The Z85 (ZeroMQ base-85) encoding Delta uses in deletion vector descriptors: every 4 bytes, read big-endian, become
 * 5 characters, most significant digit first. Inline bitmaps are zero-padded to a multiple of 4 bytes; a stored DV's
 * file is named by a UUID encoded as 20 characters (most significant long, then least significant long).
 */
public final class Z85 {
  private static final String ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  private static final int[] DIGITS = new int[128];
  /** Characters of an encoded UUID. */
  public static final int UUID_LENGTH = 20;

  static {
    Arrays.fill(DIGITS, -1);
    for (int i = 0; i < ALPHABET.length(); i++) {
      DIGITS[ALPHABET.charAt(i)] = i;
    }
  }

  private Z85() {}

  /** Encodes {@code bytes}, zero-padded to a multiple of 4. */
  public static String encode(byte[] bytes) {
    byte[] padded = Arrays.copyOf(bytes, (bytes.length + 3) / 4 * 4);
    ByteBuffer in = ByteBuffer.wrap(padded);
    StringBuilder out = new StringBuilder(padded.length / 4 * 5);
    char[] block = new char[5];
    while (in.hasRemaining()) {
      long value = in.getInt() & 0xFFFFFFFFL;
      for (int i = 4; i >= 0; i--) {
        block[i] = ALPHABET.charAt((int) (value % 85));
        value /= 85;
      }
      out.append(block);
    }
    return out.toString();
  }

  /** Decodes {@code text} (a multiple of 5 characters) and keeps its first {@code size} bytes. */
  public static byte[] decode(String text, int size) {
    if (text.length() % 5 != 0) {
      throw new IllegalArgumentException("Input is not valid Z85: its length " + text.length()
          + " is not a multiple of 5");
    }
    ByteBuffer out = ByteBuffer.allocate(text.length() / 5 * 4);
    for (int b = 0; b < text.length(); b += 5) {
      long value = 0;
      for (int i = b; i < b + 5; i++) {
        char c = text.charAt(i);
        int digit = c < 128 ? DIGITS[c] : -1;
        if (digit < 0) {
          throw new IllegalArgumentException("Input is not valid Z85: character '" + c + "' at " + i);
        }
        value = value * 85 + digit;
      }
      out.putInt((int) value);
    }
    if (size > out.capacity()) {
      throw new IllegalArgumentException("Z85 text of " + out.capacity() + " bytes holds no " + size + " bytes");
    }
    return Arrays.copyOf(out.array(), size);
  }

  /** The 20-character form of a UUID. */
  public static String encodeUuid(UUID uuid) {
    return encode(ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
        .putLong(uuid.getLeastSignificantBits()).array());
  }

  /** Parses the 20-character form of a UUID. */
  public static UUID decodeUuid(String text) {
    if (text.length() != UUID_LENGTH) {
      throw new IllegalArgumentException("an encoded UUID has " + UUID_LENGTH + " characters: " + text);
    }
    ByteBuffer b = ByteBuffer.wrap(decode(text, 16));
    return new UUID(b.getLong(), b.getLong());
  }
}
