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
    SignedRequest r = signer(object).presignGet(object, clock.instant(), URL_VALIDITY);
    if (!r.headers().isEmpty()) {
      throw Errors.unsupportedStorageLocation(object.toString(), "its store needs request headers, which the "
          + "engines' file readers cannot send; read the table through URLs (accessMode=url) if the server offers "
          + "them");
    }
    return new Signed(r.url(), r.expiresAt().toEpochMilli());
  }

  /** A signer for {@code object} with fresh credentials of the location holding it. */
  synchronized StorageSigner signer(StorageLocation object) {
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
    StorageCredentials c = credentials.get(location);
    if (c == null || expiresSoon(c)) {
      c = StorageCredentials.fromJson(client.temporaryTableCredentials(table,
          location.equals(root) ? null : location.toString()));
      credentials.put(location, c);
    }
    return c.signer(settings);
  }

  /** Renewed when less than a quarter of their life (at most five minutes) is left. */
  private boolean expiresSoon(StorageCredentials c) {
    Instant now = clock.instant();
    return !now.plus(Duration.ofMinutes(5)).isBefore(c.expiresAt());
  }
}
