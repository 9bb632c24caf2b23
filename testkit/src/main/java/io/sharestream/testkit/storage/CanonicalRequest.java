package io.sharestream.testkit.storage;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Signature Version 4's canonical request and string to sign, as S3 forms them from the request it receives: the
 * path decoded and encoded once ({@code UriEncode}, slashes kept), the query parameters decoded, encoded and sorted
 * (the presigned form's {@code X-Amz-Signature} left out), the signed headers' values trimmed with inner runs of
 * spaces made one, and the payload hash given.
 */
final class CanonicalRequest {
  private CanonicalRequest() {}

  /** The canonical request's text. */
  static String of(String method, String rawPath, List<String[]> query, boolean presigned, List<String> signedHeaders,
      Function<String, List<String>> headers, String payloadHash) {
    StringBuilder b = new StringBuilder(method).append('\n');
    b.append(Xml.uriEncode(Xml.percentDecode(rawPath), false)).append('\n');
    List<String[]> params = new ArrayList<>();
    for (String[] kv : query) {
      if (!(presigned && kv[0].equals("X-Amz-Signature"))) {
        params.add(new String[] {Xml.uriEncode(kv[0], true), Xml.uriEncode(kv[1], true)});
      }
    }
    params.sort(Comparator.<String[], String>comparing(kv -> kv[0]).thenComparing(kv -> kv[1]));
    for (int i = 0; i < params.size(); i++) {
      b.append(i == 0 ? "" : "&").append(params.get(i)[0]).append('=').append(params.get(i)[1]);
    }
    b.append('\n');
    for (String name : signedHeaders) {
      List<String> values = headers.apply(name);
      b.append(name).append(':');
      if (values != null) {
        for (int i = 0; i < values.size(); i++) {
          b.append(i == 0 ? "" : ",").append(values.get(i).trim().replaceAll(" +", " "));
        }
      }
      b.append('\n');
    }
    b.append('\n').append(String.join(";", signedHeaders)).append('\n').append(payloadHash);
    return b.toString();
  }

  /** The string to sign: algorithm, request time, credential scope and the canonical request's SHA-256. */
  static String stringToSign(String amzDate, String scope, String canonicalRequest) {
    return SigV4Verifier.ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + sha256Hex(canonicalRequest
        .getBytes(StandardCharsets.UTF_8));
  }

  /** The signature of {@code stringToSign} with the key derived from {@code secret} for the scope's parts. */
  static String signature(String secret, String date, String region, String service, String stringToSign) {
    byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
    key = hmac(key, region);
    key = hmac(key, service);
    key = hmac(key, "aws4_request");
    return hex(hmac(key, stringToSign));
  }

  static String sha256Hex(byte[] data) {
    try {
      return hex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String hex(byte[] bytes) {
    StringBuilder b = new StringBuilder(bytes.length * 2);
    for (byte x : bytes) {
      b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return b.toString();
  }
}
