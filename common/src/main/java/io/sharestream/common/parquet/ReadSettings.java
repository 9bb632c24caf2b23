package io.sharestream.common.parquet;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.Objects;

/**
 * How data files are decoded, the same for both engines: the zone of offset-less timestamp partition values, and
 * the calendar rebase modes for old dates and timestamps (with the zone legacy timestamps are rebased in: the
 * JVM's default, as Spark 3.1 does).
 */
public final class ReadSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  /** UTC partition values, Spark 3.1's default rebase modes (EXCEPTION), the JVM's zone for rebasing. */
  public static final ReadSettings DEFAULT = new ReadSettings(ZoneId.of("UTC"), RebaseMode.EXCEPTION,
      RebaseMode.EXCEPTION, null);

  private final ZoneId partitionZone;
  private final RebaseMode datetimeRebaseMode;
  private final RebaseMode int96RebaseMode;
  private final ZoneId rebaseZone;

  /** {@code rebaseZone} null: the JVM's default zone when a file is read. */
  public ReadSettings(ZoneId partitionZone, RebaseMode datetimeRebaseMode, RebaseMode int96RebaseMode,
      ZoneId rebaseZone) {
    this.partitionZone = Objects.requireNonNull(partitionZone);
    this.datetimeRebaseMode = Objects.requireNonNull(datetimeRebaseMode);
    this.int96RebaseMode = Objects.requireNonNull(int96RebaseMode);
    this.rebaseZone = rebaseZone;
  }

  /** Zone of timestamp partition values written without an offset. */
  public ZoneId partitionZone() {
    return partitionZone;
  }

  /** Mode for DATE and INT64 timestamp columns of files that do not name their calendar. */
  public RebaseMode datetimeRebaseMode() {
    return datetimeRebaseMode;
  }

  /** Mode for INT96 timestamp columns of files that do not name their calendar. */
  public RebaseMode int96RebaseMode() {
    return int96RebaseMode;
  }

  /** Zone legacy timestamps are rebased in. */
  public ZoneId rebaseZone() {
    return rebaseZone != null ? rebaseZone : ZoneId.systemDefault();
  }

  public ReadSettings withRebaseModes(RebaseMode datetime, RebaseMode int96) {
    return new ReadSettings(partitionZone, datetime, int96, rebaseZone);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ReadSettings)) {
      return false;
    }
    ReadSettings r = (ReadSettings) o;
    return partitionZone.equals(r.partitionZone) && datetimeRebaseMode == r.datetimeRebaseMode
        && int96RebaseMode == r.int96RebaseMode && Objects.equals(rebaseZone, r.rebaseZone);
  }

  @Override
  public int hashCode() {
    return Objects.hash(partitionZone, datetimeRebaseMode, int96RebaseMode, rebaseZone);
  }

  @Override
  public String toString() {
    return "ReadSettings{partitionZone=" + partitionZone + ", datetimeRebaseMode=" + datetimeRebaseMode
        + ", int96RebaseMode=" + int96RebaseMode + ", rebaseZone=" + (rebaseZone == null ? "<jvm>" : rebaseZone) + "}";
  }
}
