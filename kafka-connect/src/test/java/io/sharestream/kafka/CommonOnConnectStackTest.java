package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.ChangeRow;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.ParquetSchemas.TimestampEncoding;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The common core, compiled against Spark's Parquet 1.10.1, runs unchanged on the Connect plugin's stack:
 * Parquet 1.15.2, shaded Hadoop 3.3.6 client, Jackson 2.19.
 */
class CommonOnConnectStackTest {
  @TempDir Path tmp;

  @Test
  void plannerAndReaderWorkOnParquet115() {
    assertThat(Version.FULL_VERSION).contains("1.15.2");
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
        DeltaType.field("ts", DeltaType.TIMESTAMP), DeltaType.field("amount", DeltaType.decimal(20, 4)),
        DeltaType.field("tags", DeltaType.array(DeltaType.STRING, true)),
        DeltaType.field("attrs", DeltaType.map(DeltaType.STRING, DeltaType.struct(DeltaType.field("n",
            DeltaType.INTEGER)), true)),
        DeltaType.field("day", DeltaType.DATE));
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), schema).partitionedBy("day")
        .timestamps(TimestampEncoding.INT96).changeDataFeed(true).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 4; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("id", i);
      r.put("ts", Instant.parse("1965-03-01T00:00:00.000001Z").plusSeconds(i));
      r.put("amount", new BigDecimal(i + ".0001"));
      r.put("tags", List.of("a" + i));
      r.put("attrs", Map.of("k", Map.of("n", (int) i)));
      r.put("day", LocalDate.of(2024, 1, 1 + (int) (i % 2)));
      rows.add(r);
    }
    table.append(rows);
    table.updateWhere(r -> r.get("id").equals(3L), r -> {
      r.put("amount", new BigDecimal("99.0000"));
      return r;
    });
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);
      try (SharingStreamPlanner planner = new SharingStreamPlanner(client, new TableRef("s", "sc", "t"),
          StreamOptions.parse(Map.of("startingVersion", "1", "readChangeFeed", "true")), Duration.ZERO,
          Clock.systemUTC())) {
        List<String> seen = new ArrayList<>();
        for (WorkUnit u : planner.plan(planner.initialPosition(), AdmissionLimits.UNLIMITED).units()) {
          try (UnitReader r = UnitReader.open(client, u, planner.urls(u), planner.schema(), ReadSettings.DEFAULT, 0)) {
            while (r.hasNext()) {
              ChangeRow c = r.next();
              seen.add(c.row().get("id") + ":" + c.changeType() + ":" + c.row().get("amount") + ":"
                  + c.row().get("ts") + ":" + c.row().get("day"));
            }
          }
        }
        assertThat(seen).hasSize(6).contains(
            "3:update_preimage:3.0001:1965-03-01T00:00:03.000001Z:2024-01-02",
            "3:update_postimage:99.0000:1965-03-01T00:00:03.000001Z:2024-01-02",
            "0:insert:0.0001:1965-03-01T00:00:00.000001Z:2024-01-01");
      }
    }
  }
}
