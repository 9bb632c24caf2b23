package io.sharestream.spark;

import io.sharestream.common.planner.WorkUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Files one Spark task reads, in stream order: the core's {@link WorkUnit}s (file, version, how rows are labelled,
 * and the request that listed them, so the executor can refresh an expired URL itself).
 */
final class SharingInputPartition implements InputPartition {
  private static final long serialVersionUID = 1L;
  /** What opening a file costs, in bytes (Spark's {@code spark.sql.files.openCostInBytes}). */
  private static final long OPEN_COST = 4L << 20;

  private final List<WorkUnit> units;
  private final boolean rowsOnly;

  SharingInputPartition(List<WorkUnit> units, boolean rowsOnly) {
    this.units = Collections.unmodifiableList(new ArrayList<>(units));
    this.rowsOnly = rowsOnly;
  }

  List<WorkUnit> units() {
    return units;
  }

  /**
   * Whether this scan reads rows where it could read vectorized batches: a scan with change data files to filter to
   * their new row images (a columnar batch cannot drop rows). The same for every partition of a scan, as Spark
   * requires.
   */
  boolean rowsOnly() {
    return rowsOnly;
  }

  /**
   * Packs {@code units} into partitions as Spark packs files: largest first, into bins of
   * {@code min(maxPartitionBytes, max(openCost, total / parallelism))}. Order within a partition does not matter to a
   * micro-batch (it is one batch), and every bin keeps its units' stream order.
   */
  static List<SharingInputPartition> pack(List<WorkUnit> units, long maxPartitionBytes, int parallelism) {
    boolean rowsOnly = units.stream()
        .anyMatch(u -> u.newImagesOnly() && u.source() == WorkUnit.RowSource.CHANGE_DATA);
    long total = 0;
    for (WorkUnit u : units) {
      total += u.file().size() + OPEN_COST;
    }
    long maxSplit = Math.min(maxPartitionBytes, Math.max(OPEN_COST, total / Math.max(1, parallelism)));
    List<WorkUnit> bySize = new ArrayList<>(units);
    bySize.sort(Comparator.comparingLong((WorkUnit u) -> u.file().size()).reversed());
    List<List<WorkUnit>> bins = new ArrayList<>();
    List<WorkUnit> current = new ArrayList<>();
    long size = 0;
    for (WorkUnit u : bySize) {
      if (!current.isEmpty() && size + u.file().size() > maxSplit) {
        bins.add(current);
        current = new ArrayList<>();
        size = 0;
      }
      current.add(u);
      size += u.file().size() + OPEN_COST;
    }
    if (!current.isEmpty()) {
      bins.add(current);
    }
    List<SharingInputPartition> out = new ArrayList<>();
    Comparator<WorkUnit> streamOrder = Comparator.comparing(WorkUnit::isStartingVersion).reversed()
        .thenComparingLong(WorkUnit::version).thenComparingLong(WorkUnit::index);
    for (List<WorkUnit> bin : bins) {
      bin.sort(streamOrder);
      out.add(new SharingInputPartition(bin, rowsOnly));
    }
    return out;
  }
}
