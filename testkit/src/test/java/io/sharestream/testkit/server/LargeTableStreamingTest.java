package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** A table of 10,000 files: answered by streaming, and paged. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LargeTableStreamingTest {
  static final int FILES = 10_000;

  @TempDir static Path tmp;
  DeltaSharingServer server;
  Http http;

  @BeforeAll
  void start() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("big"), Fixtures.EVENTS).commit();
    table.appendCopies(Fixtures.events(0, 3), FILES);
    server = DeltaSharingServer.builder().table("s", "sc", "big", table.dir(), true).start();
    http = new Http(server);
  }

  @AfterAll
  void stop() {
    server.close();
  }

  /**
   * The server is held after 100 lines; the client must already be able to read them. A server that built the
   * whole body before sending could not get past the hold, so this proves the body is produced as it is sent.
   */
  @Test
  void snapshotOfTenThousandFilesIsStreamedWhileItIsProduced() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server.faults().pause(Endpoint.QUERY, 100, reached, release);
    HttpResponse<InputStream> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(server.endpoint() + Http.tablePath("s.sc.big") + "/query"))
        .header("Authorization", "Bearer " + server.bearerToken())
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    Set<String> ids = new HashSet<>();
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      for (int i = 0; i < 100; i++) {
        collect(reader.readLine(), ids);
      }
      assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(ids).hasSize(98); // protocol + metaData + 98 files arrived while the server is held
      release.countDown();
      for (String l = reader.readLine(); l != null; l = reader.readLine()) {
        collect(l, ids);
      }
    }
    assertThat(ids).hasSize(FILES);
  }

  private static void collect(String line, Set<String> ids) throws Exception {
    JsonNode n = Http.JSON.readTree(line);
    if (n.has("file")) {
      ids.add(n.get("file").path("id").asText());
    }
  }

  @Test
  void tenThousandFilesPageInThousands() {
    Set<String> ids = new HashSet<>();
    String token = null;
    int pages = 0;
    do {
      Http.Response r = http.query("s.sc.big", token == null ? "{\"startingVersion\":1,\"maxFiles\":1000}"
          : "{\"startingVersion\":1,\"maxFiles\":1000,\"pageToken\":\"" + token + "\"}");
      assertThat(r.status).isEqualTo(200);
      assertThat(r.lines("add")).hasSize(1000);
      r.lines("add").forEach(a -> ids.add(a.path("id").asText()));
      token = r.lines("endStreamAction").get(0).path("nextPageToken").asText(null);
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(10);
    assertThat(ids).hasSize(FILES);
  }
}
