package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * What the object store refuses, as S3 refuses it: requests without the session token, with another key, tampered
 * with, signed for another region, past their credentials' lifetime or their URL's, outside the credentials' location;
 * and the faults a test injects.
 */
class ObjectStoreAuthTest {
  private static final String COMMIT = "s/sc/events/_delta_log/00000000000000000000.json";

  @TempDir Path tmp;
  DeltaSharingServer server;
  Http http;
  JsonNode credentials;
  AwsSessionCredentials session;

  @BeforeEach
  void start() {
    DeltaTableWriter events = Fixtures.fiveVersions(tmp.resolve("events"), true);
    server = DeltaSharingServer.builder()
        .table("s", "sc", "events", events.dir(), true)
        .table("s", "sc", "other", events.dir(), true)
        .accessModes("s.sc.events", AccessMode.DIR)
        .accessModes("s.sc.other", AccessMode.DIR)
        .start();
    http = new Http(server);
    credentials = DirAccess.credentials(http, "s.sc.events");
    session = DirAccess.session(credentials);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private S3Exception refused(AwsSessionCredentials signer, String key) {
    return refused(DirAccess.s3(server, signer), key);
  }

  private static S3Exception refused(S3Client client, String key) {
    try (client) {
      return catchThrowableOfType(S3Exception.class,
          () -> client.getObjectAsBytes(b -> b.bucket("kit").key(key)));
    }
  }

  private String presigned(software.amazon.awssdk.auth.credentials.AwsCredentials signer, String key,
      Duration duration) {
    try (S3Presigner p = DirAccess.presigner(server, signer)) {
      return p.presignGetObject(b -> b.signatureDuration(duration).getObjectRequest(g -> g.bucket("kit").key(key)))
          .url().toString();
    }
  }

  private static String code(Http.Response r) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("<Code>(\\w+)</Code>").matcher(r.raw.body());
    return m.find() ? m.group(1) : null;
  }

  @Test
  void withoutTheSessionTokenIs403InvalidAccessKeyId() {
    AwsBasicCredentials noToken = AwsBasicCredentials.create(session.accessKeyId(), session.secretAccessKey());
    try (S3Client client = DirAccess.s3(server, noToken)) {
      S3Exception e = refused(client, COMMIT);
      assertThat(e.statusCode()).isEqualTo(403);
      assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidAccessKeyId");
    }
    Http.Response r = Http.download(presigned(noToken, COMMIT, Duration.ofMinutes(1)), null);
    assertThat(r.status).isEqualTo(403);
    assertThat(code(r)).isEqualTo("InvalidAccessKeyId");
    assertThat(r.header("Content-Type")).isEqualTo("application/xml");
  }

  @Test
  void anotherKeyOrAnotherCredentialsTokenIsRefused() {
    S3Exception unknown = refused(AwsSessionCredentials.create("ASIAUNKNOWNUNKNOWN00", session.secretAccessKey(),
        session.sessionToken()), COMMIT);
    assertThat(unknown.statusCode()).isEqualTo(403);
    assertThat(unknown.awsErrorDetails().errorCode()).isEqualTo("InvalidAccessKeyId");
    AwsSessionCredentials other = DirAccess.session(DirAccess.credentials(http, "s.sc.events"));
    S3Exception mixed = refused(AwsSessionCredentials.create(session.accessKeyId(), session.secretAccessKey(),
        other.sessionToken()), COMMIT);
    assertThat(mixed.statusCode()).as("S3 answers InvalidToken with 400").isEqualTo(400);
    assertThat(mixed.awsErrorDetails().errorCode()).isEqualTo("InvalidToken");
    S3Exception wrongSecret = refused(AwsSessionCredentials.create(session.accessKeyId(), other.secretAccessKey(),
        session.sessionToken()), COMMIT);
    assertThat(wrongSecret.statusCode()).isEqualTo(403);
    assertThat(wrongSecret.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch");
  }

  @Test
  void aTamperedPresignedUrlIs403SignatureDoesNotMatch() {
    String url = presigned(session, COMMIT, Duration.ofMinutes(5));
    assertThat(Http.download(url, null).status).isEqualTo(200);
    String[] tampered = {
        url.replace("00000000000000000000.json", "00000000000000000001.json"),
        url.replace("X-Amz-Expires=300", "X-Amz-Expires=600"),
        url.replaceAll("X-Amz-Signature=([0-9a-f])", "X-Amz-Signature=" + (url.contains("X-Amz-Signature=0") ? "1"
            : "0")),
        url + "&extra=1"};
    for (String t : tampered) {
      Http.Response r = Http.download(t, null);
      assertThat(r.status).as(t).isEqualTo(403);
      assertThat(code(r)).isEqualTo("SignatureDoesNotMatch");
      assertThat(r.raw.body()).contains("<CanonicalRequest>GET\n/kit/s/sc/events/_delta_log/");
    }
    String otherHost = url.replace("http://127.0.0.1:", "http://localhost:");
    assertThat(code(Http.download(otherHost, null))).as("the Host header is signed").isEqualTo("SignatureDoesNotMatch");
  }

  @Test
  void anUnsignedRequestIs403AccessDeniedAndAnotherRegion400() {
    Http.Response anonymous = Http.download(server.objectStore().endpoint() + "/kit/" + COMMIT, null);
    assertThat(anonymous.status).isEqualTo(403);
    assertThat(code(anonymous)).isEqualTo("AccessDenied");
    S3Client westClient = S3Client.builder().endpointOverride(URI.create(server.objectStore().endpoint()))
        .region(software.amazon.awssdk.regions.Region.EU_WEST_1).forcePathStyle(true)
        .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(session))
        .build();
    S3Exception west = refused(westClient, COMMIT);
    assertThat(west.statusCode()).isEqualTo(400);
    assertThat(west.awsErrorDetails().errorCode()).isEqualTo("AuthorizationHeaderMalformed");
    assertThat(west.awsErrorDetails().errorMessage()).contains("the region 'eu-west-1' is wrong; expecting "
        + "'us-east-1'");
  }

  @Test
  void afterTheCredentialsLifetimeRequestsAreRefusedWithExpiredToken() throws Exception {
    server.faults().credentialTtl(Duration.ofMillis(1500));
    AwsSessionCredentials shortLived = DirAccess.session(DirAccess.credentials(http, "s.sc.events"));
    String url = presigned(shortLived, COMMIT, Duration.ofMinutes(10));
    try (S3Client client = DirAccess.s3(server, shortLived)) {
      assertThat(client.getObjectAsBytes(b -> b.bucket("kit").key(COMMIT)).asByteArray()).isNotEmpty();
      assertThat(Http.download(url, null).status).isEqualTo(200);
      Thread.sleep(1600);
      S3Exception e = refused(client, COMMIT);
      assertThat(e.statusCode()).as("S3 answers ExpiredToken with 400").isEqualTo(400);
      assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ExpiredToken");
    }
    assertThat(code(Http.download(url, null))).as("a presigned URL outliving its credentials").isEqualTo("ExpiredToken");
    assertThat(DirAccess.s3(server, session).getObjectAsBytes(b -> b.bucket("kit").key(COMMIT)).asByteArray())
        .as("credentials of the default lifetime").isNotEmpty();
  }

  @Test
  void aPresignedUrlPastItsExpiryIs403AccessDenied() throws Exception {
    String url = presigned(session, COMMIT, Duration.ofSeconds(1));
    Thread.sleep(2100);
    Http.Response r = Http.download(url, null);
    assertThat(r.status).isEqualTo(403);
    assertThat(code(r)).isEqualTo("AccessDenied");
    assertThat(r.raw.body()).contains("Request has expired");
  }

  @Test
  void credentialsReadOnlyUnderTheirLocation() {
    S3Exception otherTable = refused(session, "s/sc/other/_delta_log/00000000000000000000.json");
    assertThat(otherTable.statusCode()).isEqualTo(403);
    assertThat(otherTable.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    try (S3Client client = DirAccess.s3(server, session)) {
      for (String prefix : new String[] {"s/sc/other/", "s/sc/", "", "s/sc/events"}) {
        S3Exception e = catchThrowableOfType(S3Exception.class,
            () -> client.listObjectsV2(b -> b.bucket("kit").prefix(prefix)));
        assertThat(e.statusCode()).as(prefix).isEqualTo(403);
      }
      assertThatThrownBy(() -> client.headBucket(b -> b.bucket("kit"))).isInstanceOf(S3Exception.class);
      S3Exception missing = catchThrowableOfType(S3Exception.class,
          () -> client.getObjectAsBytes(b -> b.bucket("kit").key("s/sc/events/_delta_log/missing.json")));
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(missing.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
    }
    JsonNode logOnly = DirAccess.vend(http, "s.sc.events", "{\"location\":\"s3://kit/s/sc/events/_delta_log\"}")
        .json().path("credentials");
    try (S3Client client = DirAccess.s3(server, DirAccess.session(logOnly))) {
      assertThat(client.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events/_delta_log/")).keyCount())
          .isGreaterThan(4);
      S3Exception data = catchThrowableOfType(S3Exception.class,
          () -> client.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events/")));
      assertThat(data.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    }
  }

  @Test
  void injectedFaultsAnswerAsS3AndEveryRequestIsCounted() {
    try (S3Client client = DirAccess.s3(server, session)) {
      server.faults().failWith(Endpoint.OBJECT_STORE, 1, 403);
      S3Exception denied = catchThrowableOfType(S3Exception.class,
          () -> client.getObjectAsBytes(b -> b.bucket("kit").key(COMMIT)));
      assertThat(denied.statusCode()).isEqualTo(403);
      assertThat(denied.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
      server.faults().failWith(Endpoint.OBJECT_STORE, 1, 503);
      assertThat(catchThrowableOfType(S3Exception.class,
          () -> client.getObjectAsBytes(b -> b.bucket("kit").key(COMMIT))).awsErrorDetails().errorCode())
          .isEqualTo("SlowDown");
      assertThat(client.getObjectAsBytes(b -> b.bucket("kit").key(COMMIT)).asByteArray()).isNotEmpty();

      server.faults().storageLatency(Duration.ofMillis(200));
      long start = System.nanoTime();
      client.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events/_delta_log/"));
      assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
      server.faults().clear();
      server.faults().slowStorage(Duration.ofMillis(150));
      start = System.nanoTime();
      client.getObjectAsBytes(b -> b.bucket("kit").key(COMMIT));
      assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(150).toNanos());
    }
    assertThat(server.requests().count(Endpoint.OBJECT_STORE)).isEqualTo(5);
    assertThat(server.requests().entries(Endpoint.OBJECT_STORE)).extracting(e -> e.status)
        .containsExactly(403, 503, 200, 200, 200);
    assertThat(server.requests().entries(Endpoint.OBJECT_STORE).get(3).query).contains("list-type=2")
        .contains("prefix=");
  }
}
