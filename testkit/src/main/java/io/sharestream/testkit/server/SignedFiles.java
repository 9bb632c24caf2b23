package io.sharestream.testkit.server;

import java.time.Duration;

/** Signs URLs for one response: data files and deletion vector files, all expiring at the same instant. */
final class SignedFiles {
  final long expiration;
  private final FileUrls urls;
  private final String tableKey;

  SignedFiles(DeltaSharingServer server, SharedTable table) {
    this.urls = server.urls();
    this.tableKey = table.location().key;
    Duration ttl = server.faults().urlTtl() != null ? server.faults().urlTtl() : server.urlTtl();
    this.expiration = System.currentTimeMillis() + ttl.toMillis();
  }

  /** The pre-signed URL of a file named by its path relative to the table root (as in the log). */
  String url(String path) {
    return urls.sign(tableKey, path, expiration);
  }
}
