package io.sharestream.common.storage;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;

/**
 * Signs requests to one object store with a table's {@link StorageCredentials}, locally and without I/O, so that
 * objects are read over plain HTTPS like pre-signed URLs: a GET of an object ({@link #presignGet}) and the pages of
 * a listing ({@link #presignList}, read back with {@link #parseList}). Made by
 * {@link StorageCredentials#signer(StorageSettings)}; thread-safe.
 */
public interface StorageSigner {
  /** How long a listing request stays valid: it is sent at once. */
  Duration LIST_VALIDITY = Duration.ofMinutes(15);

  /** The store these credentials reach. */
  StorageLocation.Store store();

  /**
   * A GET of {@code object}, valid from {@code now} until the earliest of {@code now + validity}, the credentials'
   * expiry and the store's longest signature (7 days for S3). For Azure and GCS the URL or header holds the token
   * itself, so {@code validity} only bounds the {@link SignedRequest#expiresAt()} reported.
   *
   * @throws IllegalArgumentException when {@code object} is not in this store or names no object, or
   *     {@code validity} is under one second
   * @throws IllegalStateException when the credentials expired at {@code now}: get new ones
   */
  SignedRequest presignGet(StorageLocation object, Instant now, Duration validity);

  /**
   * One page of the objects whose keys start with {@code prefix}'s key, in key order: the first page with
   * {@code pageToken} null, the next ones with the {@link ObjectListingPage#nextToken()} of the page before.
   * {@code startAfter} (a key, or null) asks for keys after it only; S3 applies it exactly, GCS from that key on
   * (inclusive) and Azure not at all, so filter with {@link ObjectListingPage#entriesAfter}. Valid for
   * {@link #LIST_VALIDITY}.
   *
   * @throws IllegalArgumentException when {@code prefix} is not in this store
   * @throws IllegalStateException when the credentials expired at {@code now}
   */
  SignedRequest presignList(StorageLocation prefix, String startAfter, String pageToken, Instant now);

  /**
   * Reads the answer to a {@link #presignList} request (HTTP 200), streaming: one page's entries are held, not the
   * body.
   *
   * @throws io.sharestream.common.errors.ProtocolViolationException when the body is not this store's listing
   */
  ObjectListingPage parseList(InputStream body) throws IOException;
}
