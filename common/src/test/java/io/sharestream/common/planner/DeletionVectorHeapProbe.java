package io.sharestream.common.planner;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/** Run in a child JVM with a small heap: streams a table's snapshot through the planner and prints its rows. */
public final class DeletionVectorHeapProbe {
  private DeletionVectorHeapProbe() {}

  public static void main(String[] args) {
    DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(args[0]), ClientSettings.DEFAULT);
    long rows = 0;
    long sum = 0;
    try (SharingStreamPlanner p = new SharingStreamPlanner(client, TableRef.parse(args[1], "table"),
        StreamOptions.parse(Map.of("startingVersion", "snapshot")), Duration.ZERO, Clock.systemUTC())) {
      for (WorkUnit u : p.plan(p.initialPosition(), AdmissionLimits.UNLIMITED).units()) {
        try (UnitReader r = UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0)) {
          while (r.hasNext()) {
            sum += (Long) r.next().row().get(0);
            rows++;
          }
        }
      }
    }
    System.out.println("rows=" + rows + " sum=" + sum + " maxHeapMiB=" + Runtime.getRuntime().maxMemory() / (1 << 20));
  }
}
