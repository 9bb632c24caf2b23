package io.sharestream.common.storage;

import io.sharestream.common.errors.Errors;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A GET request signed for an object store: its URL, the headers it must carry (none for S3 and Azure, whose URLs
 * hold their signature; {@code Authorization} for GCS, whose OAuth token only a header carries), and when it stops
 * being usable. {@link #toString()} shows neither the URL's query nor a header's value.
 */
public final class SignedRequest {
  private final String url;
  private final Map<String, String> headers;
  private final Instant expiresAt;

  /** A request to {@code url} with {@code headers} (copied), usable until {@code expiresAt}. */
  public SignedRequest(String url, Map<String, String> headers, Instant expiresAt) {
    this.url = Objects.requireNonNull(url, "url");
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.expiresAt = Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** The URL to GET; it holds the signature for S3 and Azure. */
  public String url() {
    return url;
  }

  /** The headers the request must carry, in order; empty unless the store needs them (GCS). */
  public Map<String, String> headers() {
    return headers;
  }

  /** When the request stops being accepted: sign a new one before. */
  public Instant expiresAt() {
    return expiresAt;
  }

  @Override
  public String toString() {
    return "GET " + Errors.safeUrl(url) + (headers.isEmpty() ? "" : " with headers " + headers.keySet())
        + " until " + expiresAt;
  }
}
