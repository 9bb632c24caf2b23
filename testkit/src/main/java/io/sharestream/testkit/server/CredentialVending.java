package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.storage.Azurite;
import io.sharestream.testkit.storage.SessionCredentials;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code POST .../tables/{table}/temporary-table-credentials}: fresh temporary credentials for the table's root, or
 * for the location the body asks ({@code {"location": "s3://..."}}), which must be the root, an auxiliary location,
 * or a path under one of them (as the reference server allows). Refused as the reference server refuses: without
 * history shared, or for another location (400 {@code INVALID_PARAMETER_VALUE}); and for a table not shared for
 * {@link AccessMode#DIR} access (400 {@code UNSUPPORTED_OPERATION}). A table {@link SharedTable#storedInGcs} is vended
 * an OAuth token for the store's GCS API; one {@link SharedTable#storedInAzure}, a read-and-list SAS token for its
 * Azurite container.
 */
final class CredentialVending {
  private static final Pattern S3_LOCATION = Pattern.compile("(?i)(s3|s3a|s3n)://([^/]+)(/.*)?");
  private static final Pattern GCS_LOCATION = Pattern.compile("(?i)(gs)://([^/]+)(/.*)?");

  private final DeltaSharingServer server;

  CredentialVending(DeltaSharingServer server) {
    this.server = server;
  }

  int answer(Request req, SharedTable table) throws IOException {
    if (!table.accessModes().contains(AccessMode.DIR)) {
      throw new ProtocolError(400, ProtocolError.UNSUPPORTED, "Table " + table.fullName() + " is not shared for "
          + "directory-based access (accessModes " + modes(table) + "): temporary table credentials are not "
          + "available for it. Read it with the query and changes APIs.");
    }
    if (!table.historyShared) {
      throw ProtocolError.invalid("Temporary table credentials are not supported because history sharing is not "
          + "enabled on table: " + table.share + "." + table.schema + "." + table.name);
    }
    String asked = requestedLocation(req.body());
    Duration ttl = server.faults().credentialTtl() != null ? server.faults().credentialTtl() : server.credentialTtl();
    if (table.azureContainer() != null) {
      return azure(req, table, asked, ttl);
    }
    String location = asked != null ? asked : table.storageLocation();
    String prefix = prefixIfAllowed(table, location);
    if (prefix == null) {
      throw ProtocolError.invalid("The requested location must be the same as or under this table's configured "
          + "storage location.");
    }
    SessionCredentials c = server.objectStore().vault().issue(ObjectStore.BUCKET, prefix, location, ttl);
    ObjectNode body = Lines.JSON.createObjectNode();
    ObjectNode credentials = body.putObject("credentials");
    credentials.put("location", c.location());
    if (table.gcs()) {
      credentials.putObject("gcpOauthToken").put("oauthToken", GcsHandler.token(c));
    } else {
      credentials.putObject("awsTempCredentials").put("accessKeyId", c.accessKeyId())
          .put("secretAccessKey", c.secretAccessKey()).put("sessionToken", c.sessionToken());
    }
    credentials.put("expirationTime", c.expiresAtMillis());
    return ApiHandler.sendJson(req.exchange, 200, body);
  }

  /**
   * A read-and-list SAS token for the table's Azurite container ({@code azureUserDelegationSas}: what a client does
   * with it is the same for any SAS), for its root or a location under it.
   */
  private static int azure(Request req, SharedTable table, String asked, Duration ttl) throws IOException {
    String root = table.storageLocation();
    String location = asked != null ? asked.replaceAll("/+$", "") : root;
    if (!location.equals(root) && !location.startsWith(root + "/")) {
      throw ProtocolError.invalid("The requested location must be the same as or under this table's configured "
          + "storage location.");
    }
    // Azure's signed expiry is to the second: the token ends at the whole second before the expiry reported
    Instant expiry = Instant.now().plus(ttl).truncatedTo(ChronoUnit.SECONDS);
    ObjectNode body = Lines.JSON.createObjectNode();
    ObjectNode credentials = body.putObject("credentials");
    credentials.put("location", location);
    credentials.putObject("azureUserDelegationSas").put("sasToken", Azurite.containerSas(table.azureContainer(),
        "rl", expiry));
    credentials.put("expirationTime", expiry.toEpochMilli());
    return ApiHandler.sendJson(req.exchange, 200, body);
  }

  /** The body's {@code location}; none when the body is empty, not JSON or has none (as the reference reads it). */
  private static String requestedLocation(byte[] body) {
    try {
      JsonNode n = body.length == 0 ? null : Lines.JSON.readTree(body);
      return n != null && n.path("location").isTextual() ? n.get("location").asText() : null;
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The key prefix {@code location} names when it is the table's root or an auxiliary location or under one
   * ({@code s3}, {@code s3a} or {@code s3n}; {@code gs} for a table {@linkplain SharedTable#storedInGcs stored in
   * GCS}; repeated and trailing slashes ignored); null otherwise.
   */
  private static String prefixIfAllowed(SharedTable table, String location) {
    Matcher m = (table.gcs() ? GCS_LOCATION : S3_LOCATION).matcher(location);
    if (!m.matches() || !m.group(2).toLowerCase(Locale.ROOT).equals(ObjectStore.BUCKET)) {
      return null;
    }
    String path = m.group(3) == null ? "" : m.group(3).replaceAll("/+", "/");
    path = path.replaceAll("^/", "").replaceAll("/$", "");
    List<String> roots = new ArrayList<>();
    roots.add(table.keyRoot());
    for (int i = 1; i <= table.auxiliaryDirs().size(); i++) {
      roots.add(table.keyRoot() + ".aux" + i);
    }
    for (String root : roots) {
      if (path.equals(root) || path.startsWith(root + "/")) {
        for (String segment : path.split("/")) {
          if (segment.equals(".") || segment.equals("..")) {
            return null;
          }
        }
        return path;
      }
    }
    return null;
  }

  static String modes(SharedTable table) {
    StringBuilder b = new StringBuilder("[");
    for (AccessMode m : table.accessModes()) {
      b.append(b.length() == 1 ? "" : ",").append('"').append(m.protocolName()).append('"');
    }
    return b.append(']').toString();
  }
}
