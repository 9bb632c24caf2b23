package io.sharestream.common.deletionvectors;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * The Z85 (ZeroMQ Base85) text encoding Delta uses for inline deletion vectors and for the UUIDs naming deletion
 * vector files: every 5 characters encode 4 bytes, big-endian.
 */
final class Z85 {
  private static final String ALPHABET =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  private static final byte[] DIGITS = new byte[128];
  /** Characters of a UUID encoded as Z85 (16 bytes). */
  static final int UUID_LENGTH = 20;

  static {
    Arrays.fill(DIGITS, (byte) -1);
    for (int i = 0; i < ALPHABET.length(); i++) {
      DIGITS[ALPHABET.charAt(i)] = (byte) i;
    }
  }

  private Z85() {}

  /** The first {@code size} bytes that {@code text} encodes (the encoder padded them to a multiple of 4). */
  static byte[] decode(String text, int size) {
    if (text.length() % 5 != 0) {
      throw new IllegalArgumentException("its length " + text.length() + " is not a multiple of 5");
    }
    int blocks = text.length() / 5;
    if (size < 0 || size > blocks * 4) {
      throw new IllegalArgumentException("it encodes " + blocks * 4 + " bytes, fewer than the " + size + " expected");
    }
    ByteBuffer out = ByteBuffer.allocate(blocks * 4);
    for (int b = 0; b < blocks; b++) {
      long value = 0;
      for (int i = 0; i < 5; i++) {
        char c = text.charAt(b * 5 + i);
        int digit = c < 128 ? DIGITS[c] : -1;
        if (digit < 0) {
          throw new IllegalArgumentException("it holds '" + c + "', which is not a Z85 character");
        }
        value = value * 85 + digit;
      }
      if (value > 0xFFFFFFFFL) {
        throw new IllegalArgumentException("a block encodes more than 32 bits");
      }
      out.putInt((int) value);
    }
    return Arrays.copyOf(out.array(), size);
  }

  /** The UUID the last {@link #UUID_LENGTH} characters of {@code text} encode. */
  static UUID decodeUuid(String text) {
    ByteBuffer b = ByteBuffer.wrap(decode(text.substring(text.length() - UUID_LENGTH), 16));
    return new UUID(b.getLong(), b.getLong());
  }
}
