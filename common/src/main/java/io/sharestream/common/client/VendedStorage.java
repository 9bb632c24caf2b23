package io.sharestream.common.client;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.model.TableAccess;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.storage.SignedRequest;
import io.sharestream.common.storage.StorageCredentials;
import io.sharestream.common.storage.StorageLocation;
import io.sharestream.common.storage.StorageSettings;
import io.sharestream.common.storage.StorageSigner;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage of one table shared for directory access: credentials for its root and auxiliary locations, asked of
 * the sharing server when first needed and again before they expire, and the requests signed with them. Signed
 * URLs live at most {@link #URL_VALIDITY}, never past their credentials.
 */
final class VendedStorage implements StorageUrls {
  /** The longest a signed GET stays valid (the planner refreshes URLs nearing expiry, as it does the server's). */
  static final Duration URL_VALIDITY = Duration.ofHours(1);

  private final DeltaSharingClient client;
  private final TableRef table;
  private final StorageLocation root;
  private final List<StorageLocation> locations = new ArrayList<>();
  private final StorageSettings settings;
  private final Clock clock;
  private final Map<StorageLocation, StorageCredentials> credentials = new LinkedHashMap<>();
  /** When each location's credentials were vended. */
  private final Map<StorageLocation, Instant> vendedAt = new LinkedHashMap<>();

  VendedStorage(DeltaSharingClient client, TableRef table, TableAccess access, StorageSettings settings, Clock clock) {
    this.client = client;
    this.table = table;
    this.root = StorageLocation.parse(access.location());
    this.locations.add(root);
    for (String aux : access.auxiliaryLocations()) {
      locations.add(StorageLocation.parse(aux));
    }
    this.settings = settings;
    this.clock = clock;
  }

  StorageLocation root() {
    return root;
  }

  @Override
  public Signed sign(String logPath) {
    StorageLocation object = root.resolve(logPath);
    SignedRequest r = presignGet(object);
    return new Signed(UrlHeaders.attach(r), r.expiresAt().toEpochMilli());
  }

  /** A GET of {@code object}, signed with credentials that have not expired. */
  SignedRequest presignGet(StorageLocation object) {
    try {
      return signer(object).presignGet(object, clock.instant(), URL_VALIDITY);
    } catch (IllegalStateException expired) { // they expired between the check and the signature: vend anew
      renew(object);
      return signer(object).presignGet(object, clock.instant(), URL_VALIDITY);
    }
  }

  /** One page of the listing of {@code prefix}, signed with credentials that have not expired. */
  SignedRequest presignList(StorageLocation prefix, String startAfter, String pageToken) {
    try {
      return signer(prefix).presignList(prefix, startAfter, pageToken, clock.instant());
    } catch (IllegalStateException expired) {
      renew(prefix);
      return signer(prefix).presignList(prefix, startAfter, pageToken, clock.instant());
    }
  }

  /** Drops the credentials of the location holding {@code object}: storage refused them, or they expired. */
  synchronized void renew(StorageLocation object) {
    credentials.remove(location(object));
  }

  /** A signer for {@code object} with fresh credentials of the location holding it. */
  synchronized StorageSigner signer(StorageLocation object) {
    StorageLocation location = location(object);
    StorageCredentials c = credentials.get(location);
    if (c == null || expiresSoon(c, vendedAt.get(location))) {
      Instant now = clock.instant();
      c = StorageCredentials.fromJson(client.temporaryTableCredentials(table,
          location.equals(root) ? null : location.toString()));
      credentials.put(location, c);
      vendedAt.put(location, now);
    }
    return c.signer(settings);
  }

  /** The root or auxiliary location {@code object} lies in (the deepest one holding it). */
  private StorageLocation location(StorageLocation object) {
    StorageLocation location = null;
    for (StorageLocation l : locations) {
      if (object.isUnder(l) && (location == null || l.key().length() > location.key().length())) {
        location = l;
      }
    }
    if (location == null) {
      throw Errors.unsupportedStorageLocation(object.toString(), "it lies outside the locations " + table
          + " is shared from (" + locations + ")");
    }
    return location;
  }

  /**
   * Renewed when less than a quarter of their life, and at most five minutes, is left: credentials that live an hour
   * are renewed five minutes ahead, ones that live a minute fifteen seconds ahead.
   */
  private boolean expiresSoon(StorageCredentials c, Instant vended) {
    Duration life = Duration.between(vended, c.expiresAt());
    Duration margin = life.dividedBy(4).compareTo(RENEW_AHEAD) < 0 ? life.dividedBy(4) : RENEW_AHEAD;
    return !clock.instant().plus(margin).isBefore(c.expiresAt());
  }

  private static final Duration RENEW_AHEAD = Duration.ofMinutes(5);
}
