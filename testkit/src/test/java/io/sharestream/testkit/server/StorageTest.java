package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.ParquetRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  Http http;

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.EVENTS).partitionedBy("user").commit();
    table.append(Fixtures.events(0, 300));
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String firstUrl() {
    return http.query("s.sc.t", "{}").lines("file").get(0).path("url").asText();
  }

  private byte[] fileBytes() throws Exception {
    String id = http.query("s.sc.t", "{}").lines("file").get(0).path("id").asText();
    for (var f : table.snapshot().files()) {
      if (FileUrls.fileId(f.path).equals(id)) {
        return Files.readAllBytes(table.log().resolve(f.path));
      }
    }
    throw new AssertionError("no file for " + id);
  }

  @Test
  void signedUrlDownloadsTheWholeParquetFile() throws Exception {
    byte[] whole = Http.downloadBytes(firstUrl(), null);
    assertThat(whole).isEqualTo(fileBytes());
    assertThat(new String(whole, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("PAR1");
    Path copy = Files.write(tmp.resolve("copy.parquet"), whole);
    assertThat(ParquetRows.read(copy, Fixtures.EVENTS.without(java.util.List.of("user")))).hasSize(100);
  }

  /** Each download's log entry gets its own status, however many run at once (good ranges and bad signatures). */
  @Test
  void concurrentDownloadsLogEachItsOwnStatus() throws Exception {
    String url = firstUrl();
    String forged = url.replaceAll("X-Signature=[^&]+", "X-Signature=forged");
    int n = 48;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(16);
    try {
      java.util.List<java.util.concurrent.Future<Integer>> statuses = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        String u = i % 2 == 0 ? url : forged;
        statuses.add(pool.submit(() -> Http.download(u, "bytes=0-1023").status));
      }
      for (int i = 0; i < n; i++) {
        assertThat(statuses.get(i).get()).isEqualTo(i % 2 == 0 ? 206 : 403);
      }
    } finally {
      pool.shutdown();
    }
    java.util.List<RequestLog.Entry> downloads = server.requests().entries(Endpoint.STORAGE);
    assertThat(downloads).hasSize(n);
    assertThat(downloads).filteredOn(e -> e.status == 206).hasSize(n / 2);
    assertThat(downloads).filteredOn(e -> e.status == 403).hasSize(n / 2)
        .allSatisfy(e -> assertThat(e.path).isEqualTo(downloads.stream().filter(d -> d.status == 206).findFirst()
            .orElseThrow().path));
  }

  @Test
  void rangeRequestsAnswer206WithContentRange() throws Exception {
    String url = firstUrl();
    byte[] file = fileBytes();
    Http.Response r = Http.download(url, "bytes=4-11");
    assertThat(r.status).isEqualTo(206);
    assertThat(r.header("Content-Range")).isEqualTo("bytes 4-11/" + file.length);
    assertThat(r.header("Accept-Ranges")).isEqualTo("bytes");
    assertThat(Http.downloadBytes(url, "bytes=4-11")).isEqualTo(Arrays.copyOfRange(file, 4, 12));
    assertThat(Http.downloadBytes(url, "bytes=-8")).isEqualTo(Arrays.copyOfRange(file, file.length - 8, file.length));
    assertThat(Http.downloadBytes(url, "bytes=" + (file.length - 3) + "-"))
        .isEqualTo(Arrays.copyOfRange(file, file.length - 3, file.length));
    assertThat(Http.downloadBytes(url, "bytes=0-999999999")).isEqualTo(file);
    Http.Response beyond = Http.download(url, "bytes=" + file.length + "-");
    assertThat(beyond.status).isEqualTo(416);
    assertThat(beyond.header("Content-Range")).isEqualTo("bytes */" + file.length);
  }

  @Test
  void expiredUrlsAre403() throws Exception {
    server.faults().urlTtl(Duration.ofMillis(1));
    String url = firstUrl();
    Thread.sleep(20); // past a 1 ms lifetime; the assertion does not depend on how much later
    Http.Response r = Http.download(url, null);
    assertThat(r.status).isEqualTo(403);
    assertThat(r.raw.body()).contains("expired");
    server.faults().urlTtl(null);
    assertThat(Http.download(firstUrl(), null).status).isEqualTo(200);
  }

  @Test
  void urlsCannotBeAlteredOrExtended() {
    String url = firstUrl();
    String later = url.replaceAll("X-Expires=(\\d+)", "X-Expires=99999999999999");
    assertThat(Http.download(later, null).status).isEqualTo(403);
    String otherFile = url.replace(".snappy.parquet", ".snappy.parquetx");
    assertThat(Http.download(otherFile, null).status).isEqualTo(403);
    assertThat(Http.download(url.substring(0, url.indexOf('?')), null).status).isEqualTo(403);
  }

  @Test
  void urlsOfARelocatedTableStopWorking() {
    String url = firstUrl();
    DeltaTableWriter other = DeltaTableWriter.create(tmp.resolve("other"), Fixtures.EVENTS).commit();
    server.tables().relocate("s.sc.t", other.dir());
    assertThat(Http.download(url, null).status).isEqualTo(403);
  }

  @Test
  void vacuumedFilesAre404() throws Exception {
    String url = firstUrl();
    for (var f : table.snapshot().files()) {
      Files.delete(table.log().resolve(f.path));
    }
    assertThat(Http.download(url, null).status).isEqualTo(404);
  }

  @Test
  void downloadsAreLoggedWithoutTheirSignature() {
    Http.download(firstUrl(), "bytes=0-3");
    RequestLog.Entry e = server.requests().entries(Endpoint.STORAGE).get(0);
    assertThat(e.status).isEqualTo(206);
    assertThat(e.range).isEqualTo("bytes=0-3");
    assertThat(e.toString()).doesNotContain("X-Signature");
  }
}
