package io.sharestream.spark;

import io.sharestream.common.planner.BatchPlanner;
import java.util.Arrays;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.streaming.MicroBatchStream;
import org.apache.spark.sql.types.StructType;

/**
 * A scan of a shared table: a batch read (snapshot, or change range with readChangeFeed) or a micro-batch stream,
 * of the columns the query needs, with the pushed filters as the server's predicate hints for snapshots.
 */
final class SharingScan implements Scan {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SharingScan.class);
  private final ScanContext scan;
  private final String jsonPredicateHints;
  private volatile Long limitHint;
  private SharingBatch batch;

  SharingScan(ScanContext scan, String jsonPredicateHints) {
    this.scan = scan;
    this.jsonPredicateHints = jsonPredicateHints;
  }

  @Override
  public StructType readSchema() {
    return scan.output;
  }

  /**
   * A row limit the query applies on top of this scan: the server may stop listing files once it is met (unless the
   * session turned limit hints off).
   */
  void limitHint(long rows) {
    if (scan.options.confs().limitHints()) {
      this.limitHint = rows;
    }
  }

  Long limitHint() {
    return limitHint;
  }

  /**
   * The batch read, one per scan: Spark copies the plan's scan node as it plans (a count is planned twice), and each
   * copy asks again; the table is listed once.
   */
  @Override
  public synchronized Batch toBatch() {
    if (batch == null) {
      batch = newBatch();
    }
    return batch;
  }

  private SharingBatch newBatch() {
    DeltaSharingOptions o = scan.options;
    o.checkForBatch();
    warnIfTrustingAll();
    return new SharingBatch(scan, () -> o.readChangeFeed()
        ? BatchPlanner.changes(scan.client.client(), o.table(), o.stream(), o.startingVersion(),
            o.startingTimestamp(), o.endingVersion(), o.endingTimestamp())
        : BatchPlanner.snapshot(scan.client.client(), o.table(), o.versionAsOf(), o.timestampAsOf(),
            jsonPredicateHints, limitHint, o.stream().filesPerRequest()));
  }

  @Override
  public MicroBatchStream toMicroBatchStream(String checkpointLocation) {
    scan.options.checkForStreaming();
    warnIfTrustingAll();
    return SparkApi.microBatchStream(scan.forStreaming(), checkpointLocation);
  }

  /** The session's sslTrustAll, said at each query start: its requests can be read and changed on the way. */
  private void warnIfTrustingAll() {
    if (scan.client.trustsAll()) {
      LOG.warn("{}: server certificates are not checked ({}=true): anyone on the network path can read and change "
          + "what this query reads. Trust the server's certificate authority with the {} option instead.",
          scan.options.table(), SessionConfs.SSL_TRUST_ALL, DeltaSharingOptions.SSL_TRUST_STORE);
    }
  }

  @Override
  public String description() {
    return "DeltaSharing[" + scan.options.table() + "]" + (jsonPredicateHints == null ? ""
        : " PushedFilters: " + Arrays.toString(scan.dataFilters));
  }
}
