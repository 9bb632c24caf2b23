package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.EndpointUnreachableException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.storage.StorageSettings;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.net.ForwardProxy;
import io.sharestream.testkit.net.TestCertificates;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's requests over a corporate network: through a real forward proxy asking for Basic credentials, to a
 * TLS server whose certificate a test authority signed. The API, the OAuth token endpoint and storage downloads all
 * go through the proxy (counted there), are refused without its credentials, and are trusted only with the
 * authority's certificate; hosts on the no-proxy list are reached directly.
 */
class NetworkPathsTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  TestCertificates certificates = TestCertificates.create();
  DeltaSharingServer server;
  ForwardProxy proxy;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();

  @BeforeEach
  void start() throws Exception {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), DeltaSharingClientTest.SCHEMA).commit();
    t.append(DeltaSharingClientTest.rows(0, 20));
    server = DeltaSharingServer.builder().tls(certificates).table("s", "sc", "t", t.dir(), true).start();
    proxy = ForwardProxy.withBasicAuth("proxy-user", "proxy-secret-42");
  }

  @AfterEach
  void stop() {
    server.close();
    proxy.close();
  }

  private TrustSettings trustedCa() {
    return TrustSettings.file(certificates.writeCaPem(tmp.resolve("ca.pem")).toString(), null, null, "trust");
  }

  private DeltaSharingClient client(DeltaSharingProfile profile, NetworkSettings network) {
    return new DeltaSharingClient(profile, Kit.settings(sleeper).withNetwork(network));
  }

  /** Lists the shares and reads the table's one file from storage: every row. */
  private static long readEverything(DeltaSharingClient client) {
    assertThat(client.listShares().next().name()).isEqualTo("s");
    List<FileAction> files = new ArrayList<>();
    io.sharestream.common.types.StructType schema;
    try (FileListing l = client.query(T, QueryRequest.latest())) {
      schema = l.metadata().schema();
      l.forEachRemaining(a -> files.add((FileAction) a));
    }
    long rows = 0;
    for (FileAction f : files) {
      try (ParquetRowReader r = ParquetRowReader.open(new HttpInputFile(client, SignedUrl.fixed(f.url()), f.size(),
          f.id()), "f", schema, List.of(), Map.of(), ReadSettings.DEFAULT, 0)) {
        while (r.hasNext()) {
          r.next();
          rows++;
        }
      }
    }
    return rows;
  }

  @Test
  void theApiTheTokenEndpointAndStorageGoThroughTheAuthenticatedProxyToTheServerTheAuthoritySigned() {
    server.enableOAuth("app", "app-secret-123", Duration.ofHours(1));
    NetworkSettings network = NetworkSettings.SYSTEM.withProxy(new NetworkSettings.ProxyAddress("127.0.0.1",
        proxy.port(), "proxy-user", "proxy-secret-42")).withTrust(trustedCa());
    try (DeltaSharingClient client = client(DeltaSharingProfile.fromJson(server.oauthProfileJson("app",
        "app-secret-123")), network)) {
      assertThat(readEverything(client)).isEqualTo(20);
    }
    String target = "127.0.0.1:" + server.port();
    assertThat(proxy.requests()).as("tunnels to the server, each after one challenge at most")
        .anyMatch(r -> r.method.equals("CONNECT") && r.target.equals(target) && r.allowed);
    assertThat(proxy.requests()).allMatch(r -> r.method.equals("CONNECT") && r.target.equals(target));
    assertThat(network.toString()).doesNotContain("proxy-secret-42");
  }

  @Test
  void aTableSharedForDirectoryAccessIsReadFromItsStoreThroughTheSameProxyAndTrust() {
    server.tables().accessModes("s.sc.t", AccessMode.DIR);
    NetworkSettings network = NetworkSettings.SYSTEM.withProxy(new NetworkSettings.ProxyAddress("127.0.0.1",
        proxy.port(), "proxy-user", "proxy-secret-42")).withTrust(trustedCa());
    StorageSettings storage = StorageSettings.defaults().withS3Endpoint(server.objectStore().endpoint())
        .withS3PathStyle(true).withS3Region(server.objectStore().region());
    assertThat(server.objectStore().endpoint()).startsWith("https://");
    try (DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
        Kit.settings(sleeper).withNetwork(network).withAccess(AccessSettings.DEFAULT.withMode(AccessSettings.Mode.DIR)
            .withStorage(storage)))) {
      assertThat(readEverything(client)).isEqualTo(20);
    }
    assertThat(server.requests().count(Endpoint.TEMPORARY_CREDENTIALS)).isPositive();
    assertThat(server.requests().count(Endpoint.OBJECT_STORE)).as("the log and the file").isGreaterThan(1);
    assertThat(server.requests().count(Endpoint.QUERY)).isZero();
    String target = "127.0.0.1:" + server.port();
    assertThat(proxy.requests()).as("the store too is reached through the proxy")
        .allMatch(r -> r.method.equals("CONNECT") && r.target.equals(target)).anyMatch(r -> r.allowed);
  }

  @Test
  void withoutTheProxysCredentialsNothingGoesThroughAndTheErrorSaysWhy() {
    NetworkSettings network = NetworkSettings.SYSTEM.withProxy(new NetworkSettings.ProxyAddress("127.0.0.1",
        proxy.port(), null, null)).withTrust(trustedCa());
    try (DeltaSharingClient client = client(DeltaSharingProfile.fromJson(server.profileJson()), network)) {
      assertThatThrownBy(() -> client.listShares().next()).isInstanceOf(EndpointUnreachableException.class)
          .hasMessageContaining("HTTP 407").hasMessageContaining("set the proxy user and password");
    }
    assertThat(proxy.allowed()).isZero();
    assertThat(sleeper.waits).as("a refusal that trying again cannot cure is not retried").isEmpty();
    NetworkSettings wrong = NetworkSettings.SYSTEM.withProxy(new NetworkSettings.ProxyAddress("127.0.0.1",
        proxy.port(), "proxy-user", "not-the-password")).withTrust(trustedCa());
    try (DeltaSharingClient client = client(DeltaSharingProfile.fromJson(server.profileJson()), wrong)) {
      assertThatThrownBy(() -> client.listShares().next()).hasMessageNotContaining("not-the-password");
    }
    assertThat(proxy.allowed()).isZero();
  }

  @Test
  void theServerIsTrustedOnlyWithTheAuthoritysCertificateInPemOrATrustStore() throws Exception {
    DeltaSharingProfile profile = DeltaSharingProfile.fromJson(server.profileJson());
    try (DeltaSharingClient client = client(profile, NetworkSettings.SYSTEM)) {
      assertThatThrownBy(() -> client.listShares().next()).as("the JVM's trust store does not know the authority")
          .isInstanceOf(EndpointUnreachableException.class).hasMessageContaining("TLS certificate is not trusted");
    }
    TestCertificates other = TestCertificates.create();
    try (DeltaSharingClient client = client(profile, NetworkSettings.SYSTEM.withTrust(TrustSettings.file(
        other.writeCaPem(tmp.resolve("other.pem")).toString(), null, null, "trust")))) {
      assertThatThrownBy(() -> client.listShares().next()).as("another authority")
          .isInstanceOf(EndpointUnreachableException.class).hasMessageContaining("TLS certificate is not trusted");
    }
    assertThat(sleeper.waits).as("an untrusted certificate is not retried").isEmpty();
    for (String type : new String[] {"PKCS12", "JKS"}) {
      Path store = certificates.writeTrustStore(tmp.resolve("trust." + type.toLowerCase()), type, "store-pass");
      try (DeltaSharingClient client = client(profile, NetworkSettings.SYSTEM.withTrust(TrustSettings.file(
          store.toString(), "store-pass", null, "trust")))) {
        assertThat(readEverything(client)).as(type).isEqualTo(20);
      }
    }
    try (DeltaSharingClient client = client(profile, NetworkSettings.SYSTEM.withTrust(TrustSettings.trustingAll()))) {
      assertThat(readEverything(client)).as("trust all").isEqualTo(20);
    }
    assertThatThrownBy(() -> TrustSettings.file(tmp.resolve("none.pem").toString(), null, null, "ssl.trust"))
        .isInstanceOf(InvalidSettingException.class).hasMessageStartingWith("ssl.trust").hasMessageContaining(
            "none.pem");
    Path notPem = Files.write(tmp.resolve("junk.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n".getBytes());
    assertThatThrownBy(() -> TrustSettings.file(notPem.toString(), null, null, "ssl.trust"))
        .isInstanceOf(InvalidSettingException.class).hasMessageStartingWith("ssl.trust");
  }

  @Test
  void hostsOnTheNoProxyListAreReachedDirectlyAndProxyUrlsCarryTheirCredentials() {
    NetworkSettings.ProxyAddress parsed = NetworkSettings.ProxyAddress.parse("http://proxy-user:proxy-secret-42@"
        + "127.0.0.1:" + proxy.port(), null, null, "proxy.url");
    assertThat(parsed.username()).isEqualTo("proxy-user");
    assertThat(parsed.toString()).doesNotContain("proxy-secret-42");
    assertThat(Errors.redact("at " + parsed.password())).doesNotContain("proxy-secret-42");
    NetworkSettings network = NetworkSettings.SYSTEM.withProxy(parsed).withNoProxy(List.of("example.com",
        "127.0.0.1")).withTrust(trustedCa());
    assertThat(network.bypassed("api.example.com")).isTrue();
    assertThat(network.bypassed("example.com")).isTrue();
    assertThat(network.bypassed("notexample.com")).isFalse();
    try (DeltaSharingClient client = client(DeltaSharingProfile.fromJson(server.profileJson()), network)) {
      assertThat(readEverything(client)).isEqualTo(20);
    }
    assertThat(proxy.requests()).as("127.0.0.1 is on the no-proxy list").isEmpty();
    assertThatThrownBy(() -> NetworkSettings.ProxyAddress.parse("https://p:3128", null, null, "proxy.url"))
        .isInstanceOf(InvalidSettingException.class).hasMessageStartingWith("proxy.url");
  }
}
