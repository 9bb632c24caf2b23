package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.planner.Position;
import io.sharestream.common.profile.TableRef;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams its share of the connector's tables. Each {@link #poll()} visits the tables in turn, reading rows until
 * {@code batch.max.rows} records are ready or, at the next file boundary, about a second has passed (so offsets are
 * committed and a stop is heard while many small files are read). It reads up to {@value #OPEN_FILES} tables' files
 * at once, each a share of the poll's records in turn, so that the worker's produce requests carry several topics'
 * batches (one table at a time with connector-defined transactions, which hold whole versions); files left open when
 * a poll ends are the next poll's first, so a task never holds more open. A table that is caught up asks for new
 * versions every {@code poll.interval.ms}, less often while it does not change, and a poll with nothing to return
 * waits at most a second. Tables start (version, metadata, first listing, a footer) in the background, up to
 * {@value #STARTS_AHEAD} ahead of their turn, while open files are read: a poll waits for a start under way once, at
 * most until its own end, and a start that takes longer (a slow server, an asynchronous query) lets the table's turns
 * pass while the others are read. The worker holds at most {@code records.in.flight.max} of the task's records
 * unacknowledged ({@link RecordsInFlight}): a poll returns fewer records, or none after 100 ms, rather than more. A
 * table's turn that fails hands out none of its records and takes the table back to the last record it handed out.
 * A failure from a server that kept failing through every retry, or a request cut short (a timeout), is logged and
 * that table is tried again a poll interval later. What the provider did to a table (unshared it, revoked this
 * recipient's access, turned its history off, cleaned its log up past where it starts, recreated it: a
 * {@link SetAsideReason}) sets that table aside with one ERROR line naming the fix and its reason in its metrics,
 * while the task goes on with the others; a task restart tries it again. A task whose every table is set aside
 * fails with their reasons, so its status shows them. Any other failure stops the task with a message naming the
 * table and the fix.
 *
 * <p>{@link #stop()} cancels an HTTP request, file read or retry wait in flight (closing the client aborts its
 * exchanges; a thread interrupt cannot free a blocked socket read) and releases every connection and thread; a poll
 * in flight reads no further table once the task is stopping (the worker still sends what it returns).
 * With exactly-once delivery and {@code transaction.boundary=connector}, transactions end where
 * {@link TransactionBoundaries} says: at Delta versions, and inside one that takes longer than
 * {@code transaction.max.duration.ms}.
 */
public final class DeltaSharingSourceTask extends SourceTask {
  private static final Logger LOG = LoggerFactory.getLogger(DeltaSharingSourceTask.class);
  private static final Duration IDLE_WAIT = Duration.ofSeconds(1);
  /** How long a poll goes on opening files (a file being read is finished first, up to batch.max.rows). */
  private static final Duration POLL_TIME = Duration.ofSeconds(1);
  /**
   * Files a task reads at once, each of its own table. Connect's producer sends one request at a time holding one
   * batch per partition: records of several topics in one poll fill several batches per request (Connect alone,
   * replaying records to 200 topics over 4 tasks, went from 0.61-0.71 to 0.81-0.87 of one topic with four).
   */
  private static final int OPEN_FILES = 4;
  /**
   * Tables a task starts in the background at once, ahead of their turn (each a few requests: version, metadata, the
   * first files' listing, a footer), while it reads open files: a start no longer stalls the task's other tables,
   * however slow the server answers it.
   */
  private static final int STARTS_AHEAD = OPEN_FILES;
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Object guard = new Object();
  private final Clock clock;
  private DeltaSharingSourceConfig config;
  private final List<TableStream> streams = new ArrayList<>();
  private DeltaSharingClient client;
  private CredentialMetrics credentialMetrics;
  /** With connector-defined transactions: where they end; else null. */
  private TransactionBoundaries transactions;
  private ExecutorService footers;
  private ExecutorService starter;
  /** The tables being started in the background, or started and not yet read (poll thread only). */
  private final Map<TableStream, CompletableFuture<Void>> starts = new HashMap<>();
  /** Tables whose start outlasted a poll's wait: their turns pass until it ends (poll thread only). */
  private final Set<TableStream> slowStarts = new HashSet<>();
  private RecordsInFlight inFlight;
  /**
   * The tables' offsets stored when the task started (by source partition): no other task writes them meanwhile, and
   * a table starts from its own only before it has handed out a record.
   */
  private Map<Map<String, String>, Map<String, Object>> storedOffsets;
  private int next;
  /** The tables whose file a poll left open, read first by the next one; at most {@link #tablesAtOnce()}. */
  private final List<TableStream> open = new ArrayList<>();
  /** The table a thread is reading or starting, for its retry count. */
  private final ThreadLocal<TableStream> current = new ThreadLocal<>();
  private boolean stopping; // guarded by guard
  private boolean polling; // guarded by guard
  private boolean closed; // guarded by guard

  public DeltaSharingSourceTask() {
    this(Clock.systemUTC());
  }

  DeltaSharingSourceTask(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> props) {
    config = new DeltaSharingSourceConfig(props);
    List<TableRef> tables = config.tableSelection().named();
    // one read of the offsets topic for all the tables, not one per table; before anything needs closing
    storedOffsets = context.offsetStorageReader().offsets(tables.stream().map(SourceOffsets::partition)
        .collect(Collectors.toList()));
    client = new DeltaSharingClient(config.profileSource(), config.clientSettings(this::retryWait));
    String connector = props.getOrDefault("name", "connector");
    String task = props.getOrDefault(DeltaSharingSourceConnector.TASK_ID, "0");
    credentialMetrics = new CredentialMetrics(connector, task, client, java.time.Clock.systemUTC());
    footers = Executors.newFixedThreadPool(2, r -> daemon(r, "sharestream-footers-"));
    starter = Executors.newFixedThreadPool(2, r -> daemon(r, "sharestream-starts-"));
    inFlight = new RecordsInFlight(config.recordsInFlightMax());
    TransactionContext tx = context.transactionContext();
    if (tx != null) {
      transactions = new TransactionBoundaries(tx, config.transactionMaxDuration(), clock);
    }
    Map<TableRef, List<String>> keys = config.keyColumns();
    for (TableRef table : tables) {
      RecordConverter converter = new RecordConverter(table, config.topic(table), keys.getOrDefault(table, List.of()),
          config.tombstonesOnDelete(), config.timePrecisionMode(), config.fieldNameAdjustmentMode());
      TableMetrics metrics = new TableMetrics(connector, task, table);
      metrics.reportAsPluginMetrics(context, table);
      streams.add(new TableStream(table, client, config.streamSettings(table), converter, metrics, config, footers,
          clock, tx != null));
    }
    LOG.info("Task {} of {} streams {}", task, connector, tables);
    startAhead(); // the first tables connect while the worker gets ready to poll
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name + THREADS.incrementAndGet());
    t.setDaemon(true);
    return t;
  }

  /** A record the broker acknowledged (or the worker dropped): room for another. */
  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    inFlight.acknowledged();
  }

  /** A backoff wait before a retry: counted for the table at hand, cut short by {@link #stop()}. */
  private void retryWait(Duration wait) throws InterruptedException {
    TableStream s = current.get();
    if (s != null) {
      s.metrics().retries.incrementAndGet();
    }
    long end = System.nanoTime() + wait.toNanos();
    synchronized (guard) {
      for (long left = wait.toMillis(); !stopping && left > 0; left = (end - System.nanoTime()) / 1_000_000) {
        guard.wait(left);
      }
      if (stopping) {
        throw new CancelledException("The task is stopping.");
      }
    }
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    synchronized (guard) {
      if (stopping) {
        return null;
      }
      polling = true;
    }
    try {
      int budget = Math.min(config.batchMaxRows(), inFlight.room());
      if (budget == 0) {
        return null; // the worker has the most records it may hold of this task: it polls again at once
      }
      List<SourceRecord> out = new ArrayList<>();
      boolean more = false;
      long deadline = clock.millis() + POLL_TIME.toMillis();
      if (transactions != null) {
        deadline = transactions.deadline(deadline);
      }
      int share = Math.max(1, budget / tablesAtOnce());
      startAhead();
      more |= readOpenFiles(out, share, budget, deadline);
      for (int visited = 0; visited < streams.size() && out.size() < budget && open.size() < tablesAtOnce()
          && (visited == 0 || clock.millis() < deadline) && !isStopping(); visited++) {
        TableStream s = streams.get(next);
        next = (next + 1) % streams.size();
        if (!open.contains(s)) {
          more |= poll(s, out, Math.min(budget, out.size() + share), deadline);
          if (s.midFile()) {
            open.add(s);
          }
        }
      }
      more |= readOpenFiles(out, budget, budget, deadline); // what the shares left, when few tables had rows
      inFlight.handedOver(out.size());
      if (transactions != null) {
        transactions.end(out);
      }
      if (out.isEmpty() && !more) {
        idle();
      }
      return out.isEmpty() ? null : out;
    } finally {
      synchronized (guard) {
        polling = false;
        if (stopping) {
          release();
        }
      }
    }
  }

  /** Tables whose files a poll reads at once. */
  private int tablesAtOnce() {
    return transactions != null ? 1 : Math.min(OPEN_FILES, streams.size());
  }

  /** The open files' turns, {@code share} records each, up to {@code budget} records in {@code out}. */
  private boolean readOpenFiles(List<SourceRecord> out, int share, int budget, long deadline) {
    boolean more = false;
    for (Iterator<TableStream> it = open.iterator(); it.hasNext() && out.size() < budget && !isStopping(); ) {
      TableStream s = it.next();
      more |= poll(s, out, Math.min(budget, out.size() + share), deadline);
      if (!s.midFile()) {
        it.remove();
      }
    }
    return more;
  }

  /**
   * Starts in the background the next tables (in turn order) that have not started, keeping at most
   * {@value #STARTS_AHEAD} started ahead of their turn (a started table holds its first files' plan and a footer).
   */
  private void startAhead() {
    for (int i = 0; i < streams.size() && starts.size() < STARTS_AHEAD; i++) {
      TableStream s = streams.get((next + i) % streams.size());
      if (!starts.containsKey(s) && !s.started() && !s.isSetAside() && !s.waiting()) {
        Map<String, Object> stored = storedOffsets.get(SourceOffsets.partition(s.table()));
        CompletableFuture<Void> start = CompletableFuture.runAsync(() -> {
          current.set(s);
          try {
            s.start(stored, footers);
          } finally {
            current.remove();
          }
        }, starter);
        start.whenComplete((v, e) -> {
          synchronized (guard) {
            guard.notifyAll(); // an idle poll reads the table at once
          }
        });
        starts.put(s, start);
      }
    }
  }

  /**
   * Whether table {@code s} may be read: its background start ended (its failure thrown here). A start under way is
   * waited for until {@code deadline}, once: a start that outlasts it (a slow server, an asynchronous query) lets the
   * table's turns pass until it ends, while the task reads its other tables.
   */
  private boolean startEnded(TableStream s, long deadline) {
    CompletableFuture<Void> start = starts.get(s);
    if (start == null) {
      return s.started();
    }
    Throwable failure = null;
    try {
      start.get(slowStarts.contains(s) ? 0 : Math.max(0, deadline - clock.millis()), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      slowStarts.add(s);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancelledException("The task is stopping.");
    } catch (ExecutionException e) {
      failure = e.getCause();
    }
    starts.remove(s);
    slowStarts.remove(s);
    if (failure != null) {
      throw failure instanceof RuntimeException ? (RuntimeException) failure
          : new ConnectException("Starting " + s.table() + " failed: " + failure, failure);
    }
    return true;
  }

  /**
   * One table's turn, filling {@code out} up to {@code budget}; its failures handled as the class comment says. A
   * turn that fails hands out none of its records, and the table goes back to the last record it handed out before
   * the turn (its planned files and open file forgotten): whatever the failure, a later turn reads the table again
   * from there, never past rows whose records were dropped or a file whose opening failed.
   */
  private boolean poll(TableStream s, List<SourceRecord> out, int budget, long deadline) {
    current.set(s);
    int before = out.size();
    Position from = null;
    try {
      if (s.waiting() || s.isSetAside() || !startEnded(s, deadline)) {
        return false;
      }
      from = s.position();
      return s.poll(out, budget - out.size(), deadline);
    } catch (RuntimeException e) {
      out.subList(before, out.size()).clear();
      s.resetTo(from); // the turn hands out nothing: the table goes back to its last record handed out
      if (isStopping()) {
        return false;
      }
      s.metrics().errors.incrementAndGet();
      SetAsideReason reason = SetAsideReason.of(e);
      if (reason != null) {
        setAside(s, reason, e);
        return false;
      }
      if (isTransient(e)) {
        LOG.warn("Reading {} failed; it is tried again {} in {} ms: {}", s.table(),
            from == null ? "from the start" : "from " + from, config.pollInterval().toMillis(), e.getMessage());
        s.waitFor(config.pollInterval());
        return false;
      }
      throw new ConnectException("Streaming " + s.table() + " failed: " + e.getMessage(), e);
    } finally {
      current.remove();
    }
  }

  /**
   * Stops reading {@code s} for {@code reason} (a provider's action, {@code e}) while the task goes on with its other
   * tables; once every table of the task is set aside, the task fails with their reasons (so its status shows them).
   */
  private void setAside(TableStream s, SetAsideReason reason, RuntimeException e) {
    String message = s.table() + " " + reason.what() + ": " + e.getMessage() + " To go on: " + reason.fix() + ".";
    s.setAside(reason, message);
    LOG.error("{} is set aside: the task's other tables go on (state SET_ASIDE, reason {} in its metrics). {}",
        s.table(), reason, message);
    if (streams.stream().allMatch(TableStream::isSetAside)) {
      throw new ConnectException("Every table of this task is set aside: " + streams.stream()
          .map(t -> t.metrics().getSetAsideMessage()).collect(Collectors.joining(" ")), e);
    }
  }

  /** Waits a second, or until the task stops or a table's background start ends. */
  private void idle() throws InterruptedException {
    synchronized (guard) {
      if (!stopping && starts.values().stream().noneMatch(CompletableFuture::isDone)) {
        guard.wait(IDLE_WAIT.toMillis());
      }
    }
  }

  private boolean isStopping() {
    synchronized (guard) {
      return stopping;
    }
  }

  /**
   * A server that kept failing through every retry, or a request cut short (a timeout, an interrupted or cancelled
   * wait) while the task is not stopping: the table is tried again a poll interval later.
   */
  private static boolean isTransient(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ServerErrorException || t instanceof CancelledException
          || t instanceof InterruptedIOException || t instanceof InterruptedException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void stop() {
    synchronized (guard) {
      stopping = true;
      guard.notifyAll(); // idle and retry waits end
    }
    if (client != null) {
      client.close(); // requests and reads in flight fail at once
    }
    synchronized (guard) {
      if (!polling) {
        release(); // else the poll in flight releases everything as it leaves
      }
    }
  }

  /** Closes the tables' readers and planners and stops the footer threads (once). */
  private void release() {
    if (closed) {
      return;
    }
    closed = true;
    if (credentialMetrics != null) {
      credentialMetrics.unregister();
    }
    if (starter != null) {
      starter.shutdownNow(); // a start under way fails at once (the client is closed); closing its table waits for it
    }
    for (TableStream s : streams) {
      try {
        s.close();
      } catch (RuntimeException e) {
        LOG.debug("Closing {}: {}", s.table(), e.toString());
      }
    }
    if (footers != null) {
      footers.shutdownNow();
    }
  }
}
