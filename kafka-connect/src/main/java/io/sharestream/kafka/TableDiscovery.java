package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.profile.TableRef;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ObjectName;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connector's watch over the shares its {@link TableSelection} reaches, in a thread of its own (the JDBC source
 * connector's table monitor is the model): lists them at start and every {@code tables.discovery.interval.ms}, and
 * when the selected tables change logs which came and went and asks Connect for new task configs. A listing that
 * fails (after the client's retries) is logged and leaves the selection as it was; before a first listing it is
 * tried again every {@link #RETRY}.
 */
final class TableDiscovery implements TableDiscoveryMBean, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TableDiscovery.class);
  private static final Duration RETRY = Duration.ofSeconds(10);

  private final String connector;
  private final TableSelection selection;
  private final DeltaSharingClient client;
  private final Duration interval;
  private final Runnable reconfigure;
  private final Thread thread;
  private final ObjectName name;
  private final AtomicLong added = new AtomicLong();
  private final AtomicLong removed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile long lastListing;
  private List<TableRef> tables; // guarded by this
  private DeltaSharingException lastFailure; // guarded by this
  private boolean closed; // guarded by this

  /** Starts listing at once; {@code reconfigure} asks Connect for new task configs. */
  TableDiscovery(String connector, TableSelection selection, DeltaSharingClient client, Duration interval,
      Runnable reconfigure) {
    this.connector = connector;
    this.selection = selection;
    this.client = client;
    this.interval = interval;
    this.reconfigure = reconfigure;
    this.name = MBeans.register("io.sharestream.kafka:type=table-discovery,connector="
        + ObjectName.quote(connector), this);
    this.thread = new Thread(this::run, "sharestream-table-discovery-" + connector);
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    for (Duration delay = Duration.ZERO; pause(delay); ) {
      try {
        update(selection.list(client, true));
        if (interval.isZero()) {
          return; // listed once, as configured
        }
        delay = interval;
      } catch (DeltaSharingException e) {
        synchronized (this) {
          if (closed) {
            return;
          }
          lastFailure = e;
          delay = tables != null ? interval : interval.isZero() || interval.compareTo(RETRY) > 0 ? RETRY : interval;
        }
        failed.incrementAndGet();
        LOG.warn("Listing the tables of {} for connector {} failed; the selection stays as it was: {}", selection,
            connector, e.getMessage());
      }
    }
  }

  /** Waits {@code delay} or until closed; false once closed. */
  private synchronized boolean pause(Duration delay) {
    long end = System.nanoTime() + delay.toNanos();
    try {
      for (long left = delay.toMillis(); !closed && left > 0; left = (end - System.nanoTime()) / 1_000_000) {
        wait(left);
      }
    } catch (InterruptedException e) {
      return false; // closed
    }
    return !closed;
  }

  /** Takes a listing: logs and counts what changed and asks for new task configs. */
  private void update(List<TableRef> found) {
    List<TableRef> before;
    synchronized (this) {
      if (closed) {
        return;
      }
      before = tables;
      tables = found;
      lastFailure = null;
      notifyAll();
    }
    lastListing = System.currentTimeMillis();
    if (before == null) { // for taskConfigs, which waits for it (or, having given up, is called again by Connect)
      LOG.info("Connector {} selects {} tables of {}: {}", connector, found.size(), selection, found);
      return;
    }
    List<TableRef> gone = new ArrayList<>(before);
    gone.removeAll(found);
    List<TableRef> come = new ArrayList<>(found);
    come.removeAll(before);
    if (!gone.isEmpty() || !come.isEmpty()) {
      added.addAndGet(come.size());
      removed.addAndGet(gone.size());
      LOG.info("Connector {}: the shares changed; new tables {} start (from a stored offset, else the starting "
          + "options), tables no longer listed {} stop (their offsets are kept); the tasks are reconfigured",
          connector, come, gone);
      reconfigure.run();
    }
  }

  /**
   * The selected tables, waiting up to {@code wait} for a first listing; a {@link ConnectException} saying why when
   * there is none (Connect asks again later).
   */
  synchronized List<TableRef> tables(Duration wait) {
    long end = System.nanoTime() + wait.toNanos();
    try {
      for (long left = wait.toMillis(); tables == null && !closed && left > 0;
          left = (end - System.nanoTime()) / 1_000_000) {
        wait(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (tables == null) {
      throw new ConnectException("The tables of " + selection + " are not listed yet"
          + (lastFailure == null ? "" : ": " + lastFailure.getMessage()), lastFailure);
    }
    return tables;
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    thread.interrupt(); // a retry wait ends
    client.close(); // a listing in flight ends at once
    MBeans.unregister(name, this);
  }

  @Override
  public synchronized int getSelectedTables() {
    return tables == null ? -1 : tables.size();
  }

  @Override
  public long getTablesAdded() {
    return added.get();
  }

  @Override
  public long getTablesRemoved() {
    return removed.get();
  }

  @Override
  public long getFailedListings() {
    return failed.get();
  }

  @Override
  public long getLastListingTime() {
    return lastListing;
  }
}
