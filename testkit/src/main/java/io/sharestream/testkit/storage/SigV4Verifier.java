package io.sharestream.testkit.storage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Verifies AWS Signature Version 4 as S3 does, in both its forms: the {@code Authorization} header, and the presigned
 * URL's query parameters ({@code X-Amz-Algorithm}, {@code X-Amz-Credential}, {@code X-Amz-Date}, {@code X-Amz-Expires},
 * {@code X-Amz-SignedHeaders}, {@code X-Amz-Signature}). The key must be one a {@link CredentialVault} issued, the
 * request must carry its session token ({@code X-Amz-Security-Token}, a header or a query parameter by the form), the
 * credentials must not have expired, and the signature must be the one their secret gives; otherwise an
 * {@link S3Error} with S3's status and code: {@code AccessDenied} (anonymous, or a presigned URL past its
 * {@code X-Amz-Expires}), {@code InvalidAccessKeyId} (an unknown key, or a session key without its token),
 * {@code InvalidToken} and {@code ExpiredToken} (400, as S3 answers them), {@code SignatureDoesNotMatch} (with the
 * canonical request and string to sign, as S3 gives them), {@code RequestTimeTooSkewed}, and the 400s of malformed
 * parameters.
 */
public final class SigV4Verifier {
  /** The only signing algorithm S3 takes. */
  public static final String ALGORITHM = "AWS4-HMAC-SHA256";
  private static final long MAX_SKEW_MILLIS = TimeUnit.MINUTES.toMillis(15);
  private static final long MAX_EXPIRES_SECONDS = TimeUnit.DAYS.toSeconds(7);
  private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");

  private final CredentialVault vault;
  private final String region;

  /** Verifies with the credentials of {@code vault}, for requests signed for {@code region}. */
  public SigV4Verifier(CredentialVault vault, String region) {
    this.vault = vault;
    this.region = region;
  }

  /** The parsed authorization of one request. */
  private static final class Auth {
    boolean presigned;
    String accessKeyId;
    String scopeDate;
    String scopeRegion;
    String service;
    String terminator;
    List<String> signedHeaders;
    String signature;
    String amzDate;
    long expiresSeconds;
    String token;

    String scope() {
      return scopeDate + "/" + scopeRegion + "/" + service + "/" + terminator;
    }

    S3Error malformed(String message) {
      return new S3Error(400, presigned ? "AuthorizationQueryParametersError" : "AuthorizationHeaderMalformed",
          message);
    }
  }

  /**
   * The credentials that signed the request, or an {@link S3Error}. {@code headers} gives a header's values by its
   * lower-case name (null when absent); {@code body} is the request body.
   */
  public SessionCredentials verify(String method, String rawPath, String rawQuery,
      Function<String, List<String>> headers, byte[] body, long nowMillis) {
    List<String[]> query = parseQuery(rawQuery);
    String authorization = first(headers.apply("authorization"));
    String algorithm = param(query, "X-Amz-Algorithm");
    if (authorization != null && algorithm != null) {
      throw new S3Error(400, "InvalidArgument", "Only one auth mechanism allowed; only the X-Amz-Algorithm query "
          + "parameter, Signature query string parameter or the Authorization header should be specified");
    }
    if (authorization == null && algorithm == null) {
      if (param(query, "AWSAccessKeyId") != null || param(query, "Signature") != null) {
        throw unsupportedMechanism();
      }
      throw S3Error.accessDenied("Anonymous access is forbidden for this operation");
    }
    Auth a = algorithm != null ? fromQuery(query, algorithm) : fromHeader(authorization, headers);
    long requestTime = checkScope(a);
    SessionCredentials c = vault.find(a.accessKeyId);
    if (c == null || a.token == null) {
      throw new S3Error(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
          .with("AWSAccessKeyId", a.accessKeyId);
    }
    if (!constantTimeEquals(a.token, c.sessionToken())) {
      throw new S3Error(400, "InvalidToken", "The provided token is malformed or otherwise invalid.");
    }
    if (c.expiredAt(nowMillis)) {
      throw new S3Error(400, "ExpiredToken", "The provided token has expired.");
    }
    checkTime(a, requestTime, nowMillis);
    String payloadHash = a.presigned ? "UNSIGNED-PAYLOAD" : first(headers.apply("x-amz-content-sha256"));
    if (payloadHash == null) {
      throw new S3Error(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
    }
    String canonical = CanonicalRequest.of(method, rawPath, query, a.presigned, a.signedHeaders, headers,
        payloadHash);
    String toSign = CanonicalRequest.stringToSign(a.amzDate, a.scope(), canonical);
    String expected = CanonicalRequest.signature(c.secretAccessKey(), a.scopeDate, a.scopeRegion, a.service, toSign);
    if (!constantTimeEquals(expected, a.signature)) {
      throw new S3Error(403, "SignatureDoesNotMatch", "The request signature we calculated does not match the "
          + "signature you provided. Check your key and signing method.").with("AWSAccessKeyId", a.accessKeyId)
          .with("StringToSign", toSign).with("SignatureProvided", a.signature).with("CanonicalRequest", canonical);
    }
    if (payloadHash.matches("[0-9a-f]{64}") && !payloadHash.equals(CanonicalRequest.sha256Hex(body))) {
      throw new S3Error(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not "
          + "match what was computed.");
    }
    return c;
  }

  private static Auth fromQuery(List<String[]> query, String algorithm) {
    Auth a = new Auth();
    a.presigned = true;
    if (!algorithm.equals(ALGORITHM)) {
      throw a.malformed("X-Amz-Algorithm only supports \"" + ALGORITHM + "\"");
    }
    String credential = param(query, "X-Amz-Credential");
    String signedHeaders = param(query, "X-Amz-SignedHeaders");
    a.signature = param(query, "X-Amz-Signature");
    a.amzDate = param(query, "X-Amz-Date");
    String expires = param(query, "X-Amz-Expires");
    if (credential == null || signedHeaders == null || a.signature == null || a.amzDate == null || expires == null) {
      throw a.malformed("Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, "
          + "X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.");
    }
    try {
      a.expiresSeconds = Long.parseLong(expires);
    } catch (NumberFormatException e) {
      throw a.malformed("X-Amz-Expires should be a number");
    }
    if (a.expiresSeconds < 0) {
      throw a.malformed("X-Amz-Expires must be non-negative");
    }
    if (a.expiresSeconds > MAX_EXPIRES_SECONDS) {
      throw a.malformed("X-Amz-Expires must be less than a week (in seconds) that is 604800");
    }
    a.token = param(query, "X-Amz-Security-Token");
    credential(a, credential);
    a.signedHeaders = Arrays.asList(signedHeaders.split(";", -1));
    return a;
  }

  private static Auth fromHeader(String authorization, Function<String, List<String>> headers) {
    Auth a = new Auth();
    if (!authorization.startsWith(ALGORITHM + " ")) {
      if (authorization.startsWith("AWS ")) {
        throw unsupportedMechanism();
      }
      throw new S3Error(400, "InvalidArgument", "Unsupported Authorization Type");
    }
    String credential = null;
    String signedHeaders = null;
    for (String part : authorization.substring(ALGORITHM.length() + 1).split(",")) {
      String p = part.trim();
      if (p.startsWith("Credential=")) {
        credential = p.substring("Credential=".length());
      } else if (p.startsWith("SignedHeaders=")) {
        signedHeaders = p.substring("SignedHeaders=".length());
      } else if (p.startsWith("Signature=")) {
        a.signature = p.substring("Signature=".length());
      }
    }
    if (credential == null || signedHeaders == null || a.signature == null) {
      throw a.malformed("The authorization header is malformed; it must hold Credential, SignedHeaders and "
          + "Signature.");
    }
    a.amzDate = first(headers.apply("x-amz-date"));
    if (a.amzDate == null) {
      throw S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
    }
    a.token = first(headers.apply("x-amz-security-token"));
    credential(a, credential);
    a.signedHeaders = Arrays.asList(signedHeaders.split(";", -1));
    return a;
  }

  private static void credential(Auth a, String credential) {
    String[] parts = credential.split("/", -1);
    if (parts.length != 5) {
      throw a.malformed((a.presigned ? "Error parsing the X-Amz-Credential parameter" : "The authorization header is "
          + "malformed") + "; the Credential is mal-formed; expecting \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/"
          + "aws4_request\".");
    }
    a.accessKeyId = parts[0];
    a.scopeDate = parts[1];
    a.scopeRegion = parts[2];
    a.service = parts[3];
    a.terminator = parts[4];
  }

  /** Checks the credential scope and the request time's form; returns the request time (epoch ms). */
  private long checkScope(Auth a) {
    String what = a.presigned ? "Error parsing the X-Amz-Credential parameter" : "The authorization header is "
        + "malformed";
    if (!a.scopeRegion.equals(region)) {
      throw a.malformed(what + "; the region '" + a.scopeRegion + "' is wrong; expecting '" + region + "'")
          .with("Region", region);
    }
    if (!a.service.equals("s3")) {
      throw a.malformed(what + "; incorrect service \"" + a.service + "\". This endpoint belongs to \"s3\".");
    }
    if (!a.terminator.equals("aws4_request")) {
      throw a.malformed(what + "; incorrect terminal \"" + a.terminator + "\". This endpoint uses \"aws4_request\".");
    }
    long time;
    try {
      time = LocalDateTime.parse(a.amzDate, AMZ_DATE).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException e) {
      if (a.presigned) {
        throw a.malformed("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
      }
      throw S3Error.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
    }
    if (!a.amzDate.startsWith(a.scopeDate)) {
      throw a.malformed("Invalid credential date \"" + a.scopeDate + "\". This date is not the same as X-Amz-Date: \""
          + a.amzDate.substring(0, 8) + "\".");
    }
    return time;
  }

  private static void checkTime(Auth a, long requestTime, long now) {
    if (a.presigned) {
      if (requestTime - now > MAX_SKEW_MILLIS) {
        throw S3Error.accessDenied("Request is not valid yet");
      }
      if (now > requestTime + TimeUnit.SECONDS.toMillis(a.expiresSeconds)) {
        throw S3Error.accessDenied("Request has expired").with("X-Amz-Expires", Long.toString(a.expiresSeconds))
            .with("Expires", java.time.Instant.ofEpochMilli(requestTime + a.expiresSeconds * 1000).toString())
            .with("ServerTime", java.time.Instant.ofEpochMilli(now).toString());
      }
    } else if (Math.abs(now - requestTime) > MAX_SKEW_MILLIS) {
      throw new S3Error(403, "RequestTimeTooSkewed", "The difference between the request time and the current time "
          + "is too large.").with("RequestTime", a.amzDate)
          .with("ServerTime", java.time.Instant.ofEpochMilli(now).toString());
    }
  }

  private static S3Error unsupportedMechanism() {
    return new S3Error(400, "InvalidRequest", "The authorization mechanism you have provided is not supported. "
        + "Please use " + ALGORITHM + ".");
  }

  /** The query's parameters in order, names and values percent-decoded ({@code k} alone: value {@code ""}). */
  public static List<String[]> parseQuery(String rawQuery) {
    List<String[]> out = new ArrayList<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      out.add(new String[] {Xml.percentDecode(eq < 0 ? pair : pair.substring(0, eq)),
          eq < 0 ? "" : Xml.percentDecode(pair.substring(eq + 1))});
    }
    return out;
  }

  /** The first value of parameter {@code name}, or null. */
  public static String param(List<String[]> query, String name) {
    for (String[] kv : query) {
      if (kv[0].equals(name)) {
        return kv[1];
      }
    }
    return null;
  }

  private static String first(List<String> values) {
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static boolean constantTimeEquals(String a, String b) {
    return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8),
        b.getBytes(StandardCharsets.UTF_8));
  }
}
