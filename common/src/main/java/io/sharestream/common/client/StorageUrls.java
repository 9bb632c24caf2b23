package io.sharestream.common.client;

/**
 * Where the files of a table read from its storage directory can be fetched: URLs signed locally with the
 * credentials the sharing server vended for the table's locations, renewed before they expire.
 */
interface StorageUrls {
  /**
   * A URL to GET the file at {@code logPath}, a path as the table's log names it: relative to the table's root
   * (URI-encoded) or an absolute URI (a file in an auxiliary location).
   */
  Signed sign(String logPath);

  /** A signed URL and when it stops working. */
  final class Signed {
    private final String url;
    private final long expiresAt;

    Signed(String url, long expiresAt) {
      this.url = url;
      this.expiresAt = expiresAt;
    }

    /** The URL: a secret, never logged. */
    String url() {
      return url;
    }

    /** Epoch milliseconds. */
    long expiresAt() {
      return expiresAt;
    }

    @Override
    public String toString() {
      return "Signed{expiresAt=" + expiresAt + "}";
    }
  }
}
