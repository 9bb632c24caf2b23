package io.sharestream.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector under random faults and SIGKILLs of its worker: a distributed Connect worker in its own process with
 * the plugin from its zip and exactly-once delivery streams two changing tables ({@code readChangeFeed} with
 * deletion vectors, {@code skipChangeCommits}) into Kafka; read committed, every change arrives exactly once.
 */
class KafkaSoakIT {
  @TempDir Path tmp;

  @Test
  void exactlyOnceDeliveryLosesAndDuplicatesNothingUnderRandomFaultsAndWorkerKills() throws Exception {
    Soak soak = new Soak(tmp.resolve("tables"));
    soak.warmUp(6);
    try (Kafka kafka = new Kafka();
        ConnectWorker worker = new ConnectWorker("4.1", Jdk.current(), kafka.bootstrap(), "soak", true,
            tmp.resolve("worker"))) {
      worker.start();
      String profile = soak.server.writeProfile(tmp.resolve("soak.share")).toString();
      worker.deploy("events", Kafka.connector(profile, "s.sc.events", "readChangeFeed", "true",
          "startingVersion", "0", "exactly.once.support", "required"));
      worker.deploy("plain", Kafka.connector(profile, "s.sc.plain", "skipChangeCommits", "true",
          "startingVersion", "0", "exactly.once.support", "required", "transaction.boundary", "connector"));
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
      Ledger[] ledgers = new Ledger[2];
      soak.await(victim, Duration.ofSeconds(180), () -> {
        try {
          ledgers[0] = new Ledger("events (readChangeFeed, deletion vectors)", events.changeFeed(),
              kafka.events("soak.s.sc.events", true));
          ledgers[1] = new Ledger("plain (skipChangeCommits)", plain.appends(), kafka.events("soak.s.sc.plain", false));
          return ledgers[0].complete() && ledgers[1].complete();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      String report = soak.report("the Kafka connector (exactly-once, Connect " + worker.version() + ")",
          List.of(ledgers));
      System.out.println(report);
      assertThat(soak.kills()).isEqualTo(soak.killTarget);
      assertThat(soak.faults()).isGreaterThanOrEqualTo(soak.faultTarget);
      assertThat(ledgers[0].clean() && ledgers[1].clean()).as(report).isTrue();
    } finally {
      soak.server.close();
    }
  }
}
