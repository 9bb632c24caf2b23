package io.sharestream.testkit.storage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An error answered as Amazon S3 answers it: an HTTP status and an {@code <Error>} XML document with its
 * {@code <Code>} (e.g. {@code AccessDenied}, {@code SignatureDoesNotMatch}), {@code <Message>} and any further elements
 * S3 adds for that code ({@code <AWSAccessKeyId>}, {@code <CanonicalRequest>}, {@code <StringToSign>}, ...).
 */
public final class S3Error extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status. */
  public final int status;
  /** S3's error code, the {@code <Code>} element. */
  public final String code;
  private final Map<String, String> details = new LinkedHashMap<>();

  /** An error with {@code status}, {@code code} and {@code message}. */
  public S3Error(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  /** Adds the element {@code <name>value</name>} after the message (S3's details of some codes). */
  public S3Error with(String name, String value) {
    details.put(name, value);
    return this;
  }

  /** {@code AccessDenied} (403) with {@code message}. */
  public static S3Error accessDenied(String message) {
    return new S3Error(403, "AccessDenied", message);
  }

  /** The error document, {@code requestId} in it. */
  public String xml(String requestId) {
    StringBuilder b = new StringBuilder(Xml.DECLARATION).append("<Error>");
    Xml.element(b, "Code", code);
    Xml.element(b, "Message", getMessage());
    details.forEach((k, v) -> Xml.element(b, k, v));
    Xml.element(b, "RequestId", requestId);
    Xml.element(b, "HostId", requestId);
    return b.append("</Error>").toString();
  }
}
