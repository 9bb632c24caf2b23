package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.net.ForwardProxy;
import io.sharestream.testkit.net.TestCertificates;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads behind a corporate network: a real forward proxy asking for Basic credentials in front of a TLS server a
 * test authority signed. A read's options (proxyHost, proxyUser, sslTrustStore, ...) and the reference client's
 * session confs (spark.delta.sharing.network.*) both take effect, for the driver's requests and the executors'
 * storage downloads alike.
 */
class NetworkOptionsTest {
  static SparkSession spark;
  @TempDir Path tmp;
  TestCertificates certificates = TestCertificates.create();
  DeltaSharingServer server;
  ForwardProxy proxy;
  String path;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @BeforeEach
  void start() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 20), 10);
    server = DeltaSharingServer.builder().tls(certificates).table("s", "sc", "t", table.dir(), true).start();
    path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
  }

  @AfterEach
  void stop() {
    server.close();
    if (proxy != null) {
      proxy.close();
    }
  }

  @Test
  void aReadsProxyCredentialsAndTrustStoreOptionsCarryItsRequestsThroughTheProxy() throws Exception {
    proxy = ForwardProxy.withBasicAuth("proxy-user", "proxy-secret-42");
    String ca = certificates.writeCaPem(tmp.resolve("ca.pem")).toString();
    long rows = spark.read().format("deltaSharing").option("proxyHost", "127.0.0.1")
        .option("proxyPort", Integer.toString(proxy.port())).option("proxyUser", "proxy-user")
        .option("proxyPassword", "proxy-secret-42").option("sslTrustStore", ca).load(path).count();
    assertThat(rows).isEqualTo(20);
    assertThat(proxy.requests()).as("tunnels to the server, API and storage")
        .anyMatch(r -> r.allowed && r.target.equals("127.0.0.1:" + server.port()));

    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("proxyHost", "127.0.0.1")
        .option("proxyPort", Integer.toString(proxy.port())).option("sslTrustStore", ca).load(path).count())
        .as("no proxy credentials").hasStackTraceContaining("HTTP 407");
    assertThatThrownBy(() -> spark.read().format("deltaSharing").option("proxyHost", "127.0.0.1")
        .option("proxyPort", Integer.toString(proxy.port())).option("proxyUser", "proxy-user")
        .option("proxyPassword", "proxy-secret-42").load(path).count())
        .as("the server's authority not trusted").hasStackTraceContaining("TLS certificate is not trusted");
  }

  @Test
  void theReferenceClientsSessionConfsForProxyAndTrustAllTakeEffectWithAWarning() throws Exception {
    proxy = ForwardProxy.open();
    spark.conf().set("spark.delta.sharing.network.proxyHost", "127.0.0.1");
    spark.conf().set("spark.delta.sharing.network.proxyPort", Integer.toString(proxy.port()));
    spark.conf().set("spark.delta.sharing.network.sslTrustAll", "true");
    try {
      assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(20);
      assertThat(proxy.allowed()).isPositive();
      assertThat(SourceLog.lines()).anyMatch(l -> l.contains("s.sc.t: server certificates are not checked "
          + "(spark.delta.sharing.network.sslTrustAll=true)"));
      spark.conf().set("spark.delta.sharing.network.noProxyHosts", "127.0.0.1");
      long before = proxy.requests().size();
      assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(20);
      assertThat(proxy.requests()).as("on the no-proxy list").hasSize((int) before);
    } finally {
      spark.conf().unset("spark.delta.sharing.network.proxyHost");
      spark.conf().unset("spark.delta.sharing.network.proxyPort");
      spark.conf().unset("spark.delta.sharing.network.sslTrustAll");
      spark.conf().unset("spark.delta.sharing.network.noProxyHosts");
    }
  }
}
