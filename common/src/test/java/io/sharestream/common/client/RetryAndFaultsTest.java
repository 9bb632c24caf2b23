package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryAndFaultsTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  DeltaSharingServer server;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();
  DeltaSharingClient client;

  @BeforeEach
  void start() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), DeltaSharingClientTest.SCHEMA).commit();
    table.append(DeltaSharingClientTest.rows(0, 20), 2); // 10 files
    table.append(DeltaSharingClientTest.rows(20, 30), 2); // 5 files
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    client = Kit.client(server, sleeper);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private List<String> ids(QueryRequest q) {
    try (FileListing l = client.query(T, q)) {
      return DeltaSharingClientTest.all(l).stream().map(a -> ((FileAction) a).id()).collect(Collectors.toList());
    }
  }

  @Test
  void closingTheClientCancelsAListingBlockedInFlightAndRefusesNewRequests() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    server.faults().pause(Endpoint.QUERY, 2, reached, never); // the body stops after two lines, the socket stays open
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<List<String>> listing = reader.submit(() -> ids(QueryRequest.latest()));
      assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
      client.close(); // a thread interrupt would not free a blocked socket read: close aborts the exchange
      assertThatThrownBy(() -> listing.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(CancelledException.class);
      assertThat(sleeper.waits).as("a cancellation is not retried").isEmpty();
      assertThatThrownBy(() -> client.tableVersion(T))
          .isInstanceOf(CancelledException.class);
    } finally {
      never.countDown();
      reader.shutdownNow();
    }
  }

  @Test
  void aBodyArrivingAfterTheClientClosedIsCancelledNotRead() {
    // The race: close() runs after an exchange returned its headers but before its body was wrapped. The transport
    // aborted the exchange (it stays open until its body is closed); the body, wrapped after close, refuses reads.
    client.close();
    InputStream body = client.body(new ByteArrayInputStream(new byte[] {1, 2, 3}));
    assertThatThrownBy(body::read).isInstanceOf(CancelledException.class);
  }

  @Test
  void rateLimitIsRetriedHonouringRetryAfter() {
    server.faults().rateLimit(Endpoint.VERSION, 2, 3);
    assertThat(client.tableVersion(T)).isEqualTo(2);
    assertThat(server.requests().count(Endpoint.VERSION)).isEqualTo(3);
    assertThat(sleeper.waits).hasSize(2).allSatisfy(w -> assertThat(w).isGreaterThanOrEqualTo(Duration.ofSeconds(3)));
  }

  @Test
  void serverErrorsAreRetriedWithGrowingJitteredBackoff() {
    server.faults().failWith(Endpoint.METADATA, 3, 503);
    assertThat(client.metadata(T, null, null).version()).isEqualTo(2);
    assertThat(sleeper.waits).hasSize(3);
    // 100 ms doubling, jitter takes off at most half: [50,100], [100,200], [200,400]
    assertThat(sleeper.waits.get(0)).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
    assertThat(sleeper.waits.get(1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
    assertThat(sleeper.waits.get(2)).isBetween(Duration.ofMillis(200), Duration.ofMillis(400));
  }

  @Test
  void persistentFailureEndsWithTheAttemptCount() {
    server.faults().failWith(Endpoint.VERSION, 10, 500);
    assertThatThrownBy(() -> client.tableVersion(T)).isInstanceOf(ServerErrorException.class)
        .hasMessageContaining("after 4 attempts").hasMessageContaining("HTTP 500");
    assertThat(server.requests().count(Endpoint.VERSION)).isEqualTo(4);
  }

  @Test
  void retriesStopAtTheTotalTimeBudget() {
    DeltaSharingClient tight = new DeltaSharingClient(client.profile(), client.settings().withRetry(
        new RetrySettings(10, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(500))));
    server.faults().failWith(Endpoint.VERSION, 10, 503);
    assertThatThrownBy(() -> tight.tableVersion(T)).isInstanceOf(ServerErrorException.class)
        .hasMessageContaining("after 1 attempt");
  }

  @Test
  void truncatedBodyIsReRequestedAndNoLineIsSeenTwice() {
    List<String> expected = ids(QueryRequest.changes(1, null));
    assertThat(expected).hasSize(15);
    server.faults().truncate(Endpoint.QUERY, 1, 8); // protocol, metaData, 6 files, then cut
    assertThat(ids(QueryRequest.changes(1, null))).isEqualTo(expected);
    assertThat(sleeper.waits).hasSize(1);
  }

  @Test
  void truncationOfALaterPageResumesThatPage() {
    List<String> expected = ids(QueryRequest.latest());
    server.requests().clear();
    // pages of protocol, metaData, 4 files, end; a zero delay takes the first page's turn, so the second page
    // breaks after 2 of its files
    server.faults().delay(Endpoint.QUERY, 1, Duration.ZERO).truncate(Endpoint.QUERY, 1, 4);
    assertThat(ids(QueryRequest.latest().maxFiles(4))).isEqualTo(expected);
    assertThat(server.requests().count(Endpoint.QUERY)).isEqualTo(5); // 4 pages + 1 repeat
  }

  @Test
  void missingEndMarkerCountsAsTruncated() {
    server.faults().truncate(Endpoint.QUERY, 1, 17); // after every line but the end marker
    List<SharingAction> all;
    try (FileListing l = client.query(T, QueryRequest.latest())) {
      all = DeltaSharingClientTest.all(l);
    }
    assertThat(all).hasSize(15);
    assertThat(server.requests().count(Endpoint.QUERY)).isEqualTo(2);
  }

  @Test
  void endStreamErrorFailsWithoutRetry() {
    server.faults().endStreamError(Endpoint.QUERY, 1, "listing failed at version 2");
    assertThatThrownBy(() -> ids(QueryRequest.latest())).isInstanceOf(ServerErrorException.class)
        .hasMessageContaining("listing failed at version 2");
    assertThat(server.requests().count(Endpoint.QUERY)).isEqualTo(1);
  }

  @Test
  void slowResponsesPastTheRequestTimeoutAreRetried() {
    DeltaSharingClient impatient = new DeltaSharingClient(client.profile(), client.settings()
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(5)));
    server.faults().delay(Endpoint.VERSION, 1, Duration.ofSeconds(4));
    assertThat(impatient.tableVersion(T)).isEqualTo(2);
    assertThat(server.requests().count(Endpoint.VERSION)).isEqualTo(2);
  }

  @Test
  void stalledBodiesHitTheReadTimeoutAndAreRetried() throws Exception {
    DeltaSharingClient impatient = new DeltaSharingClient(client.profile(), client.settings()
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1)));
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server.faults().pause(Endpoint.QUERY, 5, reached, release);
    try {
      try (FileListing l = impatient.query(T, QueryRequest.latest())) {
        assertThat(DeltaSharingClientTest.all(l)).hasSize(15);
      }
      assertThat(server.requests().count(Endpoint.QUERY)).isEqualTo(2);
    } finally {
      release.countDown();
    }
  }
}
