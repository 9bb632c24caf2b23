package io.sharestream.kafka;

import io.sharestream.common.planner.Position;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;

/**
 * Where connector-defined transactions ({@code transaction.boundary=connector}) end: after each record that completes
 * a Delta version (its last row, or a heartbeat for versions that ended without one), and, once a transaction has
 * been open for {@code transaction.max.duration.ms}, after the poll's last record even inside a version, so a long
 * version never outlives the producer's {@code transaction.timeout.ms}. A record's offset is exact inside a version
 * (version, file, row), so a restart after such a commit resumes at the next row: exactly-once holds, only a
 * version's atomic visibility is given up. A transaction opens when a poll hands out records while none is open
 * (the worker begins it as it sends them).
 */
final class TransactionBoundaries {
  private final TransactionContext context;
  private final long maxMillis;
  private final Clock clock;
  /** When the open transaction's first records were handed out; -1 when none is open. */
  private long openedAt = -1;

  /** {@code maxDuration} zero: transactions end at versions only. */
  TransactionBoundaries(TransactionContext context, Duration maxDuration, Clock clock) {
    this.context = context;
    this.maxMillis = maxDuration.toMillis();
    this.clock = clock;
  }

  /** {@code pollDeadline}, or earlier when the open transaction is due to end: the poll then opens no more files. */
  long deadline(long pollDeadline) {
    return openedAt < 0 || maxMillis == 0 ? pollDeadline : Math.min(pollDeadline, openedAt + maxMillis);
  }

  /**
   * Asks the worker to commit after each record of {@code out} (one poll's records, in order) that ends a version,
   * and after the last (or, without records, after this empty poll) when the open transaction is due.
   */
  void end(List<SourceRecord> out) {
    long now = clock.millis();
    int lastCommit = -1;
    for (int i = 0; i < out.size(); i++) {
      SourceRecord r = out.get(i);
      boolean lastOfOffset = i == out.size() - 1 || out.get(i + 1).sourceOffset() != r.sourceOffset();
      if (lastOfOffset && ((Number) r.sourceOffset().get(Position.INDEX)).longValue() == -1) {
        context.commitTransaction(r);
        lastCommit = i;
      }
    }
    if (lastCommit >= 0) {
      openedAt = lastCommit == out.size() - 1 ? -1 : now;
    } else if (!out.isEmpty() && openedAt < 0) {
      openedAt = now;
    }
    if (maxMillis > 0 && openedAt >= 0 && now - openedAt >= maxMillis) {
      context.commitTransaction(); // after this poll's records: the last one's offset is exact
      openedAt = -1;
    }
  }
}
