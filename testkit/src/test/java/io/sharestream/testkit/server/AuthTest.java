package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuthTest {
  @TempDir Path tmp;
  DeltaSharingServer server;

  @BeforeEach
  void start() {
    Path dir = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.EVENTS).commit().dir();
    server = DeltaSharingServer.builder().bearerToken("s3cret").table("s", "sc", "t", dir, true).start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void missingOrWrongBearerTokenIs401() {
    assertThat(new Http(server, null).get("/shares").status).isEqualTo(401);
    Http.Response wrong = new Http(server, "nope").get("/shares");
    assertThat(wrong.status).isEqualTo(401);
    assertThat(wrong.header("Content-Type")).startsWith("text/plain");
    assertThat(wrong.raw.body()).isEqualTo("401 Unauthorized");
    assertThat(new Http(server, "s3cret").get("/shares").status).isEqualTo(200);
  }

  @Test
  void profileNamesTheEndpointAndToken() throws Exception {
    var profile = Http.JSON.readTree(server.profileJson());
    assertThat(profile.path("shareCredentialsVersion").asInt()).isEqualTo(1);
    assertThat(profile.path("endpoint").asText()).isEqualTo(server.endpoint()).startsWith("http://127.0.0.1:")
        .endsWith("/delta-sharing");
    assertThat(profile.path("bearerToken").asText()).isEqualTo("s3cret");
    Path file = server.writeProfile(tmp.resolve("p.share"));
    assertThat(Http.JSON.readTree(file.toFile()).path("bearerToken").asText()).isEqualTo("s3cret");
  }

  @Test
  void oauthClientCredentialsIssueExpiringTokensTheApiAccepts() throws Exception {
    server.enableOAuth("client", "secret", Duration.ofSeconds(3));
    Http.Response token = tokenRequest("client", "secret", "grant_type=client_credentials&scope=sharing");
    assertThat(token.status).isEqualTo(200);
    String access = token.json().path("access_token").asText();
    assertThat(token.json().path("expires_in").asLong()).isEqualTo(3);
    assertThat(token.json().path("scope").asText()).isEqualTo("sharing");
    assertThat(new Http(server, access).get("/shares").status).isEqualTo(200);
    Thread.sleep(3100); // past the token's 3 s lifetime
    assertThat(new Http(server, access).get("/shares").status).isEqualTo(401);

    assertThat(tokenRequest("client", "wrong", "grant_type=client_credentials").status).isEqualTo(401);
    assertThat(tokenRequest("client", "secret", "grant_type=password").status).isEqualTo(400);
    var v2 = Http.JSON.readTree(server.oauthProfileJson("client", "secret"));
    assertThat(v2.path("shareCredentialsVersion").asInt()).isEqualTo(2);
    assertThat(v2.path("type").asText()).isEqualTo("oauth_client_credentials");
    assertThat(v2.path("tokenEndpoint").asText()).isEqualTo(server.tokenEndpoint());
  }

  private Http.Response tokenRequest(String id, String secret, String form) {
    String basic = Base64.getEncoder().encodeToString((id + ":" + secret).getBytes(StandardCharsets.UTF_8));
    return Http.send(HttpRequest.newBuilder(URI.create(server.tokenEndpoint()))
        .header("Authorization", "Basic " + basic)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build());
  }
}
