package io.sharestream.testkit.storage;

import java.time.Instant;

/**
 * Temporary credentials as an STS session gives them: an access key id ({@code ASIA...}), its secret, the session
 * token every request must carry, and an expiry; read access under one prefix of one bucket, as the session policy a
 * Delta Sharing server attaches ({@code s3:GetObject} on {@code bucket/prefix/*}, {@code s3:ListBucket} with
 * {@code s3:prefix} {@code prefix/*}).
 */
public final class SessionCredentials {
  private final String accessKeyId;
  private final String secretAccessKey;
  private final String sessionToken;
  private final String bucket;
  private final String prefix;
  private final String location;
  private final long expiresAtMillis;

  SessionCredentials(String accessKeyId, String secretAccessKey, String sessionToken, String bucket, String prefix,
      String location, long expiresAtMillis) {
    this.accessKeyId = accessKeyId;
    this.secretAccessKey = secretAccessKey;
    this.sessionToken = sessionToken;
    this.bucket = bucket;
    this.prefix = prefix;
    this.location = location;
    this.expiresAtMillis = expiresAtMillis;
  }

  public String accessKeyId() {
    return accessKeyId;
  }

  public String secretAccessKey() {
    return secretAccessKey;
  }

  public String sessionToken() {
    return sessionToken;
  }

  /** The location they were issued for, as asked ({@code s3://bucket/prefix}). */
  public String location() {
    return location;
  }

  /** The bucket they read. */
  public String bucket() {
    return bucket;
  }

  /** The key prefix they read under, without a trailing slash. */
  public String prefix() {
    return prefix;
  }

  /** When they stop working (epoch milliseconds): {@code expirationTime} of the protocol's answer. */
  public long expiresAtMillis() {
    return expiresAtMillis;
  }

  /** Whether they have expired at {@code nowMillis}. */
  public boolean expiredAt(long nowMillis) {
    return nowMillis >= expiresAtMillis;
  }

  /** Whether they may read {@code key} of {@code bucket}, or list with {@code key} as the prefix. */
  public boolean grants(String bucket, String key) {
    return this.bucket.equals(bucket) && key.startsWith(prefix + "/");
  }

  /** The key id, scope and expiry; never the secret or the token. */
  @Override
  public String toString() {
    return accessKeyId + " for s3://" + bucket + "/" + prefix + " until " + Instant.ofEpochMilli(expiresAtMillis);
  }
}
