package io.sharestream.bench.spark;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryListener;
import org.apache.spark.sql.streaming.StreamingQueryProgress;

/**
 * A stream over a long history: from version 0 of a table of one-row versions with a small
 * {@code maxFilesPerTrigger}, into the {@code noop} sink. Prints the driver's planning time of a micro-batch
 * (latestOffset plus queryPlanning) over the first and the last 100 micro-batches, which must not grow with the
 * history read so far, and the driver's live heap (after a full collection) sampled as the stream goes, which must
 * stay flat over versions.
 */
final class HistoryRun {
  private static final int EDGE = 100;
  private static final long SAMPLE_MILLIS = 5_000;

  private HistoryRun() {}

  static void run(SparkSession spark, String path, Path dir, long rows, int maxFiles) throws Exception {
    List<Long> planning = Collections.synchronizedList(new ArrayList<>());
    AtomicLong seen = new AtomicLong();
    StreamingQueryListener listener = new Progress(planning, seen); // before the start: no batch missed
    spark.streams().addListener(listener);
    StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0")
        .option("maxFilesPerTrigger", Integer.toString(maxFiles)).load(path).writeStream().format("noop")
        .option("checkpointLocation", Files.createTempDirectory(dir, "history").toString()).start();
    List<long[]> heap = new ArrayList<>(); // {micro-batches so far, live bytes}
    long t0 = System.nanoTime();
    try {
      while (seen.get() < rows) {
        if (q.exception().isDefined()) {
          throw q.exception().get();
        }
        if (System.nanoTime() - t0 > 900e9) {
          throw new IllegalStateException("only " + seen.get() + " of " + rows + " rows in 15 minutes");
        }
        Thread.sleep(SAMPLE_MILLIS);
        System.gc();
        heap.add(new long[] {planning.size(), ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()});
      }
    } finally {
      q.stop();
      spark.streams().removeListener(listener);
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<Long> all = new ArrayList<>(planning);
    List<Long> first = new ArrayList<>(all.subList(0, Math.min(EDGE, all.size())));
    List<Long> last = new ArrayList<>(all.subList(Math.max(0, all.size() - EDGE), all.size()));
    System.out.printf("stream from version 0 over %,d one-row versions, maxFilesPerTrigger=%d: %,d micro-batches in "
        + "%.0f s (%,.0f versions/s)%n", rows, maxFiles, all.size(), seconds, rows / seconds);
    System.out.printf("  planning a micro-batch (latestOffset + queryPlanning), first %d: median %d ms, p90 %d ms; "
        + "last %d: median %d ms, p90 %d ms; last/first (medians) %.2f%n", first.size(), pct(first, 50),
        pct(first, 90), last.size(), pct(last, 50), pct(last, 90), pct(last, 50) / (double) pct(first, 50));
    List<long[]> streaming = new ArrayList<>(heap);
    streaming.removeIf(sample -> sample[0] == 0); // before the first micro-batch with data
    long max = streaming.stream().mapToLong(sample -> sample[1]).max().getAsLong();
    StringBuilder quarters = new StringBuilder();
    for (int quarter = 0; quarter <= 4; quarter++) {
      long[] sample = streaming.get(quarter * (streaming.size() - 1) / 4);
      quarters.append(String.format("%s%d MiB after %d", quarter == 0 ? "" : ", ", sample[1] >> 20, sample[0]));
    }
    System.out.printf("  driver live heap after a full collection, sampled every %d s (micro-batches so far): %s; "
        + "largest %d MiB; last/first %.2f (%d samples)%n", SAMPLE_MILLIS / 1000, quarters, max >> 20,
        streaming.get(streaming.size() - 1)[1] / (double) streaming.get(0)[1], streaming.size());
  }

  private static long pct(List<Long> values, int p) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
  }

  /** Records each micro-batch with data (of the one query running): its planning time and its rows. */
  private static final class Progress extends StreamingQueryListener {
    private final List<Long> planning;
    private final AtomicLong seen;

    Progress(List<Long> planning, AtomicLong seen) {
      this.planning = planning;
      this.seen = seen;
    }

    @Override
    public void onQueryStarted(QueryStartedEvent event) {}

    @Override
    public void onQueryProgress(QueryProgressEvent event) {
      StreamingQueryProgress p = event.progress();
      if (p.numInputRows() > 0) {
        planning.add(p.durationMs().get("latestOffset") + p.durationMs().get("queryPlanning"));
        seen.addAndGet(p.numInputRows());
      }
    }

    @Override
    public void onQueryTerminated(QueryTerminatedEvent event) {}
  }
}
