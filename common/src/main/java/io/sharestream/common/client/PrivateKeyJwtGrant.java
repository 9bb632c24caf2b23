package io.sharestream.common.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.Secrets;
import io.sharestream.common.profile.DeltaSharingProfile;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;

/**
 * The grant of an {@code oauth_jwt_bearer_private_key_jwt} profile (RFC 7523, as the official Python client sends
 * it): {@code grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer} with a fresh JWT as {@code assertion}, signed
 * RS256 or ES256 with the recipient's private key, header {@code alg}, {@code typ} and the key's {@code kid}; claims
 * {@code iss} and {@code sub} the client id, {@code aud} the profile's issuer, {@code iat}, {@code exp} two minutes
 * later, a random {@code jti}, and the profile's {@code scope} and {@code resource} (its audience) when set. The key
 * is read from PEM: PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC1 P-256
 * ({@code EC PRIVATE KEY}), unencrypted. Each assertion is a secret ({@link Secrets}).
 */
final class PrivateKeyJwtGrant implements OAuthAccessTokens.Grant {
  static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  /** How long an assertion is valid: it is used once, at once. */
  static final Duration LIFETIME = Duration.ofSeconds(120);
  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

  private final DeltaSharingProfile profile;
  private final DeltaSharingProfile.PrivateKeyJwt jwt;
  private final PrivateKey key;

  PrivateKeyJwtGrant(DeltaSharingProfile profile) {
    this.profile = profile;
    this.jwt = profile.privateKeyJwt();
    this.key = privateKey(jwt.privateKeyPem(), jwt.algorithm());
  }

  @Override
  public String form(Instant now) {
    return "grant_type=" + Http.queryValue(GRANT_TYPE) + "&assertion=" + Http.queryValue(assertion(now));
  }

  @Override
  public String authorization() {
    return null; // the assertion authenticates the client
  }

  /** A signed JWT issued at {@code now}. */
  String assertion(Instant now) {
    ObjectNode header = DeltaSharingClient.JSON.createObjectNode().put("alg", jwt.algorithm()).put("typ", "JWT");
    if (jwt.keyId() != null) {
      header.put("kid", jwt.keyId());
    }
    long iat = now.getEpochSecond();
    ObjectNode claims = DeltaSharingClient.JSON.createObjectNode().put("iss", profile.clientId())
        .put("sub", profile.clientId()).put("aud", jwt.issuer()).put("iat", iat)
        .put("exp", iat + LIFETIME.getSeconds()).put("jti", UUID.randomUUID().toString());
    if (profile.scope() != null) {
      claims.put("scope", profile.scope());
    }
    if (jwt.audience() != null) {
      claims.put("resource", jwt.audience());
    }
    String signingInput = part(header.toString()) + "." + part(claims.toString());
    try {
      boolean rsa = jwt.algorithm().equals("RS256");
      Signature signature = Signature.getInstance(rsa ? "SHA256withRSA" : "SHA256withECDSA");
      signature.initSign(key);
      signature.update(signingInput.getBytes(StandardCharsets.US_ASCII));
      byte[] signed = signature.sign();
      String token = signingInput + "." + URL.encodeToString(rsa ? signed : concatenated(signed, 32));
      Secrets.register(token);
      return token;
    } catch (GeneralSecurityException e) {
      throw new InvalidProfileException("The profile's private key cannot sign " + jwt.algorithm() + ": "
          + e.getMessage());
    }
  }

  private static String part(String json) {
    return URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  /** An ECDSA signature in DER (a SEQUENCE of two INTEGERs) as JWS wants it: r and s, {@code size} bytes each. */
  static byte[] concatenated(byte[] der, int size) {
    int i = 2 + ((der[1] & 0x80) != 0 ? der[1] & 0x7f : 0); // past the SEQUENCE's tag and length
    byte[] out = new byte[2 * size];
    for (int n = 0; n < 2; n++) {
      int length = der[i + 1] & 0xff;
      byte[] value = Arrays.copyOfRange(der, i + 2, i + 2 + length);
      int skip = Math.max(0, value.length - size); // a leading zero of a positive INTEGER
      System.arraycopy(value, skip, out, n * size + size - (value.length - skip), value.length - skip);
      i += 2 + length;
    }
    return out;
  }

  /** The PEM text's unencrypted private key for {@code algorithm} (RS256: RSA, ES256: EC P-256). */
  static PrivateKey privateKey(String pem, String algorithm) {
    String label = between(pem, "-----BEGIN ", "-----");
    if (label == null) {
      throw new InvalidProfileException("The profile's private key file is not PEM (no -----BEGIN line).");
    }
    String body = between(pem, "-----BEGIN " + label + "-----", "-----END");
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(body == null ? "" : body.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidProfileException("The profile's private key file holds PEM that is not base64.");
    }
    boolean rsa = algorithm.equals("RS256");
    switch (label) {
      case "PRIVATE KEY":
        break;
      case "RSA PRIVATE KEY": // PKCS#1 inside PKCS#8: rsaEncryption, NULL parameters
        der = pkcs8(der, new byte[] {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01,
            0x01, 0x01, 0x05, 0x00});
        break;
      case "EC PRIVATE KEY": // SEC1 inside PKCS#8: ecPublicKey on prime256v1 (ES256's curve)
        der = pkcs8(der, new byte[] {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01, 0x06,
            0x08, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x03, 0x01, 0x07});
        break;
      default:
        throw new InvalidProfileException("The profile's private key file holds a '" + label + "'; give an "
            + "unencrypted PRIVATE KEY (PKCS#8, e.g. from openssl pkcs8 -topk8 -nocrypt), RSA PRIVATE KEY or EC "
            + "PRIVATE KEY.");
    }
    try {
      return KeyFactory.getInstance(rsa ? "RSA" : "EC").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new InvalidProfileException("The profile's private key is not " + (rsa ? "an RSA" : "an EC P-256")
          + " key, which algorithm " + algorithm + " needs: " + e.getMessage());
    }
  }

  private static String between(String text, String start, String end) {
    int i = text.indexOf(start);
    if (i < 0) {
      return null;
    }
    int j = text.indexOf(end, i + start.length());
    return j < 0 ? null : text.substring(i + start.length(), j);
  }

  /** A PKCS#8 PrivateKeyInfo: version 0, the algorithm identifier {@code algorithm}, the key {@code key}. */
  private static byte[] pkcs8(byte[] key, byte[] algorithm) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(0x02);
    body.write(0x01);
    body.write(0x00);
    der(body, 0x30, algorithm);
    der(body, 0x04, key);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    der(out, 0x30, body.toByteArray());
    return out.toByteArray();
  }

  private static void der(ByteArrayOutputStream out, int tag, byte[] value) {
    out.write(tag);
    int n = value.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
      out.write(0x80 | bytes);
      for (int b = bytes - 1; b >= 0; b--) {
        out.write(n >>> (8 * b));
      }
    }
    out.write(value, 0, n);
  }
}
