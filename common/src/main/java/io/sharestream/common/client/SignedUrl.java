package io.sharestream.common.client;

/**
 * Where a shared file can be downloaded now: a pre-signed URL that may expire. {@link #refresh()} asks the sharing
 * server again (same request, matched by file id) for a new URL, used once when storage answers 403.
 */
public interface SignedUrl {
  /** The URL to use for the next request. */
  String current();

  /** A fresh URL for the same file; fails when the file is gone or the server refuses. */
  String refresh();

  /** A fixed URL that cannot be refreshed. */
  static SignedUrl fixed(String url) {
    return new SignedUrl() {
      @Override
      public String current() {
        return url;
      }

      @Override
      public String refresh() {
        return url;
      }
    };
  }
}
