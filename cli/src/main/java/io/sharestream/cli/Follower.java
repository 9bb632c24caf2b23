package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.StreamSettings;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Follows a table like {@code tail -f}: the core's stream planner settles where it starts (the starting options)
 * and plans the files of each new version; their rows go to a visitor in stream order. Caught up, it asks for new
 * versions once per poll interval, and ends once standard output's reader is gone. {@link #stop()} ends it from
 * another thread.
 */
final class Follower {
  /** Files planned at a time. */
  private static final int FILES_PER_PLAN = 16;
  /** How long {@link #stop()} waits for the follower to leave. */
  private static final Duration STOP_WAIT = Duration.ofSeconds(5);
  /** How often, while waiting for new versions, standard output's reader is looked for. */
  private static final Duration OUTPUT_CHECK = Duration.ofMillis(250);

  private final DeltaSharingClient client;
  private final TableRef table;
  private final StreamSettings settings;
  private final Duration pollInterval;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final CountDownLatch done = new CountDownLatch(1);

  Follower(DeltaSharingClient client, TableRef table, StreamSettings settings, Duration pollInterval) {
    this.client = client;
    this.table = table;
    this.settings = settings;
    this.pollInterval = pollInterval;
  }

  /** Hands rows to {@code visitor} until it wants no more or {@link #stop()} is called. */
  void follow(FileRows.Visitor visitor) throws InterruptedException {
    try (SharingStreamPlanner planner = new SharingStreamPlanner(client, table, settings, pollInterval,
        Clock.systemUTC())) {
      Position position = planner.initialPosition();
      while (stopped.getCount() > 0) {
        StreamPlanner.Plan plan = planner.plan(position, AdmissionLimits.files(FILES_PER_PLAN));
        for (WorkUnit u : plan.units()) {
          if (!FileRows.read(client, u, planner.urls(u), settings.read(), visitor)) {
            return;
          }
        }
        boolean caughtUp = plan.units().isEmpty() && plan.end().equals(position);
        position = plan.end();
        if (caughtUp) {
          Stderr.status("following " + table + ": waiting for version " + position.tableVersion()
              + " (Ctrl-C ends)");
        }
        if (caughtUp && idle()) {
          return;
        }
      }
    } catch (RuntimeException e) {
      if (stopped.getCount() > 0) {
        throw e;
      } // else the failure of a request that stop() cut short
    } finally {
      done.countDown();
    }
  }

  /**
   * Waits a poll interval, in slices of {@link #OUTPUT_CHECK}, each ending with a look at standard output's reader
   * ({@link OutputClosed#checkReader}: a closed pipe ends the command now, not at the next version's first row); true
   * once {@link #stop()} was called.
   */
  private boolean idle() throws InterruptedException {
    long end = System.nanoTime() + pollInterval.toNanos();
    for (long left = pollInterval.toNanos(); left > 0; left = end - System.nanoTime()) {
      if (stopped.await(Math.min(left, OUTPUT_CHECK.toNanos()), TimeUnit.NANOSECONDS)) {
        return true;
      }
      OutputClosed.checkReader();
    }
    return false;
  }

  /**
   * Ends {@link #follow} (a wait at once, a request or read in flight by closing the client) and waits a while for
   * it to return.
   */
  void stop() {
    stopped.countDown();
    client.close();
    try {
      done.await(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
