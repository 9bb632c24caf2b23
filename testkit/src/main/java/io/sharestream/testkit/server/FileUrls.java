package io.sharestream.testkit.server;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Pre-signed file URLs in the style of cloud storage: {@code /storage/<tableKey>/<path>?X-Expires=<ms>&X-Signature=<hmac>}.
 * The signature (HMAC-SHA256 with a key born with the server) covers table key, path and expiry, so a URL cannot
 * be altered or extended; file ids are the MD5 (parquet format) or SHA-256 (delta format) of the file path, stable
 * across requests like the reference server's.
 */
final class FileUrls {
  private final byte[] key = new byte[32];
  private final String base;

  FileUrls(String base) {
    new SecureRandom().nextBytes(key);
    this.base = base;
  }

  String sign(String tableKey, String filePath, long expiresAtMs) {
    return base + "/storage/" + tableKey + "/" + filePath + "?X-Expires=" + expiresAtMs + "&X-Signature="
        + signature(tableKey, filePath, expiresAtMs);
  }

  boolean verify(String tableKey, String filePath, long expiresAtMs, String signature) {
    return MessageDigest.isEqual(signature(tableKey, filePath, expiresAtMs).getBytes(StandardCharsets.US_ASCII),
        signature.getBytes(StandardCharsets.US_ASCII));
  }

  private String signature(String tableKey, String filePath, long expiresAtMs) {
    Mac mac = macs.get(); // one per thread, keyed once: a listing signs a URL per file
    return hex(mac.doFinal((tableKey + "\n" + filePath + "\n" + expiresAtMs).getBytes(StandardCharsets.UTF_8)));
  }

  private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(() -> {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  });

  private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> digest("MD5"));
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> digest("SHA-256"));

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The stable file id: MD5 hex of the file's path in the log. */
  static String fileId(String filePath) {
    return hex(MD5.get().digest(filePath.getBytes(StandardCharsets.UTF_8)));
  }

  /** SHA-256 hex of {@code text}: the delta format's file id of a log path, as the reference server's. */
  static String sha256(String text) {
    return hex(SHA256.get().digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  static String hex(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
      out[2 * i + 1] = HEX[bytes[i] & 0xf];
    }
    return new String(out);
  }

}
