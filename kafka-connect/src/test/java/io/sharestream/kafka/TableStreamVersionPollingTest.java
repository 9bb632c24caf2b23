package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.jvm.MovableClock;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's version polls under poll.interval.ms=1000 and poll.interval.max.ms=8000, on a clock moved by hand a
 * second per poll (no worker: the table's stream against the kit's server).
 */
class TableStreamVersionPollingTest {
  @TempDir Path tmp;

  @Test
  void anUnchangingTableAsksLessOftenUpToTheCeilingAndANewVersionBringsTheIntervalBack() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 5), 1);
    TableRef ref = new TableRef("s", "sc", "t");
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(ConnectHarness.config(
          server.writeProfile(tmp.resolve("p.share")).toString(), ref.toString(), "startingVersion", "0",
          "poll.interval.ms", "1000", "poll.interval.max.ms", "8000", "heartbeat.interval.ms", "0"));
      MovableClock clock = new MovableClock();
      DeltaSharingClient client = new DeltaSharingClient(config.profile(), config.clientSettings(d -> { }));
      List<SourceRecord> out = new ArrayList<>();
      try (TableStream stream = new TableStream(ref, client, config.streamSettings(), new RecordConverter(ref, "t",
          List.of(), true, TimePrecisionMode.CONNECT, FieldNameAdjustmentMode.AVRO),
          new TableMetrics("polling", "0", ref), config, Runnable::run, clock, false)) {
        stream.start(null, Runnable::run);
        stream.poll(out, 100, Long.MAX_VALUE);
        assertThat(out).hasSize(5);

        server.requests().clear();
        List<Integer> gaps = new ArrayList<>();
        int last = 0;
        for (int second = 1; second <= 60; second++) {
          clock.advance(Duration.ofSeconds(1));
          int before = server.requests().count(Endpoint.VERSION);
          stream.poll(out, 100, Long.MAX_VALUE);
          if (server.requests().count(Endpoint.VERSION) > before) {
            gaps.add(second - last);
            last = second;
          }
        }
        assertThat(gaps).as("seconds between version requests of an unchanging table").isSorted()
            .startsWith(1, 2, 4, 8).endsWith(8, 8, 8);

        table.append(ConnectorStreamingTest.events(5, 6), 1); // after a quiet spell: within the ceiling
        assertThat(secondsUntilRecord(stream, clock, out)).isBetween(1, 8);
        table.append(ConnectorStreamingTest.events(6, 7), 1); // the table changes: within the interval
        assertThat(secondsUntilRecord(stream, clock, out)).isEqualTo(1);
      }
    }
  }

  private static int secondsUntilRecord(TableStream stream, MovableClock clock, List<SourceRecord> out) {
    int before = out.size();
    for (int second = 1; second <= 60; second++) {
      clock.advance(Duration.ofSeconds(1));
      stream.poll(out, 100, Long.MAX_VALUE);
      if (out.size() > before) {
        return second;
      }
    }
    return -1;
  }
}
