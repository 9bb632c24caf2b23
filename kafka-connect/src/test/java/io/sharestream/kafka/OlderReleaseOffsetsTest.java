package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.InvalidPositionException;
import io.sharestream.common.planner.Position;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.jvm.MovableClock;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored offset an older release wrote inside a version names no file (offset format 1): on a server whose file
 * ids have changed since (it ignores the pinned id scheme and now answers in the delta format), which file it stood
 * in cannot be told. At-least-once, the version is read again from its start (nothing skipped, its rows counted as
 * possible duplicates); under exactly-once the offset is refused naming the fixes.
 */
class OlderReleaseOffsetsTest {
  static final TableRef REF = new TableRef("s", "sc", "t");

  @TempDir Path tmp;
  DeltaTableWriter table;
  DeltaSharingServer server;
  DeltaSharingClient client;

  @BeforeEach
  void serve() {
    table = DeltaTableWriter.create(tmp.resolve("t"), ConnectorStreamingTest.EVENTS).commit();
    table.append(ConnectorStreamingTest.events(0, 30), 10); // version 1: three files of ten rows
    table.append(ConnectorStreamingTest.events(30, 35)); // version 2
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).honourFileIdHash(false).start();
    server.faults().respondInDeltaFormat(Endpoint.CHANGES, 100).respondInDeltaFormat(Endpoint.QUERY, 100);
  }

  @AfterEach
  void stop() {
    if (client != null) {
      client.close();
    }
    server.close();
  }

  /** An offset of an older release: inside file 1 of version 1, after its row 4, without a file key. */
  private Map<String, Object> olderOffset() {
    Map<String, Object> m = new HashMap<>();
    m.put(Position.OFFSET_FORMAT, 1);
    m.put(Position.TABLE_ID, table.tableId());
    m.put(Position.TABLE_VERSION, 1L);
    m.put(Position.INDEX, 1L);
    m.put(Position.ROW, 4L);
    m.put(Position.IS_STARTING_VERSION, false);
    return m;
  }

  private TableStream stream(boolean transactional, String... extra) {
    Map<String, String> props = ConnectHarness.config(server.writeProfile(tmp.resolve("p.share")).toString(),
        REF.toString(), extra);
    DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(props);
    client = new DeltaSharingClient(config.profile(), config.clientSettings(d -> { }));
    return new TableStream(REF, client, config.streamSettings(), new RecordConverter(REF, "t", List.of(), true,
        TimePrecisionMode.CONNECT, FieldNameAdjustmentMode.AVRO), new TableMetrics("older", "0", REF), config,
        Runnable::run, new MovableClock(), transactional);
  }

  @Test
  void atLeastOnceItsVersionIsReadAgainFromItsStartAndCountedAsPossibleDuplicates() {
    try (TableStream s = stream(false)) {
      s.start(olderOffset(), Runnable::run);
      List<SourceRecord> out = new ArrayList<>();
      s.poll(out, 1000, Long.MAX_VALUE);
      List<String> rows = out.stream().filter(r -> r.value() instanceof Struct)
          .map(r -> version(r) + "/" + ((Struct) r.value()).getInt64("id")).collect(Collectors.toList());
      assertThat(rows).hasSize(35).doesNotHaveDuplicates(); // all of version 1, then version 2
      assertThat(s.metrics().getPossibleDuplicates()).isEqualTo(30);
    }
  }

  @Test
  void underExactlyOnceItIsRefusedNamingTheFixes() {
    for (TableStream s : List.of(stream(true), stream(false, "exactly.once.support", "required"))) {
      try (s) {
        assertThatThrownBy(() -> s.start(olderOffset(), Runnable::run)).isInstanceOf(InvalidPositionException.class)
            .hasMessageContaining("s.sc.t lies inside version 1 (file #1) and was written by an older release")
            .hasMessageContaining("PATCH /connectors/<name>/offsets")
            .hasMessageContaining("run the connector at-least-once");
      }
    }
  }

  private static String version(SourceRecord r) {
    Header h = r.headers().lastWithName(RecordConverter.HEADER_VERSION);
    return String.valueOf(h.value());
  }
}
