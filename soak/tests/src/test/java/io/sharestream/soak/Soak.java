package io.sharestream.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.Callable;

/**
 * One soak: while a writer keeps committing to the tables and random faults come and go on the server, the engine
 * under test (its {@link Victim}) is killed with SIGKILL and started again at random points. When the targets are
 * reached, faults stop, the writer makes its last commits, and the engine gets time to catch up; then the caller
 * compares what arrived with the tables' ground truth.
 *
 * <p>Targets and seed come from {@code soak.faults}, {@code soak.kills} and {@code soak.seed} (CI runs a short
 * form; {@code soak/run-long.sh} a long one). The seed is printed, so a failing run can be repeated.
 */
final class Soak {
  /** The engine under test, as the soak handles it. */
  interface Victim {
    void kill() throws Exception;

    void start() throws Exception;

    /** Null while healthy; else why the engine cannot go on (a failed query, a dead worker's reason). */
    String failure() throws Exception;
  }

  private final long seed;
  private final Random random;
  private final int faultTarget = Integer.getInteger("soak.faults", 12);
  private final int killTarget = Integer.getInteger("soak.kills", 2);
  final DeltaSharingServer server;
  private final List<SoakTable> tables = new ArrayList<>();
  private int kills;
  private int commits;
  private Duration took = Duration.ZERO;
  private final RandomFaults faults;

  /**
   * The kit's server over two tables under {@code dir}: {@code events} (change data feed and deletion vectors, so
   * answered in the delta format) and {@code plain} (neither).
   */
  Soak(Path dir) {
    String s = System.getProperty("soak.seed", "random");
    this.seed = "random".equals(s) ? new Random().nextLong() : Long.parseLong(s);
    this.random = new Random(seed);
    tables.add(new SoakTable("events", dir, true, true));
    tables.add(new SoakTable("plain", dir, false, false));
    DeltaSharingServer.Builder b = DeltaSharingServer.builder();
    for (SoakTable t : tables) {
      b.table("s", "sc", t.name, t.dir(), true);
    }
    this.server = b.start();
    this.faults = new RandomFaults(server, new Random(random.nextLong()));
  }

  SoakTable table(String name) {
    return tables.stream().filter(t -> t.name.equals(name)).findFirst().orElseThrow();
  }

  /** A few commits before the engine starts, so its first batch has history to read. */
  void warmUp(int commits) {
    for (int i = 0; i < commits; i++) {
      commit(random);
    }
  }

  /**
   * Runs the faults, kills and commits until both targets are reached, then stops the faults and the writer and
   * leaves the engine running (started) for the caller to wait on.
   */
  void run(Victim victim) throws Exception {
    long t0 = System.nanoTime();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Random writerRandom = new Random(random.nextLong());
    Thread writer = new Thread(() -> {
      try {
        while (!stop.get()) {
          commit(writerRandom);
          Thread.sleep(300 + writerRandom.nextInt(500));
          if (faults.count() < faultTarget && writerRandom.nextInt(3) == 0) {
            faults.next();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Throwable e) {
        writerFailure.set(e);
      }
    }, "soak-writer");
    writer.start();
    try {
      while (kills < killTarget || faults.count() < faultTarget) {
        sleepWatching(victim, Duration.ofMillis(2000 + random.nextInt(6000)));
        if (kills < killTarget) {
          victim.kill();
          kills++;
          Thread.sleep(random.nextInt(1500));
          victim.start();
        }
        if (writerFailure.get() != null) {
          throw new AssertionError("the soak's writer failed", writerFailure.get());
        }
      }
    } finally {
      stop.set(true);
      writer.join();
      faults.stop();
    }
    commit(random); // a last commit after the faults, so the end is a version the engine reads in calm
    took = Duration.ofNanos(System.nanoTime() - t0);
  }

  /**
   * Waits up to {@code timeout} until every ledger {@code check} draws up is complete (the engine has caught up),
   * failing early if the victim reports a failure; then prints the run's report and asserts the targets were met
   * and nothing was lost or unexpected, nor, with {@code exactlyOnce}, duplicated.
   */
  void verify(Victim victim, String engine, Duration timeout, boolean exactlyOnce, Callable<List<Ledger>> check)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Ledger> ledgers = check.call();
    while (!ledgers.stream().allMatch(Ledger::complete) && System.nanoTime() < deadline) {
      sleepWatching(victim, Duration.ofSeconds(1));
      ledgers = check.call();
    }
    String report = report(engine, ledgers);
    System.out.println(report);
    assertThat(kills).as("kills").isEqualTo(killTarget);
    assertThat(faults.count()).as("faults").isGreaterThanOrEqualTo(faultTarget);
    assertThat(ledgers.stream().allMatch(exactlyOnce ? Ledger::clean : Ledger::atLeastOnce)).as(report).isTrue();
  }

  private void sleepWatching(Victim victim, Duration d) throws Exception {
    long end = System.nanoTime() + d.toNanos();
    while (System.nanoTime() < end) {
      String failure = victim.failure();
      if (failure != null) {
        throw new AssertionError(failure);
      }
      Thread.sleep(Math.min(200, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
    }
  }

  private synchronized void commit(Random r) {
    tables.get(r.nextInt(tables.size())).step(r);
    commits++;
  }

  /** The run in numbers: seed, faults by kind, kills, commits by table and operation, then each ledger. */
  private String report(String engine, List<Ledger> ledgers) {
    Map<String, Map<String, Integer>> byTable = new TreeMap<>();
    for (SoakTable t : tables) {
      byTable.put(t.name + " (to v" + t.version() + ")", t.commits());
    }
    StringBuilder b = new StringBuilder("soak of " + engine + " (seed " + seed + ", " + took.toSeconds() + " s): "
        + faults.count() + " faults " + faults.byKind() + ", " + kills + " kills (SIGKILL), " + commits
        + " commits " + byTable);
    int compared = 0;
    int lost = 0;
    int duplicated = 0;
    for (Ledger l : ledgers) {
      b.append("\n").append(l);
      compared += l.expected;
      lost += l.lost.size();
      duplicated += l.duplicated.size() + l.unexpected.size();
    }
    b.append("\nrows compared ").append(compared).append(", lost ").append(lost).append(", duplicated ")
        .append(duplicated);
    return b.toString();
  }

}
