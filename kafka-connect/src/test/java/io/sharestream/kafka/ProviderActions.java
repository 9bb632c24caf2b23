package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * What a provider does to a share while a connector streams it, run on a real worker at-least-once
 * ({@link ConnectorStreamingTest}) and exactly-once ({@link ExactlyOnceTest}): a table added whose history starts
 * after {@code startingVersion}, one added without its history, one whose access is revoked, one dropped and created
 * again under its name. Each is set aside with its reason, seen in the worker's plugin metrics and in JMX, while the
 * task's other table streams every row exactly once; the config update that starts the cleaned-up table at its
 * earliest version is accepted; a task left with only set-aside tables fails with their reasons in {@code /status}.
 */
final class ProviderActions {
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  private ProviderActions() {
  }

  /** A table of events with {@code rows} rows in version 1. */
  private static DeltaTableWriter events(Path dir, long from, long to) {
    DeltaTableWriter t = DeltaTableWriter.create(dir, ConnectorStreamingTest.EVENTS).commit();
    t.append(ConnectorStreamingTest.events(from, to));
    return t;
  }

  /** Rows 100..109, 200..209, 300..309 in versions 1 to 3, the log cleaned up before 3, rows 1000..1009 in 4. */
  static DeltaTableWriter trimmed(Path dir) {
    DeltaTableWriter t = DeltaTableWriter.create(dir, ConnectorStreamingTest.EVENTS).commit();
    for (int v = 1; v <= 3; v++) {
      t.append(ConnectorStreamingTest.events(v * 100L, v * 100L + 10));
    }
    t.cleanUpLogBefore(t.checkpoint());
    t.append(ConnectorStreamingTest.events(1000, 1010));
    return t;
  }

  static void run(ConnectHarness harness, Path tmp, String name, boolean exactlyOnce) throws Exception {
    DeltaTableWriter ok = events(tmp.resolve(name + "-ok"), 0, 100);
    DeltaTableWriter revoked = events(tmp.resolve(name + "-revoked"), 0, 100);
    DeltaTableWriter recreated = events(tmp.resolve(name + "-recreated"), 0, 100);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "ok", ok.dir(), true)
        .table("s", "sc", "revoked", revoked.dir(), true).table("s", "sc", "recreated", recreated.dir(), true)
        .start()) {
      String prefix = name + ".s.sc.";
      String profile = server.writeProfile(tmp.resolve(name + ".share")).toString();
      Map<String, String> config = ConnectHarness.config(profile, "s.*", "startingVersion", "0", "topic.prefix",
          name + ".", "tables.discovery.interval.ms", "300");
      if (exactlyOnce) {
        config.put("exactly.once.support", "required");
      }
      harness.deploy(name, config, 1);
      for (String t : List.of("ok", "revoked", "recreated")) {
        harness.read(prefix + t, 100, ConnectorStreamingTest.WAIT, exactlyOnce);
      }

      server.tables().add("s", "sc", "trimmed", trimmed(tmp.resolve(name + "-trimmed")).dir(), true);
      server.tables().add("s", "sc", "private", ok.dir(), false); // shared without its history
      server.tables().get("s.sc.revoked").accessDenied(true);
      server.tables().remove("s.sc.recreated");
      server.tables().add("s", "sc", "recreated", events(tmp.resolve(name + "-recreated2"), 500, 550).dir(), true);
      recreated.append(ConnectorStreamingTest.events(100, 110)); // the old table: no longer shared
      ok.append(ConnectorStreamingTest.events(100, 200));

      Map<String, String> reasons = Map.of("s.sc.trimmed", "VERSION_UNAVAILABLE", "s.sc.private", "UNREADABLE",
          "s.sc.revoked", "ACCESS_DENIED", "s.sc.recreated", "RECREATED");
      for (Map.Entry<String, String> e : reasons.entrySet()) {
        awaitState(name, e.getKey(), "SET_ASIDE");
        assertThat(jmx(name, e.getKey(), "SetAsideReason")).as(e.getKey()).isEqualTo(e.getValue());
        Map<String, Object> plugin = pluginMetrics(name, e.getKey());
        assertThat(plugin.get("table-state")).as(e.getKey()).isEqualTo("SET_ASIDE");
        assertThat(plugin.get("table-set-aside-reason")).as(e.getKey()).isEqualTo(e.getValue());
      }
      harness.read(prefix + "ok", 200, ConnectorStreamingTest.WAIT, exactlyOnce);
      awaitState(name, "s.sc.ok", "CAUGHT_UP");
      Map<String, Object> okMetrics = pluginMetrics(name, "s.sc.ok");
      assertThat(okMetrics.get("table-current-version")).isEqualTo(3L); // versions 0..2 read: next is 3
      assertThat(okMetrics.get("table-versions-behind")).isEqualTo(0L);
      assertThat(okMetrics.get("table-files-behind")).isEqualTo(0L);
      ConnectorStateInfo status = harness.connect.connectorStatus(name);
      assertThat(status.tasks()).extracting(ConnectorStateInfo.AbstractState::state).containsExactly("RUNNING");

      // the provider's tables never lock the config: this update starts the cleaned-up table at its earliest version
      config.put("starting.overrides", "s.sc.trimmed=earliest");
      config.put("tables.exclude.regex", "s\\.sc\\.private");
      harness.deploy(name, config, 1);
      assertThat(ids(harness.read(prefix + "trimmed", 20, ConnectorStreamingTest.WAIT, exactlyOnce)))
          .isEqualTo(new TreeSet<>(List.of(300L, 301L, 302L, 303L, 304L, 305L, 306L, 307L, 308L, 309L, 1000L,
              1001L, 1002L, 1003L, 1004L, 1005L, 1006L, 1007L, 1008L, 1009L)));
      ok.append(ConnectorStreamingTest.events(200, 300));
      harness.read(prefix + "ok", 300, ConnectorStreamingTest.WAIT, exactlyOnce);
      Thread.sleep(1000); // anything extra would be in the topics by now

      Map<String, Integer> expected = Map.of("ok", 300, "revoked", 100, "recreated", 100, "trimmed", 20);
      for (Map.Entry<String, Integer> e : expected.entrySet()) {
        List<ConnectHarness.Rec> records = harness.readAll(prefix + e.getKey(), exactlyOnce);
        assertThat(records).as("%s: each row once", e.getKey()).hasSize(e.getValue());
        assertThat(ids(records)).as(e.getKey()).hasSize(e.getValue());
      }

      // a task whose every table is set aside fails, its reasons in the status
      String lone = name + "-lone";
      Map<String, String> loneConfig = ConnectHarness.config(profile, "", "tables.include.regex",
          "s\\.sc\\.(private|revoked)", "topic.prefix", lone + ".");
      loneConfig.remove("tables");
      harness.connect.configureConnector(lone, loneConfig);
      harness.connect.assertions().assertConnectorIsRunningAndTasksHaveFailed(lone, 1, "the task did not fail");
      String trace = harness.connect.connectorStatus(lone).tasks().get(0).trace();
      assertThat(trace).contains("Every table of this task is set aside").contains("s.sc.private cannot be streamed")
          .contains("s.sc.revoked is denied to this recipient (HTTP 403)");
      harness.connect.deleteConnector(lone);
      harness.connect.deleteConnector(name);
    }
  }

  private static Set<Long> ids(List<ConnectHarness.Rec> records) {
    return records.stream().map(ConnectHarness.Rec::id).collect(Collectors.toCollection(TreeSet::new));
  }

  private static ObjectName beanOf(String connector, String table) throws Exception {
    Set<ObjectName> names = JMX.queryNames(new ObjectName("io.sharestream.kafka:type=table-metrics,connector="
        + ObjectName.quote(connector) + ",table=" + ObjectName.quote(table) + ",*"), null);
    assertThat(names).as("the JMX metrics of " + table).hasSize(1);
    return names.iterator().next();
  }

  private static Object jmx(String connector, String table, String attribute) throws Exception {
    return JMX.getAttribute(beanOf(connector, table), attribute);
  }

  private static void awaitState(String connector, String table, String state) throws Exception {
    long deadline = System.nanoTime() + ConnectorStreamingTest.WAIT.toNanos();
    while (!state.equals(JMX.queryNames(new ObjectName("io.sharestream.kafka:type=table-metrics,connector="
        + ObjectName.quote(connector) + ",table=" + ObjectName.quote(table) + ",*"), null).stream()
        .findFirst().map(n -> attribute(n, "State")).orElse(null))) {
      assertThat(System.nanoTime()).as(table + " reaches " + state).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static Object attribute(ObjectName name, String attribute) {
    try {
      return JMX.getAttribute(name, attribute);
    } catch (Exception gone) {
      return null; // unregistered in between: a task restarting
    }
  }

  /** The table's plugin metrics as the worker's JMX reporter publishes them: metric name to value. */
  private static Map<String, Object> pluginMetrics(String connector, String table) throws Exception {
    Set<ObjectName> names = JMX.queryNames(new ObjectName("kafka.connect:type=plugins,connector=" + connector
        + ",table=" + table + ",*"), null);
    assertThat(names).as("the plugin metrics of " + table + " among "
        + JMX.queryNames(new ObjectName("kafka.connect:type=plugins,*"), null)).hasSize(1);
    ObjectName bean = names.iterator().next();
    Map<String, Object> out = new LinkedHashMap<>();
    for (javax.management.MBeanAttributeInfo a : JMX.getMBeanInfo(bean).getAttributes()) {
      out.put(a.getName(), JMX.getAttribute(bean, a.getName()));
    }
    return out;
  }
}
