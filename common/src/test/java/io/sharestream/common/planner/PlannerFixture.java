package io.sharestream.common.planner;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The planner tests' table: the kit's {@link ChangeMatrix} table (every kind of commit), served. */
final class PlannerFixture implements AutoCloseable {
  static final DeltaType.StructType SCHEMA = ChangeMatrix.SCHEMA;
  static final TableRef T = new TableRef("s", "sc", "t");

  final DeltaTableWriter table;
  final DeltaSharingServer server;
  final DeltaSharingClient client;

  PlannerFixture(Path dir, boolean cdf) {
    table = ChangeMatrix.write(dir, cdf);
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1))));
  }

  static List<Map<String, Object>> rows(long from, long to) {
    return ChangeMatrix.rows(from, to);
  }

  SharingStreamPlanner planner(Map<String, String> options) {
    return new SharingStreamPlanner(client, T, StreamOptions.parse(options), Duration.ZERO, Clock.systemUTC());
  }

  /** Plans from {@code from} until caught up, reading every row: "id:changeType@version" per row, in order. */
  static List<String> drain(SharingStreamPlanner planner, DeltaSharingClient client, Position from,
      AdmissionLimits limits, Position[] end) {
    List<String> out = new ArrayList<>();
    Position pos = from;
    for (int guard = 0; guard < 1000; guard++) {
      StreamPlanner.Plan p = planner.plan(pos, limits);
      for (WorkUnit u : p.units()) {
        try (UnitReader r = UnitReader.open(client, u, planner.urls(u), planner.schema(), ReadSettings.DEFAULT, 0)) {
          r.forEachRemaining(c -> out.add(c.row().get("id") + ":" + c.changeType() + "@" + u.version()
              + (c.row().get("name") == null ? "" : "/" + c.row().get("name"))));
        }
      }
      if (p.end().equals(pos)) {
        break;
      }
      pos = p.end();
    }
    if (end != null) {
      end[0] = pos;
    }
    return out;
  }

  List<String> drain(SharingStreamPlanner planner, Position from) {
    return drain(planner, client, from, AdmissionLimits.UNLIMITED, null);
  }

  @Override
  public void close() {
    server.close();
  }
}
