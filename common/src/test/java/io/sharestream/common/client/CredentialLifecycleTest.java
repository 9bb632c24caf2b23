package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.OAuthTokenException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.ProfileSource;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials over a stream's life against the kit's server: a rotated token taken up from the changed profile file
 * (on the 401 it brings, or before it at the next check), a half-written file ignored, and every profile type the
 * official clients accept, private keys and JWTs kept out of every message.
 */
class CredentialLifecycleTest {
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

  private static String shares(DeltaSharingClient client) {
    return client.listShares().next().name();
  }

  private long refused() {
    return server.requests().entries().stream().filter(e -> e.status == 401).count();
  }

  @Test
  void aRotatedTokenIsTakenUpFromTheChangedProfileFileOnTheRefusalItBrings() throws Exception {
    Path file = server.writeProfile(tmp.resolve("p.share"));
    try (DeltaSharingClient client = new DeltaSharingClient(ProfileSource.file(file), Kit.settings(sleeper))) {
      assertThat(shares(client)).isEqualTo("s");
      String old = client.profile().bearerToken();
      server.rotateBearerToken(); // the provider rotates; the recipient's tooling writes the new profile
      server.writeProfile(file);

      assertThat(shares(client)).isEqualTo("s");
      assertThat(refused()).as("the old token, once").isEqualTo(1);
      assertThat(client.profileReloads()).isEqualTo(1);
      assertThat(client.profile().bearerToken()).isNotEqualTo(old).isEqualTo(server.bearerToken());
    }
  }

  @Test
  void aChangedProfileFileIsReadAtTheNextCheckBeforeAnyRefusal() throws Exception {
    Path file = server.writeProfile(tmp.resolve("p.share"));
    ProfileSource everyRequest = ProfileSource.reading(file.toString(), DeltaSharingProfile.fromFile(file),
        () -> new String(Files.readAllBytes(file), StandardCharsets.UTF_8), tmp, Duration.ZERO, Clock.systemUTC());
    try (DeltaSharingClient client = new DeltaSharingClient(everyRequest, Kit.settings(sleeper))) {
      assertThat(shares(client)).isEqualTo("s");
      String next = server.bearerToken();
      Files.write(file, "{\"shareCredentialsVersion\":1,".getBytes(StandardCharsets.UTF_8)); // being rewritten
      assertThat(shares(client)).as("the profile in use stays").isEqualTo("s");
      server.rotateBearerToken();
      server.writeProfile(file);
      assertThat(shares(client)).isEqualTo("s");
      assertThat(refused()).as("read before the old token was sent").isZero();
      assertThat(client.profile().bearerToken()).isNotEqualTo(next);
    }
  }

  @Test
  void anUnchangedProfileAfterARefusalFailsNamingTheExpiredToken() throws Exception {
    Path file = tmp.resolve("p.share");
    Files.write(file, ("{\"shareCredentialsVersion\":1,\"endpoint\":\"" + server.endpoint() + "\",\"bearerToken\":"
        + "\"expired-token-1234\",\"expirationTime\":\"2020-01-01T00:00:00Z\"}").getBytes(StandardCharsets.UTF_8));
    try (DeltaSharingClient client = new DeltaSharingClient(ProfileSource.file(file), Kit.settings(sleeper))) {
      assertThat(client.credentialsExpireAt()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));
      assertThatThrownBy(() -> shares(client)).isInstanceOf(UnauthorizedException.class)
          .hasMessageContaining("expired at 2020-01-01T00:00:00Z").hasMessageNotContaining("expired-token-1234");
      assertThat(client.profileReloads()).isZero();
    }
  }

  @Test
  void aVersionTwoBearerTokenProfileAndABasicProfileAuthenticate() {
    DeltaSharingProfile v2 = DeltaSharingProfile.fromJson("{\"shareCredentialsVersion\":2,\"type\":\"bearer_token\","
        + "\"endpoint\":\"" + server.endpoint() + "\",\"bearerToken\":\"" + server.bearerToken() + "\"}");
    try (DeltaSharingClient client = new DeltaSharingClient(v2, Kit.settings(sleeper))) {
      assertThat(shares(client)).isEqualTo("s");
    }
    server.enableBasic("recipient", "basic-password-1");
    DeltaSharingProfile basic = DeltaSharingProfile.fromJson(server.basicProfileJson("recipient",
        "basic-password-1"));
    assertThat(basic.toString()).doesNotContain("basic-password-1").contains("recipient");
    try (DeltaSharingClient client = new DeltaSharingClient(basic, Kit.settings(sleeper))) {
      assertThat(shares(client)).isEqualTo("s");
    }
    DeltaSharingProfile wrong = DeltaSharingProfile.fromJson(server.basicProfileJson("recipient", "not-the-one"));
    try (DeltaSharingClient client = new DeltaSharingClient(wrong, Kit.settings(sleeper))) {
      assertThatThrownBy(() -> shares(client)).isInstanceOf(UnauthorizedException.class)
          .hasMessageNotContaining("not-the-one");
    }
  }

  @Test
  void privateKeyJwtProfilesGetTheirAccessTokenWithAnRs256OrEs256Assertion() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair rsaKeys = rsa.generateKeyPair();
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair ecKeys = ec.generateKeyPair();
    byte[] pkcs8 = rsaKeys.getPrivate().getEncoded();
    byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length); // the RSAPrivateKey inside a 2048-bit PKCS#8
    Files.write(tmp.resolve("rsa.pem"), pem("PRIVATE KEY", pkcs8));
    Files.write(tmp.resolve("rsa1.pem"), pem("RSA PRIVATE KEY", pkcs1));
    Files.write(tmp.resolve("ec.pem"), pem("PRIVATE KEY", ecKeys.getPrivate().getEncoded()));

    String[][] cases = {{"rsa.pem", "RS256"}, {"rsa1.pem", "RS256"}, {"ec.pem", "ES256"}};
    for (String[] c : cases) {
      server.enablePrivateKeyJwt("recipient-app", "https://idp.example/", c[1].equals("RS256")
          ? rsaKeys.getPublic() : ecKeys.getPublic(), Duration.ofHours(1));
      Path profile = Files.write(tmp.resolve(c[0] + ".share"), server.privateKeyJwtProfileJson("recipient-app",
          "https://idp.example/", c[0], c[1]).getBytes(StandardCharsets.UTF_8)); // the key file beside it
      DeltaSharingProfile p = DeltaSharingProfile.fromFile(profile);
      String key = p.privateKeyJwt().privateKeyPem();
      assertThat(p.toString()).doesNotContain(key.substring(40, 80)).contains("privateKey=<redacted>");
      try (DeltaSharingClient client = new DeltaSharingClient(p, Kit.settings(sleeper))) {
        assertThat(shares(client)).as(c[0]).isEqualTo("s");
        String jwt = new PrivateKeyJwtGrant(p).assertion(Instant.now());
        assertThat(Errors.redact("the server said: " + jwt)).doesNotContain(jwt);
      }
    }
    // a key that is not the registered one gets no token: the error names the token endpoint, not the assertion
    server.enablePrivateKeyJwt("recipient-app", "https://idp.example/", ecKeys.getPublic(), Duration.ofHours(1));
    DeltaSharingProfile other = DeltaSharingProfile.fromFile(tmp.resolve("rsa.pem.share"));
    try (DeltaSharingClient client = new DeltaSharingClient(other, Kit.settings(sleeper))) {
      assertThatThrownBy(() -> shares(client)).isInstanceOf(OAuthTokenException.class)
          .hasMessageContaining(server.tokenEndpoint()).hasMessageNotContaining("eyJ");
    }
    assertThat(server.requests().entries(Endpoint.OAUTH_TOKEN)).hasSizeGreaterThanOrEqualTo(4);
  }

  @Test
  void badPrivateKeyProfilesNameWhatIsWrong() throws Exception {
    String base = "{\"shareCredentialsVersion\":2,\"type\":\"oauth_jwt_bearer_private_key_jwt\",\"endpoint\":"
        + "\"https://h/ds\",\"auth\":{\"tokenEndpoint\":\"https://h/t\",\"clientId\":\"c\",\"issuer\":\"i\"";
    assertThatThrownBy(() -> DeltaSharingProfile.fromJson(base + "}}")).isInstanceOf(InvalidProfileException.class)
        .hasMessageContaining("'privateKey'");
    assertThatThrownBy(() -> DeltaSharingProfile.fromJson(base + ",\"privateKey\":{\"privateKeyFile\":\""
        + tmp.resolve("none.pem") + "\"}}}")).hasMessageContaining("none.pem").hasMessageContaining("does not exist");
    assertThatThrownBy(() -> DeltaSharingProfile.fromJson(base + ",\"privateKey\":{\"privateKeyFile\":\"k\","
        + "\"algorithm\":\"HS256\"}}}")).hasMessageContaining("use RS256 or ES256");
    Files.write(tmp.resolve("enc.pem"), pem("ENCRYPTED PRIVATE KEY", new byte[] {1, 2, 3}));
    DeltaSharingProfile encrypted = DeltaSharingProfile.fromJson(base + ",\"privateKey\":{\"privateKeyFile\":\""
        + tmp.resolve("enc.pem") + "\"}}}");
    assertThatThrownBy(() -> new PrivateKeyJwtGrant(encrypted)).isInstanceOf(InvalidProfileException.class)
        .hasMessageContaining("unencrypted");
  }

  private static byte[] pem(String label, byte[] der) {
    return ("-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END " + label + "-----\n").getBytes(StandardCharsets.US_ASCII);
  }
}
