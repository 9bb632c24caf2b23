package io.sharestream.spark;

import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.Backlog;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.WorkUnit;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.connector.read.streaming.Offset;
import org.apache.spark.sql.connector.read.streaming.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadMaxFiles;
import org.apache.spark.sql.connector.read.streaming.SupportsAdmissionControl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream: offsets are the core planner's positions, micro-batches its plans under Spark's admission control
 * ({@code maxFilesPerTrigger}, a soft {@code maxBytesPerTrigger}; everything for {@code Trigger.Once}). A batch's
 * files are the same whenever Spark asks for them (the planner's answer for a range is deterministic, and cached here,
 * so asking again lists nothing). Offsets read back from a checkpoint must belong to this table; the first one is
 * kept there too ({@link InitialOffsetLog}).
 */
class SharingMicroBatchStream implements MicroBatchStream, SupportsAdmissionControl {
  private static final Logger LOG = LoggerFactory.getLogger(SharingMicroBatchStream.class);

  private final ScanContext scan;
  private final SharingStreamPlanner planner;
  private final InitialOffsetLog initialOffset;
  /** The last version batches may reach: the latest, or under {@code Trigger.AvailableNow} the one at its start. */
  private volatile long lastVersion = Long.MAX_VALUE;
  private final Map<String, InputPartition[]> partitions = new LinkedHashMap<String, InputPartition[]>(8, 0.75f,
      true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, InputPartition[]> eldest) {
      return size() > 8;
    }
  };

  SharingMicroBatchStream(ScanContext scan, String checkpointLocation) {
    this.scan = scan;
    this.initialOffset = new InitialOffsetLog(checkpointLocation, SparkSession.active().sessionState()
        .newHadoopConf());
    // table version polls happen at most this often, however fast the trigger
    this.planner = new SharingStreamPlanner(scan.client.client(), scan.options.table(), scan.options.stream(),
        scan.options.confs().versionPollInterval(), Clock.systemUTC());
    planner.metadata(); // the table as the stream sees it now
    if (!planner.metadata().id().equals(scan.metadata.id())) {
      planner.close();
      throw new IllegalStateException("The table " + scan.options.table() + " was recreated while the query was "
          + "being planned; start the query again.");
    }
  }

  /** Where the stream starts: resolved from the starting options once, then kept under the checkpoint. */
  @Override
  public Offset initialOffset() {
    SharingOffset start = initialOffset.getOrCreate(() -> {
      Position p = stoppable(planner::initialPosition);
      LOG.info("Stream of {} starts at {} ({})", scan.options.table(), p, scan.options.stream().startingPoint());
      return new SharingOffset(p);
    });
    start.position().checkTable(planner.metadata().id(), scan.options.table().toString());
    return start;
  }

  @Override
  public Offset deserializeOffset(String json) {
    SharingOffset o = SharingOffset.fromJson(json);
    Position p = o.position();
    p.checkTable(planner.metadata().id(), scan.options.table().toString());
    if (!p.verifiable()) { // a checkpoint of an older release, inside a version: replaying it must not guess
      throw Errors.unverifiablePosition(scan.options.table().toString(), p.tableVersion(), p.index(), "To go on, "
          + "restart the query with a new checkpoint and startingVersion " + p.tableVersion() + " (it reads that "
          + "version again, whole: rows of it the sink has may come twice) or " + (p.tableVersion() + 1) + " (it "
          + "skips the rest of it).");
    }
    return o;
  }

  @Override
  public ReadLimit getDefaultReadLimit() {
    Long bytes = scan.options.maxBytesPerTrigger();
    return new SharingReadLimit(scan.options.maxFilesPerTrigger(), bytes == null ? Long.MAX_VALUE : bytes);
  }

  @Override
  public Offset latestOffset() {
    throw new UnsupportedOperationException("latestOffset(Offset, ReadLimit) is used: the stream admits files "
        + "under a read limit");
  }

  @Override
  public Offset latestOffset(Offset startOffset, ReadLimit limit) {
    Position from = ((SharingOffset) startOffset).position();
    StreamPlanner.Plan plan = stoppable(() -> planner.plan(from, limits(limit).upTo(lastVersion)));
    if (plan.units().isEmpty() && plan.end().equals(from)) {
      return startOffset;
    }
    remember(from, plan.end(), plan.units());
    return new SharingOffset(plan.end());
  }

  /** Holds batches to the table's latest version now (for {@code Trigger.AvailableNow}, Spark 3.3+). */
  void readUpToLatestVersionNow() {
    lastVersion = stoppable(planner::latestVersionNow);
    LOG.info("Stream of {} reads up to version {} (Trigger.AvailableNow)", scan.options.table(), lastVersion);
  }

  private static AdmissionLimits limits(ReadLimit limit) {
    if (limit instanceof SharingReadLimit) {
      return new AdmissionLimits(((SharingReadLimit) limit).maxFiles, ((SharingReadLimit) limit).maxBytes);
    }
    if (limit instanceof ReadMaxFiles) {
      return AdmissionLimits.files(((ReadMaxFiles) limit).maxFiles());
    }
    return AdmissionLimits.UNLIMITED; // Trigger.Once: everything available
  }

  private synchronized InputPartition[] remember(Position start, Position end, List<WorkUnit> units) {
    InputPartition[] p = scan.partitions(units);
    partitions.put(start.toJson() + end.toJson(), p);
    return p;
  }

  @Override
  public InputPartition[] planInputPartitions(Offset start, Offset end) {
    Position from = ((SharingOffset) start).position();
    Position to = ((SharingOffset) end).position();
    synchronized (this) {
      InputPartition[] known = partitions.get(from.toJson() + to.toJson());
      if (known != null) {
        return known;
      }
    }
    return remember(from, to, stoppable(() -> planner.units(from, to)));
  }

  /**
   * Runs a call to the server on the query's thread. Spark stops a query by interrupting that thread and tells a stop
   * from a failure by the exception's type, so an interrupted call is reported as an interruption: the query then
   * ends as stopped, not as failed.
   */
  private static <T> T stoppable(Supplier<T> call) {
    try {
      return call.get();
    } catch (DeltaSharingException e) {
      if (Thread.currentThread().isInterrupted() || e instanceof CancelledException
          || e.getCause() instanceof InterruptedIOException || e.getCause() instanceof InterruptedException) {
        InterruptedIOException stop = new InterruptedIOException(e.getMessage());
        stop.initCause(e);
        throw new UncheckedIOException(stop);
      }
      throw e;
    }
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return scan.readerFactory();
  }

  @Override
  public void commit(Offset end) {
    // nothing to release (the planner keeps a few windows only); where Spark shows no source metrics, log the lag
    if (!reportsMetrics()) {
      LOG.info("Stream of {}: {}", scan.options.table(), lag(end));
    }
  }

  /** Whether Spark shows {@link #lag} in the query's progress (Spark 3.2+); else each batch's commit logs it. */
  boolean reportsMetrics() {
    return false;
  }

  /**
   * How far the stream is behind the table once {@code consumed} is read: {@code latestVersion} (the latest the
   * server reported, -1 before), {@code nextVersion} (the version read next, or being read), {@code versionsBehind}
   * (versions not yet wholly read: 0 when caught up), and {@code filesBehind}/{@code bytesBehind} when every version
   * behind is already listed (no request is made for them).
   */
  Map<String, String> lag(Offset consumed) {
    long latest = planner.latestKnownVersion();
    Map<String, String> m = new LinkedHashMap<>();
    m.put("latestVersion", Long.toString(latest));
    java.time.Instant expires = scan.client.client().credentialsExpireAt();
    if (expires != null) {
      m.put("credentialsExpireInSeconds", Long.toString(expires.getEpochSecond()
          - java.time.Instant.now().getEpochSecond()));
    }
    if (consumed != null) {
      Position p = consumed instanceof SharingOffset ? ((SharingOffset) consumed).position()
          : ((SharingOffset) deserializeOffset(consumed.json())).position();
      m.put("nextVersion", Long.toString(p.tableVersion()));
      m.put("versionsBehind", Long.toString(latest < 0 ? 0 : Math.max(0, latest - p.tableVersion() + 1)));
      Backlog behind = planner.backlog(p);
      if (behind != null) {
        m.put("filesBehind", Long.toString(behind.files()));
        m.put("bytesBehind", Long.toString(behind.bytes()));
      }
    }
    return m;
  }

  @Override
  public void stop() {
    planner.close();
  }

  @Override
  public String toString() {
    return "DeltaSharingStream[" + scan.options.table() + "]";
  }
}
