package io.sharestream.bench;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.parquet.ParquetRowReader;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Throughput of the core's hot paths against the embedded server on loopback, printed as figures:
 * listing files (streamed NDJSON), reading rows (Parquet over HTTP range requests into rows), planning versions.
 * Each figure is the best of several rounds after a warm-up round.
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl benchmarks -am
 * java -Xmx1g -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) io.sharestream.bench.CoreBenchmark
 * </pre>
 */
public final class CoreBenchmark {
  private static final int ROUNDS = 5;

  private CoreBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("sharestream-bench");
    System.out.printf("machine: %d cores, java %s, heap %d MiB%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);

    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
        DeltaType.field("name", DeltaType.STRING), DeltaType.field("score", DeltaType.DOUBLE),
        DeltaType.field("at", DeltaType.TIMESTAMP), DeltaType.field("amount", DeltaType.decimal(18, 2)));
    DeltaTableWriter many = DeltaTableWriter.create(dir.resolve("many"), schema).commit();
    many.appendCopies(rows(0, 10), 10_000);

    DeltaTableWriter big = DeltaTableWriter.create(dir.resolve("big"), schema).commit();
    for (int f = 0; f < 10; f++) {
      big.append(rows(f * 100_000L, (f + 1) * 100_000L));
    }
    long bigBytes = big.snapshot().sizeInBytes();

    DeltaTableWriter versions = DeltaTableWriter.create(dir.resolve("versions"), schema).commit();
    for (int v = 0; v < 100; v++) {
      versions.append(rows(v * 10L, v * 10L + 10), 1);
    }

    DeltaTableWriter small = DeltaTableWriter.create(dir.resolve("small"), schema).commit();
    small.append(rows(0, 100));

    try (DeltaSharingServer server = DeltaSharingServer.builder()
        .table("s", "b", "small", small.dir(), true)
        .table("s", "b", "many", many.dir(), true)
        .table("s", "b", "big", big.dir(), true)
        .table("s", "b", "versions", versions.dir(), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);

      TableRef manyRef = new TableRef("s", "b", "many");
      TableRef smallRef = new TableRef("s", "b", "small");
      double[] meta = latencies(200, () -> client.metadata(smallRef, null, null));
      System.out.printf("latency, metadata request: p50 %.2f ms, p99 %.2f ms (200 sequential requests, 2-version "
          + "table)%n", meta[0], meta[1]);
      io.sharestream.common.model.FileAction bigFile;
      try (FileListing l = client.query(new TableRef("s", "b", "big"), QueryRequest.latest().maxFiles(1))) {
        bigFile = (io.sharestream.common.model.FileAction) l.next();
      }
      byte[] buf = new byte[1024];
      double[] range = latencies(200, () -> {
        HttpInputFile in = new HttpInputFile(client, io.sharestream.common.client.SignedUrl.fixed(bigFile.url()),
            bigFile.size(), "f");
        try (org.apache.parquet.io.SeekableInputStream s = in.newStream()) {
          s.seek(4);
          s.readFully(buf);
        }
      });
      System.out.printf("latency, 1 KB range read of a data file: p50 %.2f ms, p99 %.2f ms (200 sequential reads)%n",
          range[0], range[1]);

      double listing = best(() -> {
        long n = 0;
        try (FileListing l = client.query(new TableRef("s", "b", "many"), QueryRequest.latest())) {
          while (l.hasNext()) {
            l.next();
            n++;
          }
        }
        return n;
      });
      System.out.printf("listing: %,.0f files/s (10,000-file snapshot, one streamed response)%n", listing);

      double paged = best(() -> {
        long n = 0;
        try (FileListing l = client.query(new TableRef("s", "b", "many"), QueryRequest.latest().maxFiles(1000))) {
          while (l.hasNext()) {
            l.next();
            n++;
          }
        }
        return n;
      });
      System.out.printf("listing, pages of 1,000: %,.0f files/s%n", paged);

      TableRef bigRef = new TableRef("s", "b", "big");
      try (SharingStreamPlanner planner = new SharingStreamPlanner(client, bigRef,
          StreamOptions.parse(Map.of("startingVersion", "1")), Duration.ZERO, Clock.systemUTC())) {
        List<WorkUnit> units = planner.plan(planner.initialPosition(), AdmissionLimits.UNLIMITED).units();
        StructType all = planner.schema();
        StructType two = new StructType(List.of(all.field("id"), all.field("score")));
        for (StructType columns : List.of(all, two)) {
          double local = best(() -> readLocal(big, columns));
          System.out.printf("reading, ceiling: %,.0f rows/s of %d columns from local disk (the same 10 files, same "
              + "row reader)%n", local, columns.size());
          Reads r = new Reads();
          double rowsPerSecond = best(() -> r.read(client, planner, units, columns, null, false));
          System.out.printf("reading over HTTP, %d of 5 columns: %,.0f rows/s (%.2f of local), %.1f MB/s of Parquet, "
              + "%.1f requests per file, %.1f bytes per row%n", columns.size(), rowsPerSecond, rowsPerSecond / local,
              rowsPerSecond * r.bytesPerRow() / 1e6, r.requestsPerFile(), r.bytesPerRow());
        }
        server.faults().storageLatency(Duration.ofMillis(20));
        ExecutorService prefetch = Executors.newFixedThreadPool(4);
        try {
          String[] ways = {"", ", next 4 footers prefetched", ", next 4 footers prefetched and data ranges opened"};
          for (int way = 0; way < ways.length; way++) {
            Reads r = new Reads();
            ExecutorService footers = way == 0 ? null : prefetch;
            boolean data = way == 2;
            double rowsPerSecond = best(() -> r.read(client, planner, units, all, footers, data));
            System.out.printf("reading with 20 ms per storage request%s: %,.0f rows/s, %.1f requests per file%n",
                ways[way], rowsPerSecond, r.requestsPerFile());
          }
        } finally {
          prefetch.shutdownNow();
          server.faults().storageLatency(Duration.ZERO);
        }
      }

      TableRef versionsRef = new TableRef("s", "b", "versions");
      double planned = best(() -> {
        try (SharingStreamPlanner planner = new SharingStreamPlanner(client, versionsRef,
            StreamOptions.parse(Map.of("startingVersion", "0")), Duration.ZERO, Clock.systemUTC())) {
          long n = 0;
          StreamPlanner.Plan p = planner.plan(planner.initialPosition(), AdmissionLimits.UNLIMITED);
          n += p.units().size();
          return n;
        }
      });
      System.out.printf("planning: %,.0f files/s (101 versions of 10 files, one window of 100 versions + 1)%n",
          planned);
    }
  }

  /** Reads units through the core's reader, counting storage requests and bytes. */
  private static final class Reads {
    long files;
    long rows;
    long requests;
    long bytes;

    /** With {@code footers}: the next four files' footers prefetched there, and their data ranges when {@code data}. */
    long read(DeltaSharingClient client, SharingStreamPlanner planner, List<WorkUnit> units, StructType schema,
        ExecutorService footers, boolean data) {
      files = 0;
      rows = 0;
      requests = 0;
      bytes = 0;
      List<HttpInputFile> inputs = new ArrayList<>();
      List<UnitUrls> urls = new ArrayList<>();
      for (WorkUnit u : units) {
        urls.add(planner.urls(u));
        inputs.add(UnitReader.input(client, u, urls.get(urls.size() - 1)));
      }
      for (int i = 0; i < units.size(); i++) {
        for (int ahead = i; footers != null && ahead < Math.min(units.size(), i + 5); ahead++) {
          if (data) {
            inputs.get(ahead).prefetch(footers);
          } else {
            inputs.get(ahead).prefetchFooter(footers);
          }
        }
        try (UnitReader r = UnitReader.open(client, inputs.get(i), units.get(i), urls.get(i), schema,
            ReadSettings.DEFAULT, 0)) {
          while (r.hasNext()) {
            r.next();
            rows++;
          }
        }
        files++;
        requests += inputs.get(i).requests();
        bytes += inputs.get(i).bytesRead();
      }
      return rows;
    }

    double requestsPerFile() {
      return (double) requests / files;
    }

    double bytesPerRow() {
      return (double) bytes / rows;
    }
  }

  /** Rows of every file of {@code table} read from local disk: the ceiling of reading over HTTP. */
  private static long readLocal(DeltaTableWriter table, StructType schema) throws Exception {
    long n = 0;
    for (io.sharestream.testkit.delta.DeltaAction.AddFile f : table.snapshot().files()) {
      Path file = table.log().resolve(f.path);
      try (ParquetRowReader r = ParquetRowReader.open(org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(
          new org.apache.hadoop.fs.Path(file.toUri()), new org.apache.hadoop.conf.Configuration()), "f", schema,
          List.of(), Map.of(), ReadSettings.DEFAULT, 0)) {
        while (r.hasNext()) {
          r.next();
          n++;
        }
      }
    }
    return n;
  }

  interface Call {
    void run() throws Exception;
  }

  /** p50 and p99 in milliseconds of {@code n} sequential calls, after {@code n / 10} warm-up calls. */
  private static double[] latencies(int n, Call call) throws Exception {
    for (int i = 0; i < n / 10; i++) {
      call.run();
    }
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      call.run();
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    java.util.Arrays.sort(ms);
    return new double[] {ms[n / 2], ms[(int) Math.ceil(n * 0.99) - 1]};
  }

  interface Work {
    long run() throws Exception;
  }

  /** Items per second, best of {@link #ROUNDS} after one warm-up round. */
  private static double best(Work w) throws Exception {
    w.run();
    double best = 0;
    for (int i = 0; i < ROUNDS; i++) {
      long t0 = System.nanoTime();
      long n = w.run();
      double perSecond = n / ((System.nanoTime() - t0) / 1e9);
      best = Math.max(best, perSecond);
    }
    return best;
  }

  private static List<Map<String, Object>> rows(long from, long to) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", i);
      r.put("name", "name-" + (i % 1000));
      r.put("score", i * 0.5);
      r.put("at", Instant.ofEpochSecond(1_700_000_000L + i));
      r.put("amount", BigDecimal.valueOf(i, 2));
      out.add(r);
    }
    return out;
  }
}
