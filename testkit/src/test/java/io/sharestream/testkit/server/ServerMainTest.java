package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.DeltaTableWriter;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerMainTest {
  @TempDir Path tmp;

  @Test
  void startsFromAConfigFileWithHistoryPerTableAndWritesAProfile() throws Exception {
    DeltaTableWriter.create(tmp.resolve("events"), Fixtures.EVENTS).commit().append(Fixtures.events(0, 2));
    Path config = Files.writeString(tmp.resolve("tables.json"), "{\"tables\":["
        + "{\"name\":\"analytics.streaming.events\",\"location\":\"events\"},"
        + "{\"name\":\"analytics.streaming.nohistory\",\"location\":\"events\",\"history\":false}]}");
    Path profile = tmp.resolve("demo.share");
    try (DeltaSharingServer server = ServerMain.start(new String[] {"--config", config.toString(), "--token", "tok",
        "--profile", profile.toString(), "--url-ttl-seconds", "60"})) {
      assertThat(Http.JSON.readTree(profile.toFile()).path("bearerToken").asText()).isEqualTo("tok");
      Http http = new Http(server, "tok");
      Http.Response r = http.query("analytics.streaming.events", "{\"version\":1}");
      assertThat(r.status).isEqualTo(200);
      long expiry = r.lines("file").get(0).path("expirationTimestamp").asLong();
      assertThat(expiry).isLessThanOrEqualTo(System.currentTimeMillis() + 60_000);
      assertThat(http.query("analytics.streaming.nohistory", "{\"version\":1}").status).isEqualTo(400);
    }
  }

  @Test
  void theConfigGivesShareIdsAndSwitchesHistoryInDeltaFormat() throws Exception {
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), Fixtures.EVENTS).deletionVectors(true).commit();
    dv.append(Fixtures.events(0, 2));
    Path config = Files.writeString(tmp.resolve("tables.json"), "{\"tables\":["
        + "{\"name\":\"analytics.streaming.dv\",\"location\":\"dv\"}],"
        + "\"shareIds\":{\"analytics\":\"share-id-1\"},\"historyInDeltaFormat\":false}");
    try (DeltaSharingServer server = ServerMain.start(new String[] {"--config", config.toString(), "--token", "t"})) {
      Http http = new Http(server, "t");
      assertThat(http.get("/shares/analytics").json().path("share").path("id").asText()).isEqualTo("share-id-1");
      String caps = "responseformat=delta;readerfeatures=deletionvectors";
      assertThat(http.query("analytics.streaming.dv", "{}", "delta-sharing-capabilities", caps).status)
          .isEqualTo(200);
      Http.Response history = http.query("analytics.streaming.dv", "{\"startingVersion\":0}",
          "delta-sharing-capabilities", caps);
      assertThat(history.status).isEqualTo(400);
      assertThat(history.message()).contains("(3,7) is too new");
    }
  }

  @Test
  void aPublicUrlIsWhatTheProfileAndThePresignedFileUrlsName() throws Exception {
    DeltaTableWriter.create(tmp.resolve("events"), Fixtures.EVENTS).commit().append(Fixtures.events(0, 2));
    Path config = Files.writeString(tmp.resolve("tables.json"),
        "{\"tables\":[{\"name\":\"demo.events.events\",\"location\":\"events\"}]}");
    Path profile = tmp.resolve("demo.share");
    try (DeltaSharingServer server = ServerMain.start(new String[] {"--config", config.toString(), "--token", "tok",
        "--bind", "0.0.0.0", "--public-url", "http://sharing:8080/", "--profile", profile.toString()})) {
      assertThat(Http.JSON.readTree(profile.toFile()).path("endpoint").asText())
          .isEqualTo("http://sharing:8080/delta-sharing");
      assertThat(server.tokenEndpoint()).isEqualTo("http://sharing:8080/oauth/token");
      // the container's name does not resolve here: reach the socket, bound on every interface, over loopback
      String local = "http://127.0.0.1:" + server.port();
      Http.Response r = Http.send(HttpRequest.newBuilder(URI.create(local + "/delta-sharing"
          + Http.tablePath("demo.events.events") + "/query")).header("Authorization", "Bearer tok")
          .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build());
      assertThat(r.status).isEqualTo(200);
      String url = r.lines("file").get(0).path("url").asText();
      assertThat(url).startsWith("http://sharing:8080/storage/");
      // the signature covers the path, not the host: the same URL through the real socket downloads the file
      byte[] parquet = Http.downloadBytes(local + url.substring("http://sharing:8080".length()), null);
      assertThat(new String(parquet, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
    }
  }

  @Test
  void theBindAddressIsTheOnlyOneListenedOn() throws Exception {
    InetAddress other = InetAddress.getByName("127.0.0.2");
    Assumptions.assumeTrue(bindable(other), "127.0.0.2 is not a loopback address on this host");
    DeltaTableWriter.create(tmp.resolve("events"), Fixtures.EVENTS).commit();
    Path config = Files.writeString(tmp.resolve("tables.json"),
        "{\"tables\":[{\"name\":\"demo.events.events\",\"location\":\"events\"}]}");
    try (DeltaSharingServer server = ServerMain.start(new String[] {"--config", config.toString(), "--token", "tok",
        "--bind", "127.0.0.2"})) {
      Http.Response r = Http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.2:" + server.port()
          + "/delta-sharing/shares")).header("Authorization", "Bearer tok").build());
      assertThat(r.status).isEqualTo(200);
      assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), server.port()).close())
          .isInstanceOf(ConnectException.class);
    }
  }

  private static boolean bindable(InetAddress address) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(address, 0));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void badArgumentsNameTheProblem() throws Exception {
    assertThatThrownBy(() -> ServerMain.start(new String[] {})).hasMessageContaining("--config is required");
    assertThatThrownBy(() -> ServerMain.start(new String[] {"--bogus", "1"})).hasMessageContaining("--bogus");
    for (String url : new String[] {"sharing:8080", "ftp://sharing:8080", "http://sharing:8080/delta-sharing"}) {
      assertThatThrownBy(() -> ServerMain.start(new String[] {"--public-url", url}))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("public URL").hasMessageContaining(url);
    }
    Path bad = Files.writeString(tmp.resolve("bad.json"), "{\"tables\":[{\"name\":\"only.two\",\"location\":\"x\"}]}");
    assertThatThrownBy(() -> ServerMain.start(new String[] {"--config", bad.toString()}))
        .hasMessageContaining("only.two").hasMessageContaining("share.schema.table");
  }
}
