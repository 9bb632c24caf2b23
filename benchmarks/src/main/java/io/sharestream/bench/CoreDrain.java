package io.sharestream.bench;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.HttpInputFile;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The core alone streaming a table to its end, as a connector task's table does it but without Kafka: plans 16 files
 * at a time, fetches the next 2 footers ahead, reads every row. What a scale figure of the connector is compared to.
 */
final class CoreDrain {
  /** Files planned at once and footers fetched ahead, as the task does (files.per.batch default, its prefetch). */
  private static final int FILES_PER_PLAN = 16;
  private static final int PREFETCH = 2;

  long rows;
  long files;
  long versions;
  double seconds;
  /** Whether it stopped at its time limit before the end. */
  boolean partial;
  private long deadline;

  /**
   * Streams each table from {@code startingVersion} to its latest version, one after the other, for at most
   * {@code maxSeconds}.
   */
  static CoreDrain run(DeltaSharingClient client, List<TableRef> tables, String startingVersion,
      ExecutorService footers, long maxSeconds) {
    CoreDrain d = new CoreDrain();
    long t0 = System.nanoTime();
    d.deadline = t0 + maxSeconds * 1_000_000_000L;
    for (int i = 0; i < tables.size() && !d.partial; i++) {
      d.drain(client, tables.get(i), startingVersion, footers);
    }
    d.seconds = (System.nanoTime() - t0) / 1e9;
    return d;
  }

  private void drain(DeltaSharingClient client, TableRef table, String startingVersion, ExecutorService footers) {
    StreamSettings settings = StreamOptions.parse(Map.of(StreamOptions.STARTING_VERSION, startingVersion));
    try (SharingStreamPlanner planner = new SharingStreamPlanner(client, table, settings, Duration.ofSeconds(10),
        Clock.systemUTC())) {
      Position from = planner.initialPosition();
      long firstVersion = from.tableVersion();
      while (!partial) {
        StreamPlanner.Plan plan = planner.plan(from, AdmissionLimits.files(FILES_PER_PLAN));
        if (plan.units().isEmpty() && plan.end().equals(from)) {
          break; // caught up
        }
        read(client, planner, plan.units(), settings, footers);
        from = plan.end();
      }
      versions += from.tableVersion() - firstVersion;
    }
  }

  private void read(DeltaSharingClient client, SharingStreamPlanner planner, List<WorkUnit> units,
      StreamSettings settings, ExecutorService footers) {
    List<UnitUrls> urls = new ArrayList<>();
    List<HttpInputFile> inputs = new ArrayList<>();
    for (WorkUnit u : units) {
      urls.add(planner.urls(u));
      inputs.add(UnitReader.input(client, u, urls.get(urls.size() - 1)));
    }
    for (int i = 0; i < units.size(); i++) {
      for (int ahead = i + 1; ahead < Math.min(units.size(), i + 1 + PREFETCH); ahead++) {
        inputs.get(ahead).prefetchFooter(footers);
      }
      WorkUnit u = units.get(i);
      try (UnitReader r = UnitReader.open(client, inputs.get(i), u, urls.get(i), u.schema(), settings.read(), 0)) {
        while (r.hasNext()) {
          r.next();
          rows++;
        }
      }
      files++;
      if (System.nanoTime() > deadline) {
        partial = true;
        return;
      }
    }
  }
}
