package io.sharestream.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector under random faults and SIGKILLs of its worker: a distributed Connect worker in its own process with
 * the plugin from its zip streams two changing tables ({@code readChangeFeed} with deletion vectors, {@code
 * skipChangeCommits}) into Kafka; every change arrives, and with exactly-once delivery ({@link #EXACTLY_ONCE}) only
 * once, read committed. The worker is Kafka 4.1's on the newest Java installed.
 */
class KafkaSoakIT {
  /**
   * The worker and connectors with exactly-once delivery, where duplicates count as failures (the default);
   * {@code -Dsoak.exactlyOnce=false} checks at-least-once delivery instead, where a restart may repeat records but
   * must lose none.
   */
  private static final boolean EXACTLY_ONCE = !"false".equals(System.getProperty("soak.exactlyOnce"));

  @TempDir Path tmp;

  /** The newest Java installed (25 here): the newest Kafka line is proven there, the oldest on 17. */
  private static Jdk newestJava() {
    List<Jdk> jdks = Jdk.installed();
    return jdks.get(jdks.size() - 1);
  }

  @Test
  void exactlyOnceDeliveryLosesAndRepeatsNothingUnderRandomFaultsAndWorkerKills() throws Exception {
    Soak soak = new Soak(tmp.resolve("tables"));
    soak.warmUp(6);
    try (Kafka kafka = new Kafka();
        ConnectWorker worker = new ConnectWorker("4.1", newestJava(), kafka.bootstrap(), "soak", EXACTLY_ONCE,
            tmp.resolve("worker"))) {
      worker.start();
      String profile = soak.server.writeProfile(tmp.resolve("soak.share")).toString();
      Map<String, String> eventsConfig = Kafka.connector(profile, "s.sc.events", "readChangeFeed", "true",
          "startingVersion", "0");
      Map<String, String> plainConfig = Kafka.connector(profile, "s.sc.plain", "skipChangeCommits", "true",
          "startingVersion", "0");
      if (EXACTLY_ONCE) {
        eventsConfig.put("exactly.once.support", "required");
        plainConfig.put("exactly.once.support", "required");
        plainConfig.put("transaction.boundary", "connector");
      }
      worker.deploy("events", eventsConfig);
      worker.deploy("plain", plainConfig);
      worker.awaitRunning("events", 1, Duration.ofSeconds(60));
      worker.awaitRunning("plain", 1, Duration.ofSeconds(60));

      Soak.Victim victim = new Soak.Victim() {
        private long nextCheck;

        @Override
        public void kill() throws Exception {
          worker.kill();
        }

        @Override
        public void start() throws Exception {
          worker.start();
        }

        @Override
        public String failure() throws Exception {
          if (!worker.process().alive()) {
            return "the worker died (exit " + worker.process().exitCode() + "):\n" + worker.process().tail(40);
          }
          if (System.nanoTime() < nextCheck) {
            return null;
          }
          nextCheck = System.nanoTime() + Duration.ofSeconds(1).toNanos();
          for (String c : List.of("events", "plain")) {
            try {
              for (JsonNode t : worker.get("/connectors/" + c + "/status").path("tasks")) {
                if ("FAILED".equals(t.path("state").asText())) {
                  return "task of " + c + " failed: " + t.path("trace").asText();
                }
              }
            } catch (IOException e) {
              // the worker is starting: its REST API or the connector is not there yet
            }
          }
          return null;
        }
      };
      soak.run(victim);

      SoakTable events = soak.table("events");
      SoakTable plain = soak.table("plain");
      String engine = "the Kafka connector (" + (EXACTLY_ONCE ? "exactly-once" : "at-least-once") + ", Connect "
          + worker.version() + " on " + newestJava() + ")";
      soak.verify(victim, engine, Duration.ofSeconds(180), EXACTLY_ONCE, () -> List.of(
              new Ledger("events (readChangeFeed, deletion vectors)", events.changeFeed(),
                  kafka.events("soak.s.sc.events", true)),
              new Ledger("plain (skipChangeCommits)", plain.appends(), kafka.events("soak.s.sc.plain", false))
                  .traced(kafka.seenAt)));
      if (EXACTLY_ONCE) {
        System.out.println("records of aborted transactions, left out by the read-committed check: events "
            + kafka.abortedRecords("soak.s.sc.events") + ", plain " + kafka.abortedRecords("soak.s.sc.plain"));
      }
      for (String c : List.of("events", "plain")) { // KIP-875: what the worker stored is what it reports
        JsonNode offset = worker.get("/connectors/" + c + "/offsets").path("offsets").path(0).path("offset");
        assertThat(offset.path("tableVersion").asLong()).as(c + "'s offset").isPositive();
      }
    } finally {
      soak.server.close();
    }
  }
}
