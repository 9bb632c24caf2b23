package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST .../temporary-table-credentials} (protocol "Generate Temporary Table Credential"). */
class TemporaryCredentialsTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  Http http;

  @BeforeEach
  void start() {
    Path events = Fixtures.fiveVersions(tmp.resolve("events"), true).dir();
    server = DeltaSharingServer.builder()
        .table("s", "sc", "t", events, true)
        .table("s", "sc", "t2", events, true)
        .table("s", "sc", "nohistory", events, false)
        .accessModes("s.sc.t", AccessMode.DIR)
        .auxiliaryLocation("s.sc.t", tmp.resolve("aux"))
        .accessModes("s.sc.t2", AccessMode.DIR)
        .accessModes("s.sc.nohistory", AccessMode.URL, AccessMode.DIR)
        .credentialTtl(Duration.ofMinutes(5))
        .start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void everyCallVendsFreshAwsCredentialsForTheTableRoot() {
    long before = System.currentTimeMillis();
    Http.Response r = DirAccess.vend(http, "s.sc.t", "");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
    JsonNode c = r.json().path("credentials");
    assertThat(c.path("location").asText()).isEqualTo("s3://kit/s/sc/t");
    assertThat(c.path("expirationTime").asLong()).isBetween(before + 300_000, System.currentTimeMillis() + 300_000);
    JsonNode aws = c.path("awsTempCredentials");
    assertThat(aws.path("accessKeyId").asText()).matches("ASIA[A-Z2-7]{16}");
    assertThat(aws.path("secretAccessKey").asText()).hasSize(40);
    assertThat(aws.path("sessionToken").asText()).hasSizeGreaterThan(100);
    assertThat(c.has("azureUserDelegationSas") || c.has("gcpOauthToken")).isFalse();

    JsonNode again = DirAccess.credentials(http, "s.sc.t").path("awsTempCredentials");
    for (String field : new String[] {"accessKeyId", "secretAccessKey", "sessionToken"}) {
      assertThat(again.path(field).asText()).as(field).isNotEqualTo(aws.path(field).asText());
    }
    assertThat(server.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isEqualTo(2);
  }

  @Test
  void theDefaultLifetimeIsAnHourAndFaultsShortenIt() {
    try (DeltaSharingServer defaults = DeltaSharingServer.builder()
        .table("s", "sc", "t", server.tables().get("s.sc.t").dir(), true).accessModes("s.sc.t", AccessMode.DIR)
        .start()) {
      Http h = new Http(defaults);
      long now = System.currentTimeMillis();
      assertThat(DirAccess.credentials(h, "s.sc.t").path("expirationTime").asLong())
          .isBetween(now + 3_590_000, now + 3_610_000);
      defaults.faults().credentialTtl(Duration.ofSeconds(30));
      assertThat(DirAccess.credentials(h, "s.sc.t").path("expirationTime").asLong())
          .isBetween(now, System.currentTimeMillis() + 30_000);
      defaults.faults().clear();
      assertThat(DirAccess.credentials(h, "s.sc.t").path("expirationTime").asLong())
          .isGreaterThan(now + 3_590_000);
    }
  }

  @Test
  void locationsAtOrUnderTheRootOrAnAuxiliaryLocationAreVendedOthersRefused() {
    for (String location : new String[] {"s3://kit/s/sc/t", "s3a://kit/s/sc/t/", "s3://kit/s/sc/t/_delta_log",
        "s3://KIT//s/sc/t//_delta_log", "s3://kit/s/sc/t.aux1", "s3://kit/s/sc/t.aux1/part"}) {
      Http.Response r = DirAccess.vend(http, "s.sc.t", "{\"location\":\"" + location + "\"}");
      assertThat(r.status).as(location).isEqualTo(200);
      assertThat(r.json().path("credentials").path("location").asText()).isEqualTo(location);
    }
    for (String location : new String[] {"s3://kit/s/sc/t2", "s3://kit/s/sc", "s3://other/s/sc/t",
        "s3://kit/s/sc/t/../t2", "s3://kit/s/sc/t.aux2", "gs://kit/s/sc/t", "/s/sc/t"}) {
      Http.Response r = DirAccess.vend(http, "s.sc.t", "{\"location\":\"" + location + "\"}");
      assertThat(r.status).as(location).isEqualTo(400);
      assertThat(r.errorCode()).isEqualTo("INVALID_PARAMETER_VALUE");
      assertThat(r.message()).isEqualTo("The requested location must be the same as or under this table's "
          + "configured storage location.");
    }
    Http.Response unreadable = DirAccess.vend(http, "s.sc.t", "not json");
    assertThat(unreadable.status).as("a body the reference server cannot read: the root").isEqualTo(200);
    assertThat(unreadable.json().path("credentials").path("location").asText()).isEqualTo("s3://kit/s/sc/t");
  }

  @Test
  void refusalsAreTheReferenceServersAndTheProtocolsErrors() {
    Http.Response noHistory = DirAccess.vend(http, "s.sc.nohistory", "{}");
    assertThat(noHistory.status).isEqualTo(400);
    assertThat(noHistory.errorCode()).isEqualTo("INVALID_PARAMETER_VALUE");
    assertThat(noHistory.message()).isEqualTo("Temporary table credentials are not supported because history sharing "
        + "is not enabled on table: s.sc.nohistory");
    assertThat(DirAccess.vend(new Http(server, "wrong"), "s.sc.t", "{}").status).isEqualTo(401);
    Http.Response missing = DirAccess.vend(http, "s.sc.missing", "{}");
    assertThat(missing.status).isEqualTo(404);
    assertThat(missing.errorCode()).isEqualTo("RESOURCE_DOES_NOT_EXIST");
    server.tables().get("s.sc.t").accessDenied(true);
    assertThat(DirAccess.vend(http, "s.sc.t", "{}").errorCode()).isEqualTo("PERMISSION_DENIED");
    Http.Response get = http.get(Http.tablePath("s.sc.t2") + "/temporary-table-credentials");
    assertThat(get.status).isEqualTo(405);
  }

  @Test
  void theVendingEndpointTakesFaultsLikeTheOthers() {
    server.faults().failWith(Endpoint.TEMPORARY_CREDENTIALS, 1, 503);
    Http.Response failed = DirAccess.vend(http, "s.sc.t", "{}");
    assertThat(failed.status).isEqualTo(503);
    assertThat(failed.errorCode()).isEqualTo("INTERNAL_ERROR");
    server.faults().rateLimit(Endpoint.TEMPORARY_CREDENTIALS, 1, 2);
    Http.Response limited = DirAccess.vend(http, "s.sc.t", "{}");
    assertThat(limited.status).isEqualTo(429);
    assertThat(limited.header("Retry-After")).isEqualTo("2");
    server.faults().delay(Endpoint.TEMPORARY_CREDENTIALS, 1, Duration.ofMillis(300));
    long start = System.nanoTime();
    assertThat(DirAccess.vend(http, "s.sc.t", "{}").status).isEqualTo(200);
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    assertThat(server.requests().entries(Endpoint.TEMPORARY_CREDENTIALS)).extracting(e -> e.status)
        .containsExactly(503, 429, 200);
  }
}
