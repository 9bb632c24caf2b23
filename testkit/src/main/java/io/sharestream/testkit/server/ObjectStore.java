package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.storage.CredentialVault;
import io.sharestream.testkit.storage.Mount;
import io.sharestream.testkit.storage.SessionCredentials;
import io.sharestream.testkit.storage.SigV4Verifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's S3-compatible object store in front of the shared tables' directories, for directory-based access
 * ({@link AccessMode#DIR}): bucket {@value #BUCKET}, a table's root at key prefix {@code <share>/<schema>/<table>}
 * (its {@link SharedTable#storageLocation()} {@code s3://kit/<share>/<schema>/<table>}), its auxiliary locations at
 * {@code <share>/<schema>/<table>.aux<n>}. Served on the server's own host and port, path-style only
 * ({@code <endpoint>/kit/<key>}; virtual-hosted-style addressing is not), in region {@value #REGION}: {@code GET} and
 * {@code HEAD} of objects (a single {@code Range}), and {@code ListObjectsV2}. Every request must be signed with
 * Signature Version 4 (header or presigned URL) by credentials the server vended at
 * {@code temporary-table-credentials}, carry their session token, fall within their lifetime and their location;
 * answers and errors are S3's (XML). Requests are counted as {@link Endpoint#OBJECT_STORE}, faults on that endpoint
 * apply, and so do {@link Faults#storageLatency}, {@link Faults#slowStorage} and {@link Faults#holdDownloads}.
 *
 * <pre>{@code
 * S3Client s3 = S3Client.builder()
 *     .endpointOverride(URI.create(server.objectStore().endpoint()))
 *     .region(Region.of(server.objectStore().region()))
 *     .forcePathStyle(true)
 *     .credentialsProvider(StaticCredentialsProvider.create(
 *         AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken)))
 *     .build();
 * }</pre>
 */
public final class ObjectStore {
  /** The bucket the tables are served in. */
  public static final String BUCKET = "kit";
  /** The region requests must be signed for. */
  public static final String REGION = "us-east-1";

  private final DeltaSharingServer server;
  private final CredentialVault vault = new CredentialVault();
  private final SigV4Verifier verifier = new SigV4Verifier(vault, REGION);

  ObjectStore(DeltaSharingServer server) {
    this.server = server;
  }

  /**
   * The endpoint to give an S3 client, and a GCS client for tables {@linkplain SharedTable#storedInGcs stored in GCS}:
   * the server's base URL, {@code http://127.0.0.1:<port>} by default.
   */
  public String endpoint() {
    return server.baseUrl();
  }

  /** The region to sign for: {@value #REGION}. */
  public String region() {
    return REGION;
  }

  /** The bucket: {@value #BUCKET}. */
  public String bucket() {
    return BUCKET;
  }

  /** The root location of the shared table {@code fullName}: {@code s3://kit/<share>/<schema>/<table>}. */
  public String location(String fullName) {
    return server.tables().get(fullName).storageLocation();
  }

  /**
   * The secret parts (secret access keys and session tokens) of every credential vended so far: what a test checks
   * never reaches a log, an error or an offset.
   */
  public List<String> vendedSecrets() {
    List<String> out = new ArrayList<>();
    for (SessionCredentials c : vault.all()) {
      out.add(c.secretAccessKey());
      out.add(c.sessionToken());
    }
    return out;
  }

  CredentialVault vault() {
    return vault;
  }

  SigV4Verifier verifier() {
    return verifier;
  }

  /** The table whose root or auxiliary location holds {@code key}, or null. */
  SharedTable tableOf(String key) {
    for (SharedTable t : server.tables().all()) {
      if (!t.view && key.startsWith(t.keyRoot()) && mountOf(t, key) != null) {
        return t;
      }
    }
    return null;
  }

  /** The mount (a table's root or auxiliary directory) holding {@code key}, or null. */
  Mount mountOf(String key) {
    SharedTable t = tableOf(key);
    return t == null ? null : mountOf(t, key);
  }

  private static Mount mountOf(SharedTable t, String key) {
    Mount root = new Mount(BUCKET, t.keyRoot(), t.dir());
    if (root.contains(key)) {
      return root;
    }
    List<Path> aux = t.auxiliaryDirs();
    for (int i = 0; i < aux.size(); i++) {
      Mount m = new Mount(BUCKET, t.keyRoot() + ".aux" + (i + 1), aux.get(i));
      if (m.contains(key)) {
        return m;
      }
    }
    return null;
  }

  /**
   * The fields a table's list entry and metaData lines carry once its access modes are set: {@code location} (not a
   * view's), {@code auxiliaryLocations} (when it has any) and {@code accessModes}; null before.
   */
  static ObjectNode accessFields(SharedTable t) {
    if (!t.accessModesAdvertised()) {
      return null;
    }
    ObjectNode n = Lines.JSON.createObjectNode();
    if (!t.view) { // a view has no directory of its own
      n.put("location", t.storageLocation());
    }
    List<String> aux = t.auxiliaryStorageLocations();
    if (!aux.isEmpty()) {
      ArrayNode a = n.putArray("auxiliaryLocations");
      aux.forEach(a::add);
    }
    ArrayNode modes = n.putArray("accessModes");
    t.accessModes().forEach(m -> modes.add(m.protocolName()));
    return n;
  }
}
