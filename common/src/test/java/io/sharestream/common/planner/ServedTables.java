package io.sharestream.common.planner;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Tables served as {@code s.sc.t} by kit servers that answer history in the delta format (as Databricks does) or
 * refuse it (as the reference server does), with a client per server and short retries; closes them all.
 */
final class ServedTables implements AutoCloseable {
  static final TableRef T = new TableRef("s", "sc", "t");
  final List<DeltaSharingServer> servers = new ArrayList<>();

  DeltaSharingClient serve(DeltaTableWriter table, boolean historyInDeltaFormat) {
    DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .historyInDeltaFormat(historyInDeltaFormat).start();
    servers.add(s);
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(s.profileJson()), ClientSettings.DEFAULT
        .withRetry(new RetrySettings(3, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMinutes(1))));
  }

  /** The server of the last {@link #serve}. */
  DeltaSharingServer last() {
    return servers.get(servers.size() - 1);
  }

  static SharingStreamPlanner planner(DeltaSharingClient client, StreamSettings settings) {
    return new SharingStreamPlanner(client, T, settings, Duration.ZERO, Clock.systemUTC());
  }

  @Override
  public void close() {
    servers.forEach(DeltaSharingServer::close);
  }
}
