package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultInjectionTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Http http;

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.EVENTS).commit();
    table.append(Fixtures.events(0, 10), 2); // 5 files
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void rateLimitAnswers429WithRetryAfterForTheGivenNumberOfRequests() {
    server.faults().rateLimit(Endpoint.QUERY, 2, 7);
    for (int i = 0; i < 2; i++) {
      Http.Response r = http.query("s.sc.t", "{}");
      assertThat(r.status).isEqualTo(429);
      assertThat(r.header("Retry-After")).isEqualTo("7");
      assertThat(r.json().has("errorCode")).isTrue();
    }
    assertThat(http.query("s.sc.t", "{}").status).isEqualTo(200);
    assertThat(server.requests().count(Endpoint.QUERY)).isEqualTo(3);
    assertThat(server.faults().pending()).isZero();
  }

  @Test
  void serverErrorsHitOnlyTheirEndpoint() {
    server.faults().failWith(Endpoint.VERSION, 1, 503).failWith(Endpoint.METADATA, 1, 500);
    assertThat(http.query("s.sc.t", "{}").status).isEqualTo(200);
    Http.Response v = http.get("/shares/s/schemas/sc/tables/t/version");
    assertThat(v.status).isEqualTo(503);
    assertThat(http.get("/shares/s/schemas/sc/tables/t/version").status).isEqualTo(200);
    Http.Response m = http.get("/shares/s/schemas/sc/tables/t/metadata");
    assertThat(m.status).isEqualTo(500);
    assertThat(m.errorCode()).isEqualTo("INTERNAL_ERROR");
    server.faults().failWith(Endpoint.QUERY, 5, 500);
    server.faults().clear();
    assertThat(http.query("s.sc.t", "{}").status).isEqualTo(200);
  }

  @Test
  void truncatedBodyIsCutMidResponseWithoutEndMarker() throws Exception {
    server.faults().truncate(Endpoint.QUERY, 1, 3);
    HttpResponse<InputStream> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(server.endpoint() + Http.tablePath("s.sc.t") + "/query"))
        .header("Authorization", "Bearer " + server.bearerToken())
        .header("delta-sharing-capabilities", "includeendstreamaction=true")
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    List<String> lines = new ArrayList<>();
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      assertThatThrownBy(() -> {
        for (String l = reader.readLine(); l != null; l = reader.readLine()) {
          lines.add(l);
        }
      }).isInstanceOf(IOException.class);
    }
    assertThat(lines).hasSize(3);
    assertThat(lines).noneMatch(l -> l.contains("endStreamAction"));
    // the next request is whole again
    List<JsonNode> whole = http.query("s.sc.t", "{}", "delta-sharing-capabilities", "includeendstreamaction=true")
        .lines();
    assertThat(whole).hasSize(2 + 5 + 1);
  }

  @Test
  void endStreamActionCanCarryAnErrorOnA200() {
    server.faults().endStreamError(Endpoint.CHANGES, 1, "the server failed while listing files");
    table.setProperty("delta.enableChangeDataFeed", "true");
    Http.Response r = http.get(Http.tablePath("s.sc.t") + "/changes?startingVersion=2");
    assertThat(r.status).isEqualTo(200);
    List<JsonNode> ends = r.lines("endStreamAction");
    assertThat(ends).hasSize(1);
    assertThat(ends.get(0).path("errorMessage").asText()).isEqualTo("the server failed while listing files");
  }

  @Test
  void delayedResponsesStillAnswerInFull() {
    server.faults().delay(Endpoint.METADATA, 1, Duration.ofMillis(300));
    long start = System.nanoTime();
    Http.Response r = http.get("/shares/s/schemas/sc/tables/t/metadata");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
    assertThat(r.status).isEqualTo(200);
    assertThat(r.lines()).hasSize(2);
  }

  @Test
  void slowStorageStillDeliversEveryByte() {
    server.faults().slowStorage(Duration.ofMillis(50));
    String url = http.query("s.sc.t", "{}").lines("file").get(0).path("url").asText();
    long start = System.nanoTime();
    byte[] bytes = Http.downloadBytes(url, null);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(50));
    assertThat(new String(bytes, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
  }

  @Test
  void storageLatencyDelaysEveryDownloadRequest() {
    server.faults().storageLatency(Duration.ofMillis(100));
    String url = http.query("s.sc.t", "{}").lines("file").get(0).path("url").asText();
    for (String range : new String[] {"bytes=0-3", null}) {
      long start = System.nanoTime();
      byte[] bytes = Http.downloadBytes(url, range);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(100));
      assertThat(new String(bytes, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
    }
  }

  @Test
  void urlsExpireAfterTheConfiguredLifetime() throws Exception {
    server.faults().urlTtl(Duration.ofSeconds(1));
    long before = System.currentTimeMillis();
    JsonNode file = http.query("s.sc.t", "{}").lines("file").get(0);
    long after = System.currentTimeMillis();
    long expiry = file.path("expirationTimestamp").asLong();
    assertThat(expiry).isBetween(before + 1000, after + 1000);
    while (System.currentTimeMillis() <= expiry) {
      Thread.sleep(50);
    }
    assertThat(Http.download(file.path("url").asText(), null).status).isEqualTo(403);
  }

  @Test
  void storageFaultsAnswerLikeCloudStorage() {
    String url = http.query("s.sc.t", "{}").lines("file").get(0).path("url").asText();
    server.faults().failWith(Endpoint.STORAGE, 1, 503).rateLimit(Endpoint.STORAGE, 1, 2);
    assertThat(Http.download(url, null).status).isEqualTo(503);
    Http.Response limited = Http.download(url, null);
    assertThat(limited.status).isEqualTo(429);
    assertThat(limited.header("Retry-After")).isEqualTo("2");
    assertThat(Http.download(url, null).status).isEqualTo(200);
  }

  @Test
  void respondingInDeltaFormatIgnoresTheClientsParquetCapability() {
    server.faults().respondInDeltaFormat(Endpoint.QUERY, 1);
    Http.Response r = http.query("s.sc.t", "{}", "delta-sharing-capabilities", "responseformat=parquet");
    assertThat(r.header("delta-sharing-capabilities")).contains("responseformat=delta");
    assertThat(r.lines("protocol").get(0).has("deltaProtocol")).isTrue();
  }

  @Test
  void recreatedTableHasANewIdAndStartsOverAtVersionZero() {
    String oldId = http.get("/shares/s/schemas/sc/tables/t/metadata").lines("metaData").get(0).path("id").asText();
    DeltaTableWriter recreated = DeltaTableWriter.create(tmp.resolve("t2"), Fixtures.EVENTS).commit();
    server.tables().relocate("s.sc.t", recreated.dir());
    Http.Response meta = http.get("/shares/s/schemas/sc/tables/t/metadata");
    assertThat(meta.lines("metaData").get(0).path("id").asText()).isNotEqualTo(oldId).isEqualTo(recreated.tableId());
    assertThat(meta.header("Delta-Table-Version")).isEqualTo("0");
  }
}
