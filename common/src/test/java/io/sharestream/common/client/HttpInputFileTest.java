package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructField;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage requests per file: the footer from one tail read, the column chunks read by exact (coalesced) ranges; and
 * reads that storage leaves hanging: aborted by closing the client, failed by the read timeout.
 */
class HttpInputFileTest {
  static final DeltaType.StructType WIDE = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
      DeltaType.field("a", DeltaType.STRING), DeltaType.field("b", DeltaType.STRING),
      DeltaType.field("c", DeltaType.STRING), DeltaType.field("d", DeltaType.STRING));

  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaSharingClient client;
  FileAction big;
  FileAction small;
  StructType schema;

  @BeforeEach
  void start() {
    DeltaTableWriter t = DeltaTableWriter.create(tmp.resolve("t"), WIDE).commit();
    t.append(rows(0, 20_000)); // one file, one row group, ~1.3 MB of incompressible text
    t.append(rows(0, 10)); // a file smaller than the tail read
    server = DeltaSharingServer.builder().table("s", "sc", "t", t.dir(), true).start();
    client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT);
    List<FileAction> files = new ArrayList<>();
    try (FileListing l = client.query(new TableRef("s", "sc", "t"), QueryRequest.changes(1, 2L))) {
      schema = l.metadata().schema();
      l.forEachRemaining(a -> files.add((FileAction) a));
    }
    big = files.stream().filter(f -> f.version() == 1).findFirst().orElseThrow();
    small = files.stream().filter(f -> f.version() == 2).findFirst().orElseThrow();
    assertThat(big.size()).isGreaterThan(HttpInputFile.TAIL_BYTES * 4);
    assertThat(small.size()).isLessThan(HttpInputFile.TAIL_BYTES);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static List<Map<String, Object>> rows(long from, long to) {
    Random random = new Random(from);
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(Map.of("id", i, "a", hex(random), "b", hex(random), "c", hex(random), "d", hex(random)));
    }
    return out;
  }

  private static String hex(Random r) {
    return Long.toHexString(r.nextLong()) + Long.toHexString(r.nextLong());
  }

  private long read(HttpInputFile in, StructType readSchema) {
    long n = 0;
    try (ParquetRowReader r = ParquetRowReader.open(in, "f", readSchema, List.of(), Map.of(), ReadSettings.DEFAULT,
        0)) {
      while (r.hasNext()) {
        r.next();
        n++;
      }
    }
    return n;
  }

  private HttpInputFile input(FileAction f) {
    return new HttpInputFile(client, SignedUrl.fixed(f.url()), f.size(), f.id());
  }

  @Test
  void aFullReadOfASingleRowGroupFileTakesTwoRequestsAndASmallFileOne() {
    server.requests().clear();
    HttpInputFile in = input(big);
    assertThat(read(in, schema)).isEqualTo(20_000);
    assertThat(in.requests()).isEqualTo(2);
    assertThat(server.requests().count(Endpoint.STORAGE)).isEqualTo(2);
    assertThat(in.bytesRead()).isLessThanOrEqualTo(big.size() + HttpInputFile.TAIL_BYTES);

    HttpInputFile whole = input(small);
    assertThat(read(whole, schema)).isEqualTo(10);
    assertThat(whole.requests()).isEqualTo(1);
    assertThat(whole.bytesRead()).isEqualTo(small.size());
  }

  @Test
  void aProjectionReadsOnlyItsColumnChunksWithNearAdjacentOnesCoalesced() {
    // column chunks: id ~160 KB, then a, b, c, d ~650 KB each
    HttpInputFile near = input(big);
    assertThat(read(near, new StructType(List.of(schema.field("id"), schema.field("b"))))).isEqualTo(20_000);
    assertThat(near.requests()).as("id and b, less than %d bytes apart: one range", HttpInputFile.COALESCE_GAP)
        .isEqualTo(2);
    assertThat(near.bytesRead()).as("c and d are not downloaded").isLessThan(big.size() * 3 / 4);

    HttpInputFile far = input(big);
    assertThat(read(far, new StructType(List.of(schema.field("id"), schema.field("c"))))).isEqualTo(20_000);
    assertThat(far.requests()).as("id and c, farther apart: two ranges").isEqualTo(3);
    assertThat(far.bytesRead()).as("a and b are skipped").isLessThan(big.size() / 2);
  }

  @Test
  void theRowCountNeedsOnlyTheFooter() {
    HttpInputFile in = input(big);
    try (ParquetRowReader r = ParquetRowReader.open(in, "f", new StructType(List.<StructField>of()), List.of(),
        Map.of(), ReadSettings.DEFAULT, 0)) {
      assertThat(r.rowCount()).isEqualTo(20_000);
    }
    assertThat(in.requests()).isEqualTo(1);
  }

  @Test
  void aPrefetchedFooterIsNotFetchedAgain() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      HttpInputFile in = input(big).prefetchFooter(pool);
      pool.submit(() -> { }).get(); // the prefetch ran
      assertThat(in.requests()).isEqualTo(1);
      assertThat(read(in, schema)).isEqualTo(20_000);
      assertThat(in.requests()).isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aPrefetchedFileHasItsFooterAndItsDataRangeOnTheWayBeforeItIsRead() throws Exception {
    server.faults().storageLatency(Duration.ofMillis(200)); // distant storage: each request waits before answering
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      HttpInputFile in = input(big).prefetch(pool);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (server.requests().count(Endpoint.STORAGE) < 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(server.requests().count(Endpoint.STORAGE)).as("the footer and the data asked for ahead")
          .isEqualTo(2);
      assertThat(read(in, schema)).isEqualTo(20_000);
      assertThat(in.requests()).as("the reader took the range opened ahead").isEqualTo(2);
      assertThat(server.requests().count(Endpoint.STORAGE)).isEqualTo(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aRangeOpenedAheadThatTheReaderDoesNotNeedIsDroppedAndTheRightOneAsked() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      HttpInputFile in = input(big).prefetch(pool);
      StructType lastColumn = new StructType(List.of(schema.field(schema.size() - 1)));
      assertThat(read(in, lastColumn)).isEqualTo(20_000);
      assertThat(in.bytesRead()).as("the first columns are not downloaded").isLessThan(big.size() / 2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void closingTheClientAbortsAReadWaitingForStorageToAnswer() throws Exception {
    server.faults().storageLatency(Duration.ofSeconds(60));
    assertAbortedByClose(input(big));
  }

  @Test
  void closingTheClientEndsAReadReceivingABodyAtItsNextBytes() throws Exception {
    server.faults().slowStorage(Duration.ofMillis(500)); // the headers come at once, each 64 KiB after 0.5 s
    assertAbortedByClose(input(big));
  }

  /** Reads {@code in} on another thread, closes the client while storage holds the read, expects a prompt cancel. */
  private void assertAbortedByClose(HttpInputFile in) throws Exception {
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<Long> rows = reader.submit(() -> read(in, schema));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (server.requests().count(Endpoint.STORAGE) == 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      Thread.sleep(200); // the request is held by storage now
      client.close();
      assertThatThrownBy(() -> rows.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(CancelledException.class);
      assertThat(in.requests()).as("a cancelled read is not retried").isEqualTo(1);
    } finally {
      reader.shutdownNow();
    }
  }

  @Test
  void aStalledBodyFailsWithTheReadTimeoutOnceItsRetriesAreSpent() {
    DeltaSharingClient impatient = new DeltaSharingClient(client.profile(), client.settings()
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(1))
        .withRetry(new RetrySettings(2, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofSeconds(30))));
    server.faults().slowStorage(Duration.ofSeconds(3)); // longer than the read timeout before every 64 KiB
    HttpInputFile in = new HttpInputFile(impatient, SignedUrl.fixed(big.url()), big.size(), big.id());
    assertThatThrownBy(() -> read(in, schema)).hasStackTraceContaining("Read timed out");
    assertThat(in.requests()).as("the first attempt and one retry").isEqualTo(2);
  }
}
