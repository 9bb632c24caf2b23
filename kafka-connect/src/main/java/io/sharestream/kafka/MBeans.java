package io.sharestream.kafka;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's MBeans in the platform MBean server. A name is held by the instance that registered it last (a
 * restarted task's or connector's): a stale instance's unregister leaves it alone.
 */
final class MBeans {
  private static final Logger LOG = LoggerFactory.getLogger(MBeans.class);
  /** Which instance holds each registered name. */
  private static final Map<ObjectName, Object> HOLDERS = new HashMap<>();

  private MBeans() {}

  /** Registers {@code bean} as {@code name}, replacing whichever instance held it; null when JMX refuses. */
  static ObjectName register(String name, Object bean) {
    try {
      ObjectName n = new ObjectName(name);
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      synchronized (HOLDERS) {
        if (server.isRegistered(n)) {
          server.unregisterMBean(n);
        }
        server.registerMBean(bean, n);
        HOLDERS.put(n, bean);
      }
      return n;
    } catch (JMException e) {
      LOG.warn("Cannot register the metrics {} in JMX: {}", name, e.toString());
      return null;
    }
  }

  /** Unregisters {@code name} if {@code bean} still holds it. */
  static void unregister(ObjectName name, Object bean) {
    if (name == null) {
      return;
    }
    try {
      synchronized (HOLDERS) {
        if (HOLDERS.get(name) == bean) {
          HOLDERS.remove(name);
          if (ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
          }
        }
      }
    } catch (JMException e) {
      LOG.debug("Cannot unregister {}: {}", name, e.toString());
    }
  }
}
