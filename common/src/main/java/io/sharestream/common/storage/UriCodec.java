package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** RFC 3986 percent-encoding and decoding of UTF-8 text, as object stores and the Delta protocol use it. */
final class UriCodec {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private UriCodec() {}

  /**
   * {@code s} with every byte of its UTF-8 form percent-encoded except the unreserved characters
   * ({@code A-Z a-z 0-9 - . _ ~}) and, when {@code keepSlash}, {@code /}: SigV4's {@code UriEncode}.
   */
  static String encode(String s, boolean keepSlash) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!unreserved(c) && !(keepSlash && c == '/')) {
        b = new StringBuilder(s.length() + 16).append(s, 0, i);
        break;
      }
    }
    if (b == null) {
      return s;
    }
    byte[] bytes = s.substring(b.length()).getBytes(StandardCharsets.UTF_8);
    for (byte x : bytes) {
      char c = (char) (x & 0xff);
      if (unreserved(c) || (keepSlash && c == '/')) {
        b.append(c);
      } else {
        b.append('%').append(HEX[(x >> 4) & 0xf]).append(HEX[x & 0xf]);
      }
    }
    return b.toString();
  }

  private static boolean unreserved(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
        || c == '_' || c == '~';
  }

  /**
   * {@code s} with its {@code %XX} escapes decoded as UTF-8 ({@code +} stays a plus, as in a URI path); fails naming
   * {@code whole} (the location or path {@code s} is part of) when an escape is malformed or not UTF-8.
   */
  static String decode(String s, String whole) {
    int first = s.indexOf('%');
    if (first < 0) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length()).append(s, 0, first);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int i = first;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c != '%') {
        out.append(c);
        i++;
        continue;
      }
      bytes.reset();
      while (i < s.length() && s.charAt(i) == '%') {
        int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
        int lo = hi < 0 ? -1 : Character.digit(s.charAt(i + 2), 16);
        if (lo < 0) {
          throw Errors.unsupportedStorageLocation(whole, "'" + s.substring(i, Math.min(i + 3, s.length()))
              + "' is not a percent-escape (a '%' must be followed by two hexadecimal digits)");
        }
        bytes.write((hi << 4) | lo);
        i += 3;
      }
      try {
        out.append(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())));
      } catch (CharacterCodingException e) {
        throw Errors.unsupportedStorageLocation(whole, "its percent-escapes do not encode UTF-8 text");
      }
    }
    return out.toString();
  }

  /** Lower-case hexadecimal of {@code bytes}. */
  static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = Character.toLowerCase(HEX[(bytes[i] >> 4) & 0xf]);
      out[2 * i + 1] = Character.toLowerCase(HEX[bytes[i] & 0xf]);
    }
    return new String(out);
  }
}
