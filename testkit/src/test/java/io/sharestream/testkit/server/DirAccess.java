package io.sharestream.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Directory-based access for the kit's tests: temporary credentials vended over HTTP, and the AWS SDK v2's own S3
 * client and presigner configured with them (endpoint override, path-style, the store's region), so every request
 * the store verifies is signed by AWS's code, not the kit's.
 */
final class DirAccess {
  private DirAccess() {}

  /** {@code POST .../temporary-table-credentials} on {@code table}, with {@code body}. */
  static Http.Response vend(Http http, String table, String body) {
    return http.post(Http.tablePath(table) + "/temporary-table-credentials", body);
  }

  /** The {@code credentials} object of a successful vending of {@code table}'s root. */
  static JsonNode credentials(Http http, String table) {
    Http.Response r = vend(http, table, "{}");
    if (r.status != 200) {
      throw new AssertionError("vending failed: " + r.status + " " + r.raw.body());
    }
    return r.json().path("credentials");
  }

  /** The SDK's session credentials of a vended {@code credentials} object. */
  static AwsSessionCredentials session(JsonNode credentials) {
    JsonNode aws = credentials.path("awsTempCredentials");
    return AwsSessionCredentials.create(aws.path("accessKeyId").asText(), aws.path("secretAccessKey").asText(),
        aws.path("sessionToken").asText());
  }

  /** An S3 client for the server's object store, signing with {@code credentials}, without retries. */
  static S3Client s3(DeltaSharingServer server, AwsCredentials credentials) {
    ObjectStore store = server.objectStore();
    return S3Client.builder()
        .endpointOverride(URI.create(store.endpoint()))
        .region(Region.of(store.region()))
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }

  /** A presigner for the server's object store, signing with {@code credentials}. */
  static S3Presigner presigner(DeltaSharingServer server, AwsCredentials credentials) {
    ObjectStore store = server.objectStore();
    return S3Presigner.builder()
        .endpointOverride(URI.create(store.endpoint()))
        .region(Region.of(store.region()))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .credentialsProvider(StaticCredentialsProvider.create(credentials))
        .build();
  }
}
