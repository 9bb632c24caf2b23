package io.sharestream.soak;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark source under random faults and SIGKILLs of its driver: a Spark 3.1.1 driver in its own process streams
 * two changing tables ({@code readChangeFeed} with deletion vectors and small micro-batches, {@code
 * skipChangeCommits}) into the file sink and is restarted from its checkpoints after each kill; what the sink
 * committed holds every change exactly once.
 */
class SparkSoakIT {
  @TempDir Path tmp;

  @Test
  void theCheckpointedFileSinkLosesAndDuplicatesNothingUnderRandomFaultsAndDriverKills() throws Exception {
    Soak soak = new Soak(tmp.resolve("tables"));
    soak.warmUp(6);
    String profile = soak.server.writeProfile(tmp.resolve("soak.share")).toString();
    try (SparkDriver driver = new SparkDriver(tmp.resolve("spark"), profile, List.of(
        "events=s.sc.events,readChangeFeed=true,startingVersion=0,maxFilesPerTrigger=8",
        "plain=s.sc.plain,skipChangeCommits=true,startingVersion=0"))) {
      Soak.Victim victim = new Soak.Victim() {
        @Override
        public void kill() throws Exception {
          driver.process().kill();
        }

        @Override
        public void start() {
          driver.process().start();
        }

        @Override
        public String failure() {
          return driver.process().alive() ? null
              : "the Spark driver ended (exit " + driver.process().exitCode() + "):\n" + driver.process().tail(60);
        }
      };
      victim.start();
      soak.run(victim);

      SoakTable events = soak.table("events");
      SoakTable plain = soak.table("plain");
      soak.verify(victim, "the Spark source (Spark 3.1.1, file sink)", Duration.ofSeconds(180), true, () -> List.of(
          new Ledger("events (readChangeFeed, deletion vectors, maxFilesPerTrigger=8)", events.changeFeed(),
              driver.committed("events", true)),
          new Ledger("plain (skipChangeCommits)", plain.appends(), driver.committed("plain", false))));
    } finally {
      soak.server.close();
    }
  }
}
