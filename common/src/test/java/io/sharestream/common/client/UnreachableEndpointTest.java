package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.sharestream.common.errors.EndpointUnreachableException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An endpoint that cannot be reached (connection refused, unknown host) is retried, then reported with the URL
 * tried: the sharing server's request URL, the OAuth token endpoint, only the host of a storage URL; never a query
 * string, a token or a secret.
 */
class UnreachableEndpointTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();

  /** A port nothing listens on. */
  static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** A served table's profile JSON, from a server that is closed once the profile is made. */
  private String profileOfAClosedServer(boolean oauth) {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), DeltaSharingClientTest.SCHEMA).commit();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", t.dir(), true).start()) {
      return oauth ? server.oauthProfileJson("app", "S3CRET-client") : server.profileJson();
    }
  }

  private EndpointUnreachableException unreachable(String profileJson) {
    DeltaSharingClient c = new DeltaSharingClient(DeltaSharingProfile.fromJson(profileJson), Kit.settings(sleeper));
    return catchThrowableOfType(() -> c.tableVersion(T), EndpointUnreachableException.class);
  }

  @Test
  void aClosedSharingServerIsNamedByTheUrlTriedAfterItsRetries() {
    String profile = profileOfAClosedServer(false);
    String endpoint = DeltaSharingProfile.fromJson(profile).endpoint();
    EndpointUnreachableException e = unreachable(profile);
    assertThat(e.target()).isEqualTo(EndpointUnreachableException.Target.SHARING_SERVER);
    assertThat(e.url()).isEqualTo(endpoint + "/shares/s/schemas/sc/tables/t/version");
    assertThat(e.getMessage()).startsWith("Cannot reach the Delta Sharing server at " + endpoint
        + "/shares/s/schemas/sc/tables/t/version for the version of s.sc.t (4 attempts): connection refused.")
        .contains("Check the profile's endpoint")
        .doesNotContain(DeltaSharingProfile.fromJson(profile).bearerToken());
    assertThat(sleeper.waits).hasSize(3); // retried: a server may be restarting
  }

  @Test
  void anUnknownHostIsNamedWithItsUrl() {
    EndpointUnreachableException e = unreachable("{\"shareCredentialsVersion\":1,\"bearerToken\":\"T0KEN\","
        + "\"endpoint\":\"http://no-such-host.invalid:8080/delta-sharing\"}");
    assertThat(e.getMessage()).contains("http://no-such-host.invalid:8080/delta-sharing/shares/s/schemas/sc/tables/t/"
        + "version").contains("unknown host no-such-host.invalid").doesNotContain("T0KEN");
  }

  @Test
  void anUnreachableTokenEndpointIsNamedNotTheSharingServer() {
    String profile = profileOfAClosedServer(true);
    String tokenEndpoint = DeltaSharingProfile.fromJson(profile).tokenEndpoint();
    EndpointUnreachableException e = unreachable(profile);
    assertThat(e.target()).isEqualTo(EndpointUnreachableException.Target.OAUTH_TOKEN_ENDPOINT);
    assertThat(e.target().profileField()).isEqualTo("tokenEndpoint");
    assertThat(e.getMessage()).startsWith("Cannot reach the OAuth token endpoint at " + tokenEndpoint + " for")
        .contains("connection refused", "Check the profile's tokenEndpoint")
        .doesNotContain("Delta Sharing server", "S3CRET-client");
  }

  @Test
  void anUnreachableStorageIsNamedByItsHostOnly() throws IOException {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), DeltaSharingClientTest.SCHEMA).commit();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", t.dir(), true).start()) {
      DeltaSharingClient c = Kit.client(server, sleeper);
      int port = closedPort();
      String signed = "http://127.0.0.1:" + port + "/bucket/table/part-0.parquet?X-Amz-Signature=SIGNATURE-SECRET";
      HttpInputFile in = new HttpInputFile(c, SignedUrl.fixed(signed), 100, "f1");
      EndpointUnreachableException e = catchThrowableOfType(() -> in.read(0, 10),
          EndpointUnreachableException.class);
      assertThat(e.target()).isEqualTo(EndpointUnreachableException.Target.STORAGE);
      assertThat(e.url()).isEqualTo("http://127.0.0.1:" + port);
      assertThat(e.getMessage()).contains("Cannot reach the table's storage at http://127.0.0.1:" + port + " for")
          .contains("connection refused").doesNotContain("SIGNATURE-SECRET", "X-Amz", "part-0.parquet");
    }
  }

  @Test
  void aUrlInAMessageHasNoQueryUserInfoOrPathForStorage() {
    assertThat(Errors.safeUrl("https://user:pw@host.example:8443/delta-sharing/shares?pageToken=abc#x"))
        .isEqualTo("https://host.example:8443/delta-sharing/shares?<redacted>");
    assertThat(Errors.safeUrl("https://host.example/a/b")).isEqualTo("https://host.example/a/b");
    assertThat(Errors.hostOf("https://bucket.s3.amazonaws.com/t/part-0.parquet?X-Amz-Signature=s"))
        .isEqualTo("https://bucket.s3.amazonaws.com");
    assertThat(Errors.hostOf("https://k:s@storage.example:9000?sig=1")).isEqualTo("https://storage.example:9000");
  }
}
