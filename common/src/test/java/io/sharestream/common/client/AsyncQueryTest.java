package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.AsyncMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Queries a server computes asynchronously, as Databricks does: announced, polled, paged, failed, abandoned. */
class AsyncQueryTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  DeltaTableWriter table;
  DeltaSharingServer server;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();
  DeltaSharingClient client;

  @BeforeEach
  void start() {
    table = DeltaTableWriter.create(tmp.resolve("t"), DeltaSharingClientTest.SCHEMA).commit();
    table.append(DeltaSharingClientTest.rows(0, 12), 2); // 6 files
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    client = Kit.client(server, sleeper);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  private List<String> ids(DeltaSharingClient c, QueryRequest q) {
    try (FileListing l = c.query(T, q)) {
      return DeltaSharingClientTest.all(l).stream().map(a -> ((FileAction) a).id()).sorted()
          .collect(Collectors.toList());
    }
  }

  @Test
  void aPendingQueryIsPolledWithGrowingWaitsUntilItsFilesCome() {
    List<String> sync = ids(client, QueryRequest.latest());
    server.async("s.sc.t", AsyncMode.ALWAYS.pendingPolls(3));
    server.requests().clear();
    sleeper.waits.clear();

    assertThat(ids(client, QueryRequest.latest())).isEqualTo(sync).hasSize(6);

    List<RequestLog.Entry> submitted = server.requests().entries(Endpoint.QUERY);
    assertThat(submitted).hasSize(1);
    assertThat(submitted.get(0).capabilities).endsWith(";asyncquery=true");
    assertThat(submitted.get(0).idempotencyKey).isNotBlank();
    assertThat(submitted.get(0).idempotencyKeyNames).as("one name: the field set once").containsExactly(
        "idempotency_key");
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).hasSize(4)
        .allSatisfy(e -> assertThat(e.status).isEqualTo(200));
    assertThat(sleeper.waits).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400),
        Duration.ofMillis(800));
  }

  @Test
  void aRetriedSubmissionCarriesTheSameIdempotencyKeyAndAFailedPollIsRetried() {
    server.async("s.sc.t", AsyncMode.ALWAYS);
    server.faults().failWith(Endpoint.QUERY, 1, 503).failWith(Endpoint.QUERY_STATUS, 1, 503);

    assertThat(ids(client, QueryRequest.latest())).hasSize(6);

    List<RequestLog.Entry> submitted = server.requests().entries(Endpoint.QUERY);
    assertThat(submitted).hasSize(2).extracting(e -> e.status).containsExactly(503, 200);
    assertThat(submitted.get(1).idempotencyKey).isEqualTo(submitted.get(0).idempotencyKey);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).extracting(e -> e.status).contains(503);
  }

  @Test
  void theLaterPagesOfAnAsynchronousAnswerAreAskedOfItsQuery() {
    server.async("s.sc.t", AsyncMode.ALWAYS.pendingPolls(1));

    try (FileListing l = client.query(T, QueryRequest.latest().maxFiles(2))) {
      assertThat(DeltaSharingClientTest.all(l)).hasSize(6);
      assertThat(l.pages()).isEqualTo(3);
    }
    assertThat(server.requests().entries(Endpoint.QUERY)).hasSize(1);
    List<RequestLog.Entry> polls = server.requests().entries(Endpoint.QUERY_STATUS);
    assertThat(polls).hasSize(4); // pending, page 1, page 2, page 3
    assertThat(polls).extracting(e -> e.queryId).containsOnly(polls.get(0).queryId);
  }

  @Test
  void aFailedQueryIsAnErrorNamingTheTableAndTheServersMessageAndIsNotRetried() {
    server.async("s.sc.t", AsyncMode.ALWAYS);
    server.faults().queryFails(1, "warehouse stopped while computing the view");

    assertThatThrownBy(() -> ids(client, QueryRequest.latest())).isInstanceOf(ServerErrorException.class)
        .hasMessageContaining("s.sc.t").hasMessageContaining("warehouse stopped while computing the view");
    assertThat(server.requests().entries(Endpoint.QUERY)).hasSize(1);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).hasSize(1);
  }

  @Test
  void aFailedQueryWhoseServerRefusedTheRequestIsTheErrorASynchronousAnswerGives() {
    server.async("s.sc.t", AsyncMode.ALWAYS);
    server.faults().queryFails(1, "Cannot load table version 9 as the latest version is 3.");
    assertThatThrownBy(() -> ids(client, QueryRequest.latest())).isInstanceOf(VersionNotAvailableException.class)
        .hasMessageContaining("s.sc.t").hasMessageContaining("after the table's latest version (3)");

    server.faults().queryFails(1, "INVALID_PARAMETER_VALUE", "limitHint must be positive.");
    assertThatThrownBy(() -> ids(client, QueryRequest.latest())).isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("INVALID_PARAMETER_VALUE: limitHint must be positive.")
        .hasMessageNotContaining("..");

    server.faults().queryFails(1, "INTERNAL_ERROR", "warehouse lost.");
    assertThatThrownBy(() -> ids(client, QueryRequest.latest())).isInstanceOf(ServerErrorException.class)
        .hasMessageContaining("warehouse lost.").hasMessageNotContaining("..");

    server.faults().queryFails(1, "warehouse stopped at 5.");
    assertThatThrownBy(() -> ids(client, QueryRequest.latest())).isInstanceOf(ServerErrorException.class)
        .hasMessageStartingWith("Asynchronous query ").hasMessageContaining("(the query of s.sc.t")
        .hasMessageContaining("failed on the server: warehouse stopped at 5. Nothing was read");
  }

  @Test
  void pendingAnswersRetryAfterIsHonoured() {
    server.async("s.sc.t", AsyncMode.ALWAYS.pendingPolls(2).retryAfterSeconds(3));

    assertThat(ids(client, QueryRequest.latest())).hasSize(6);
    assertThat(sleeper.waits).hasSize(3).allSatisfy(w -> assertThat(w).isEqualTo(Duration.ofSeconds(3)));
  }

  @Test
  void aQueryForgottenByTheServerIsSubmittedAgainUnderANewKey() {
    server.async("s.sc.t", AsyncMode.ALWAYS.pendingPolls(1));
    server.faults().failWith(Endpoint.QUERY_STATUS, 1, 404);

    assertThat(ids(client, QueryRequest.latest())).hasSize(6);
    List<RequestLog.Entry> submitted = server.requests().entries(Endpoint.QUERY);
    assertThat(submitted).hasSize(2);
    assertThat(submitted.get(1).idempotencyKey).isNotEqualTo(submitted.get(0).idempotencyKey);
  }

  @Test
  void aQueryStillPendingWhenTheRetryTimeRunsOutFailsNamingTheTable() {
    server.async("s.sc.t", AsyncMode.slowerThan(Duration.ofHours(1)));
    ClientSettings quick = Kit.settings(sleeper).withSleeper(Sleeper.REAL)
        .withRetry(new RetrySettings(3, Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofSeconds(1)));
    try (DeltaSharingClient c = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), quick)) {
      assertThatThrownBy(() -> ids(c, QueryRequest.latest())).isInstanceOf(ServerErrorException.class)
          .hasMessageContaining("still computing").hasMessageContaining("s.sc.t")
          .hasMessageContaining("overall time limit");
    }
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS).size()).isBetween(3, 25);
  }

  @Test
  void anInterruptedReaderStopsPollingAtOnce() throws Exception {
    server.async("s.sc.t", AsyncMode.slowerThan(Duration.ofHours(1)));
    ClientSettings slowPolls = Kit.settings(sleeper).withSleeper(Sleeper.REAL)
        .withRetry(new RetrySettings(3, Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofMinutes(5)));
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try (DeltaSharingClient c = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), slowPolls)) {
      Future<List<String>> listing = reader.submit(() -> ids(c, QueryRequest.latest()));
      for (int i = 0; i < 500 && server.requests().entries(Endpoint.QUERY).isEmpty(); i++) {
        Thread.sleep(10);
      }
      Thread.sleep(200); // the pending answer is in; the reader waits 30 s before its first poll
      long before = System.nanoTime();
      listing.cancel(true);
      reader.shutdown();
      assertThat(reader.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(10));
      assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isEmpty();
    } finally {
      reader.shutdownNow();
    }
  }

  @Test
  void aServerAnsweringAsynchronouslyWithoutAdvertisingItIsAskedSynchronouslyFromThenOn() {
    server.close();
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).asyncAdvertised(false).start();
    server.async("s.sc.t", AsyncMode.ALWAYS);
    client.close();
    client = Kit.client(server, sleeper);

    assertThat(ids(client, QueryRequest.latest())).hasSize(6);
    assertThat(ids(client, QueryRequest.atVersion(1))).hasSize(6);

    List<RequestLog.Entry> submitted = server.requests().entries(Endpoint.QUERY);
    assertThat(submitted).extracting(e -> e.capabilities.contains("asyncquery=true"))
        .containsExactly(true, false, false);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isEmpty();
  }

  @Test
  void aStartingVersionQueryIsPolledToo() {
    table.append(DeltaSharingClientTest.rows(12, 16), 2); // version 2: 2 files
    server.async("s.sc.t", AsyncMode.overFiles(4));

    assertThat(ids(client, QueryRequest.changes(2, null))).hasSize(2);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isEmpty();
    assertThat(ids(client, QueryRequest.changes(1, null))).hasSize(8);
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isNotEmpty();
  }
}
