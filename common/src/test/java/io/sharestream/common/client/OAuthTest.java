package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import io.sharestream.common.errors.OAuthTokenException;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.jvm.MovableClock;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OAuthTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  DeltaSharingServer server;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();

  @BeforeEach
  void start() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), DeltaSharingClientTest.SCHEMA).commit();
    server = DeltaSharingServer.builder().table("s", "sc", "t", t.dir(), true).start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private DeltaSharingClient client(String secret, Clock clock) {
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(server.oauthProfileJson("app", secret)),
        Kit.settings(sleeper), clock);
  }

  @Test
  void tokenIsFetchedOnceAndReusedUntilNearExpiry() {
    server.enableOAuth("app", "secret", Duration.ofHours(1));
    MovableClock clock = new MovableClock();
    DeltaSharingClient c = client("secret", clock);
    for (int i = 0; i < 5; i++) {
      assertThat(c.tableVersion(T)).isZero();
    }
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(1);
    clock.advance(Duration.ofMinutes(49)); // more than 10 minutes left: keep
    c.tableVersion(T);
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(1);
    clock.advance(Duration.ofMinutes(2)); // less than 10 minutes left: renew before expiry
    c.tableVersion(T);
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(2);
  }

  @Test
  void concurrentCallersShareOneTokenFetch() throws Exception {
    server.enableOAuth("app", "secret", Duration.ofHours(1));
    DeltaSharingClient c = client("secret", Clock.systemUTC());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Long>> calls = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        calls.add(() -> c.tableVersion(T));
      }
      for (Future<Long> f : pool.invokeAll(calls)) {
        assertThat(f.get()).isZero();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(1);
  }

  @Test
  void a401WithAnExpiredTokenFetchesANewOneOnce() throws Exception {
    server.enableOAuth("app", "secret", Duration.ofSeconds(3));
    MovableClock frozen = new MovableClock(); // the client believes its token is fresh
    DeltaSharingClient c = client("secret", frozen);
    c.tableVersion(T);
    Thread.sleep(3100); // the server-side lifetime (3 s) passes
    assertThat(c.tableVersion(T)).isZero();
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(2);
  }

  @Test
  void tokenEndpointOutageIsRetried() {
    server.enableOAuth("app", "secret", Duration.ofHours(1));
    server.faults().failWith(Endpoint.OAUTH_TOKEN, 2, 503);
    assertThat(client("secret", Clock.systemUTC()).tableVersion(T)).isZero();
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(3);
  }

  @Test
  void wrongClientSecretIsUnauthorizedAndNeverShown() {
    server.enableOAuth("app", "secret", Duration.ofHours(1));
    assertThatThrownBy(() -> client("WRONG-SECRET", Clock.systemUTC()).tableVersion(T))
        .isInstanceOf(UnauthorizedException.class).hasMessageContaining("clientId, clientSecret")
        .hasMessageNotContaining("WRONG-SECRET");
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(1);
  }

  @Test
  void refusedCredentialsNameTheTokenEndpointAndTheFieldAtFault() {
    server.enableOAuth("app", "secret", Duration.ofHours(1));
    OAuthTokenException e = catchThrowableOfType(() -> client("WRONG-SECRET", Clock.systemUTC()).authenticate(),
        OAuthTokenException.class);
    assertThat(e.getMessage()).startsWith("The OAuth token endpoint " + server.tokenEndpoint() + " refused the "
        + "profile's client credentials (HTTP 401, invalid_client).").doesNotContain("Delta Sharing server");
    assertThat(e.profileField()).isEqualTo("clientSecret");
    assertThat(e.tokenEndpoint()).isEqualTo(server.tokenEndpoint());
    assertThat(server.requests().count(Endpoint.OAUTH_TOKEN)).isEqualTo(1); // a refusal is not retried
  }

  @Test
  void aTokenEndpointThatKeepsFailingIsNamedNotTheSharingServer() {
    server.enableOAuth("app", "secret", Duration.ofHours(1));
    server.faults().failWith(Endpoint.OAUTH_TOKEN, 10, 503);
    assertThatThrownBy(() -> client("secret", Clock.systemUTC()).tableVersion(T))
        .isInstanceOf(ServerErrorException.class)
        .hasMessageStartingWith("The OAuth token endpoint " + server.tokenEndpoint() + " kept failing after 4 "
            + "attempts").hasMessageNotContaining("Delta Sharing server");
  }

  /** A token endpoint answering every POST with {@code status} and {@code body}. */
  private static HttpServer tokenEndpoint(int status, String body) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext("/token", x -> {
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      x.getResponseHeaders().set("Content-Type", "application/json");
      x.sendResponseHeaders(status, b.length);
      try (OutputStream out = x.getResponseBody()) {
        out.write(b);
      }
    });
    http.start();
    return http;
  }

  private OAuthTokenException refusal(int status, String body) throws IOException {
    HttpServer http = tokenEndpoint(status, body);
    try {
      String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/token";
      String profile = server.oauthProfileJson("app", "S3CRET").replace(server.tokenEndpoint(), url);
      DeltaSharingClient c = new DeltaSharingClient(DeltaSharingProfile.fromJson(profile), Kit.settings(sleeper));
      OAuthTokenException e = catchThrowableOfType(c::authenticate, OAuthTokenException.class);
      assertThat(e.getMessage()).contains("The OAuth token endpoint " + url + " ").doesNotContain("S3CRET");
      return e;
    } finally {
      http.stop(0);
    }
  }

  @Test
  void anAnswerWithoutAnAccessTokenPointsAtTheTokenEndpoint() throws IOException {
    OAuthTokenException e = refusal(200, "{\"token_type\":\"bearer\",\"expires_in\":3600}");
    assertThat(e.getMessage()).contains("answered HTTP 200 without an access_token")
        .contains("Check the profile's tokenEndpoint");
    assertThat(e.profileField()).isEqualTo("tokenEndpoint");
    assertThat(refusal(200, "<html>sign in</html>").getMessage()).contains("a body that is not JSON");
    assertThat(refusal(404, "").profileField()).isEqualTo("tokenEndpoint");
  }

  @Test
  void anOAuthErrorCodeNamesTheFieldAtFault() throws IOException {
    OAuthTokenException scope = refusal(400, "{\"error\":\"invalid_scope\",\"error_description\":\"no such "
        + "scope\"}");
    assertThat(scope.profileField()).isEqualTo("scope");
    assertThat(scope.getMessage()).contains("(HTTP 400, invalid_scope)", "Check the profile's scope",
        "The token endpoint said: no such scope");
    assertThat(refusal(400, "{\"error\":\"unauthorized_client\"}").profileField()).isEqualTo("clientId");
    assertThat(refusal(401, "{\"error\":\"invalid_client\"}").profileField()).isEqualTo("clientSecret");
  }
}
