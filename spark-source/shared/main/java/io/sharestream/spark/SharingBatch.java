package io.sharestream.spark;

import io.sharestream.common.planner.BatchPlanner;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** A batch read: one plan of the core's batch planner (a snapshot, or a change range), its files as partitions. */
final class SharingBatch implements Batch {
  private final ScanContext scan;
  private final Supplier<BatchPlanner.Plan> plan;
  private InputPartition[] partitions;

  SharingBatch(ScanContext scan, Supplier<BatchPlanner.Plan> plan) {
    this.scan = scan;
    this.plan = plan;
  }

  @Override
  public synchronized InputPartition[] planInputPartitions() {
    if (partitions == null) {
      partitions = scan.partitions(plan.get().units());
    }
    return partitions;
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return scan.readerFactory();
  }
}
