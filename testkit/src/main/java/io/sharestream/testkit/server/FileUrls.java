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
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] sig = mac.doFinal((tableKey + "\n" + filePath + "\n" + expiresAtMs).getBytes(StandardCharsets.UTF_8));
      return hex(sig);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The stable file id: MD5 hex of the file's path in the log. */
  static String fileId(String filePath) {
    try {
      return hex(MessageDigest.getInstance("MD5").digest(filePath.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** SHA-256 hex of {@code text}: the delta format's file id of a log path, as the reference server's. */
  static String sha256(String text) {
    try {
      return hex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String hex(byte[] bytes) {
    StringBuilder b = new StringBuilder();
    for (byte x : bytes) {
      b.append(String.format("%02x", x));
    }
    return b.toString();
  }

}
