package io.sharestream.testkit.storage;

import java.nio.charset.StandardCharsets;

/** The little XML and URI encoding S3's answers need. */
final class Xml {
  static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Xml() {}

  /** Appends {@code <name>text</name>}, the text escaped; nothing when {@code text} is null. */
  static void element(StringBuilder b, String name, String text) {
    if (text == null) {
      return;
    }
    b.append('<').append(name).append('>');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<': b.append("&lt;"); break;
        case '>': b.append("&gt;"); break;
        case '&': b.append("&amp;"); break;
        case '"': b.append("&quot;"); break;
        case '\'': b.append("&apos;"); break;
        default:
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            b.append("&#").append((int) c).append(';');
          } else {
            b.append(c);
          }
      }
    }
    b.append("</").append(name).append('>');
  }

  /**
   * AWS's URI encoding (Signature Version 4's {@code UriEncode}): every UTF-8 byte but the unreserved characters
   * {@code A-Z a-z 0-9 - . _ ~} as {@code %XX} (upper-case hex); {@code /} kept unless {@code encodeSlash}.
   */
  static String uriEncode(String s, boolean encodeSlash) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
          || c == '_' || c == '~' || (c == '/' && !encodeSlash)) {
        out.append(c);
      } else {
        out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
      }
    }
    return out.toString();
  }

  /**
   * Decodes {@code %XX} escapes as UTF-8 ({@code +} stays a plus, as S3 reads paths and signed query strings); a
   * malformed escape is an {@code InvalidURI} (400).
   */
  static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          throw new S3Error(400, "InvalidURI", "Couldn't parse the specified URI.");
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new S3Error(400, "InvalidURI", "Couldn't parse the specified URI.");
        }
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
          bytes = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        out.write(bytes, 0, bytes.length);
      }
    }
    return new String(out.toByteArray(), StandardCharsets.UTF_8);
  }
}
