package io.sharestream.common.storage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** One page of an object listing: its objects in key order, and the token of the next page if there is one. */
public final class ObjectListingPage {
  private final List<Entry> entries;
  private final String nextToken;

  /** A page of {@code entries} (copied), followed by the page of {@code nextToken} (null or empty: none). */
  public ObjectListingPage(List<Entry> entries, String nextToken) {
    this.entries = Collections.unmodifiableList(new ArrayList<>(entries));
    this.nextToken = nextToken == null || nextToken.isEmpty() ? null : nextToken;
  }

  public List<Entry> entries() {
    return entries;
  }

  /** The token to ask for the next page with (S3 continuation token, Azure marker, GCS page token); null: last. */
  public String nextToken() {
    return nextToken;
  }

  public boolean hasMore() {
    return nextToken != null;
  }

  /**
   * The entries whose keys sort after {@code startAfter} (null: all) in the stores' order, that of their UTF-8
   * bytes: what a listing from {@code startAfter} keeps of a page where the store could not leave the others out.
   */
  public List<Entry> entriesAfter(String startAfter) {
    if (startAfter == null) {
      return entries;
    }
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      if (compareUtf8(e.key, startAfter) > 0) {
        out.add(e);
      }
    }
    return out;
  }

  /** Compares as the UTF-8 bytes of both would: by code point (not by UTF-16 unit, as String.compareTo does). */
  static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  @Override
  public String toString() {
    return "ObjectListingPage{" + entries.size() + " entries" + (nextToken == null ? "" : ", more") + "}";
  }

  /** An object of a listing. */
  public static final class Entry {
    private final String key;
    private final long size;
    private final long lastModified;

    /** The object {@code key} of {@code size} bytes, modified at {@code lastModified} (epoch ms, -1: unknown). */
    public Entry(String key, long size, long lastModified) {
      this.key = Objects.requireNonNull(key, "key");
      this.size = size;
      this.lastModified = lastModified;
    }

    /** The key (blob or object name) relative to the bucket or container, decoded. */
    public String key() {
      return key;
    }

    public long size() {
      return size;
    }

    /** Epoch milliseconds; -1 when the listing did not say. */
    public long lastModified() {
      return lastModified;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Entry)) {
        return false;
      }
      Entry e = (Entry) o;
      return key.equals(e.key) && size == e.size && lastModified == e.lastModified;
    }

    @Override
    public int hashCode() {
      return Objects.hash(key, size, lastModified);
    }

    @Override
    public String toString() {
      return key + " (" + size + " bytes, modified " + lastModified + ")";
    }
  }
}
