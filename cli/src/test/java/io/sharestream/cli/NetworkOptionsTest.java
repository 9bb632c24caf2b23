package io.sharestream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.net.ForwardProxy;
import io.sharestream.testkit.net.TestCertificates;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run behind a corporate network: {@code --proxy} (credentials in its URL) through a real forward proxy asking
 * for them, to a TLS server trusted with {@code --ca-cert}. The proxy variables of the environment are the
 * packaged jar's ({@link PackagedJarIT}).
 */
class NetworkOptionsTest {
  @TempDir
  static Path tmp;
  static TestCertificates certificates = TestCertificates.create();
  static DeltaSharingServer server;
  static ForwardProxy proxy;
  static String profile;
  static String ca;

  @BeforeAll
  static void serve() throws Exception {
    server = DeltaSharingServer.builder().tls(certificates)
        .table("s", "sc", "t", Fixtures.orders(tmp.resolve("t")).dir(), true).start();
    profile = server.writeProfile(tmp.resolve("p.share")).toString();
    ca = certificates.writeCaPem(tmp.resolve("ca.pem")).toString();
    proxy = ForwardProxy.withBasicAuth("proxy-user", "proxy-secret-42");
  }

  @AfterAll
  static void stop() {
    server.close();
    proxy.close();
  }

  @Test
  void headReadsThroughTheAuthenticatedProxyFromTheServerTheCaCertificateVouchesFor() {
    Cli.Run r = Cli.run("head", "--profile", profile, "s.sc.t", "--version", "1", "-n", "1", "--proxy",
        "http://proxy-user:proxy-secret-42@127.0.0.1:" + proxy.port(), "--ca-cert", ca);

    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out()).startsWith("{\"id\":1,");
    assertThat(proxy.requests()).anyMatch(q -> q.allowed && q.target.equals("127.0.0.1:" + server.port()));
  }

  @Test
  void withoutTheCaCertificateOrTheProxyCredentialsTheErrorSaysWhatIsMissing() {
    Cli.Run untrusted = Cli.run("shares", "--profile", profile, "--proxy",
        "http://proxy-user:proxy-secret-42@127.0.0.1:" + proxy.port());
    assertThat(untrusted.code()).isNotZero();
    assertThat(untrusted.err()).contains("TLS certificate is not trusted");

    Cli.Run refused = Cli.run("shares", "--profile", profile, "--proxy", proxy.url(), "--ca-cert", ca);
    assertThat(refused.code()).isNotZero();
    assertThat(refused.err()).contains("HTTP 407").contains("set the proxy user and password");

    Cli.Run bad = Cli.run("shares", "--profile", profile, "--proxy", "https://proxy:3128");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--proxy must be an http:// proxy URL");
    assertThat(untrusted.err() + refused.err() + bad.err()).doesNotContain("proxy-secret-42");
  }
}
