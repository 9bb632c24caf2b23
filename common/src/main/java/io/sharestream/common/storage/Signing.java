package io.sharestream.common.storage;

import java.time.Duration;
import java.time.Instant;

/** What every signer checks and computes alike. */
final class Signing {
  private Signing() {}

  /** Fails unless {@code location} is in {@code store} (and names an object, when {@code object}). */
  static void check(StorageLocation location, StorageLocation.Store store, boolean object) {
    if (location.store() != store) {
      throw new IllegalArgumentException(location + " is not in " + store + " storage");
    }
    if (object && (location.key().isEmpty() || location.key().endsWith("/"))) {
      throw new IllegalArgumentException(location + " names no object");
    }
  }

  static void checkValidity(Duration validity) {
    if (validity.getSeconds() < 1) {
      throw new IllegalArgumentException("A signed request must be valid for one second at least, not " + validity);
    }
  }

  /**
   * The earliest of {@code now + validity}, {@code limit} (null: none) and the credentials' expiry, which must be
   * after {@code now}.
   */
  static Instant expiry(StorageCredentials credentials, Instant now, Duration validity, Instant limit) {
    if (!credentials.expiresAt().isAfter(now)) {
      throw expired(credentials);
    }
    Instant e = now.plus(validity);
    if (limit != null && limit.isBefore(e)) {
      e = limit;
    }
    return credentials.expiresAt().isBefore(e) ? credentials.expiresAt() : e;
  }

  static IllegalStateException expired(StorageCredentials credentials) {
    return new IllegalStateException("The temporary credentials for " + credentials.location() + " expired at "
        + credentials.expiresAt() + ": ask the sharing server for new ones before signing.");
  }

  /** {@code name=value} with both encoded as in a query (RFC 3986), appended to {@code b} after a '&' if needed. */
  static void param(StringBuilder b, String name, String value) {
    if (b.length() > 0 && b.charAt(b.length() - 1) != '?') {
      b.append('&');
    }
    b.append(UriCodec.encode(name, false)).append('=').append(UriCodec.encode(value, false));
  }
}
