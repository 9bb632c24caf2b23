package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.profile.TableRef;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** A table's metrics in the platform MBean server, as a task restarted on the same worker registers them. */
class TableMetricsTest {
  private static final TableRef T = new TableRef("s", "sc", "t");

  @Test
  void aStaleInstanceNeverUnregistersTheMetricsOfTheTaskThatReplacedIt() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("io.sharestream.kafka:type=table-metrics,connector=" + ObjectName.quote("c")
        + ",task=" + ObjectName.quote("c-0") + ",table=" + ObjectName.quote(T.toString()));
    TableMetrics stale = new TableMetrics("c", "c-0", T);
    TableMetrics live = new TableMetrics("c", "c-0", T); // the restarted task, before the old one has stopped
    live.records.set(42);
    assertThat(server.getAttribute(name, "Records")).isEqualTo(42L);

    stale.unregister();
    assertThat(server.isRegistered(name)).as("still the live task's").isTrue();
    assertThat(server.getAttribute(name, "Records")).isEqualTo(42L);

    live.unregister();
    assertThat(server.isRegistered(name)).isFalse();
    stale.unregister(); // again, and after the live one: nothing to do
    assertThat(server.isRegistered(name)).isFalse();
  }
}
