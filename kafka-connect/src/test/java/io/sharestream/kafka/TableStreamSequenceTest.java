package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.planner.Position;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.jvm.MovableClock;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order a table's records are made in (no worker: one table's stream against the kit's server, its footers
 * fetched on the calling thread): a file whose opening failed is never skipped. Read on without going back, the
 * stream refuses to hand out the next file's rows, whose offsets would pass the failed file's; taken back to its last
 * record handed out, it reads every row.
 */
class TableStreamSequenceTest {
  @TempDir Path tmp;

  @Test
  void aFileWhoseOpeningFailedIsNeverSkipped() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 30), 10); // version 1: three files of ten rows
    TableRef ref = new TableRef("s", "sc", "t");
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(ConnectHarness.config(
          server.writeProfile(tmp.resolve("p.share")).toString(), ref.toString(), "startingVersion", "0"));
      DeltaSharingClient client = new DeltaSharingClient(config.profile(), config.clientSettings(d -> { }));
      List<SourceRecord> out = new ArrayList<>();
      try (TableStream stream = new TableStream(ref, client, config.streamSettings(), new RecordConverter(ref, "t",
          List.of(), true, TimePrecisionMode.CONNECT, FieldNameAdjustmentMode.AVRO),
          new TableMetrics("sequence", "0", ref), config, Runnable::run, new MovableClock(), false)) {
        stream.start(null, Runnable::run); // plans the three files and fetches the first one's footer
        server.faults().failWith(Endpoint.STORAGE, 1, 404); // the second file's footer, fetched ahead next
        stream.poll(out, 5, Long.MAX_VALUE); // five rows of the first file
        Position handedOut = stream.position();
        assertThatThrownBy(() -> stream.poll(out, 100, Long.MAX_VALUE)) // its last five rows, then the second file
            .isInstanceOf(VersionNotAvailableException.class);

        assertThatThrownBy(() -> stream.poll(out, 100, Long.MAX_VALUE))
            .as("reading on past the second file").isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("out of sequence").hasMessageContaining("s.sc.t");

        out.subList(5, out.size()).clear(); // what a task does with a failed turn's records
        stream.resetTo(handedOut);
        stream.poll(out, 100, Long.MAX_VALUE);
        assertThat(out.stream().map(r -> ((Struct) r.value()).getInt64("id")).collect(Collectors.toSet()))
            .hasSize(30);
        assertThat(out).hasSize(30);
      }
    }
  }
}
