package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.planner.Position;
import io.sharestream.testkit.jvm.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.junit.jupiter.api.Test;

/**
 * Connector-defined transactions end after each record that completes a Delta version, and inside a version once
 * they have been open for the maximum duration, at the end of a poll (an empty one too); polls stop opening files
 * when the open transaction is due.
 */
class TransactionBoundariesTest {
  /** The commits asked for: the name of the record each comes after, or "batch" (after the poll's records). */
  static final class Commits implements TransactionContext {
    final List<String> asked = new ArrayList<>();

    @Override
    public void commitTransaction() {
      asked.add("batch");
    }

    @Override
    public void commitTransaction(SourceRecord record) {
      asked.add(record.topic());
    }

    @Override
    public void abortTransaction() {
      throw new AssertionError("never aborts");
    }

    @Override
    public void abortTransaction(SourceRecord record) {
      throw new AssertionError("never aborts");
    }
  }

  final MovableClock clock = new MovableClock();

  {
    clock.set(Instant.EPOCH);
  }
  final Commits commits = new Commits();

  /** A record named {@code name} whose offset is inside a version (index >= 0) or at its end (index -1). */
  private static SourceRecord record(String name, boolean endsVersion) {
    Map<String, ?> offset = Map.of(Position.INDEX, endsVersion ? -1L : 3L);
    return new SourceRecord(Map.of(), offset, name, null, null);
  }

  private static List<SourceRecord> records(SourceRecord... records) {
    return new ArrayList<>(List.of(records));
  }

  @Test
  void aTransactionEndsAfterEachRecordThatCompletesAVersion() {
    TransactionBoundaries tx = new TransactionBoundaries(commits, Duration.ofSeconds(30), clock);
    tx.end(records(record("v1-row", false), record("v1-last", true), record("v2-row", false),
        record("v2-last", true)));
    assertThat(commits.asked).containsExactly("v1-last", "v2-last");
  }

  @Test
  void aDeleteAndItsTombstoneSharingAnOffsetEndTheTransactionAfterTheTombstone() {
    TransactionBoundaries tx = new TransactionBoundaries(commits, Duration.ofSeconds(30), clock);
    SourceRecord delete = record("delete", true);
    SourceRecord tombstone = new SourceRecord(delete.sourcePartition(), delete.sourceOffset(), "tombstone", null,
        null);
    tx.end(records(delete, tombstone));
    assertThat(commits.asked).containsExactly("tombstone");
  }

  @Test
  void aVersionLongerThanTheMaxDurationIsCommittedInPiecesAtPollEnds() {
    TransactionBoundaries tx = new TransactionBoundaries(commits, Duration.ofMillis(1000), clock);
    tx.end(records(record("a", false))); // opens at 0
    assertThat(tx.deadline(5000)).as("a poll stops opening files when the transaction is due").isEqualTo(1000);
    clock.set(Instant.ofEpochMilli(600));
    tx.end(records(record("b", false)));
    assertThat(commits.asked).isEmpty();
    clock.set(Instant.ofEpochMilli(1000));
    tx.end(records(record("c", false)));
    assertThat(commits.asked).containsExactly("batch");
    assertThat(tx.deadline(5000)).as("none open").isEqualTo(5000);

    clock.set(Instant.ofEpochMilli(1500));
    tx.end(records(record("d", false))); // the next piece opens at 1500
    clock.set(Instant.ofEpochMilli(2400));
    tx.end(records(record("e", false)));
    assertThat(commits.asked).containsExactly("batch");
    clock.set(Instant.ofEpochMilli(2500));
    tx.end(records(record("f", false), record("v-last", true)));
    assertThat(commits.asked).as("the version's end commits; nothing is left open").containsExactly("batch",
        "v-last");
  }

  @Test
  void aVersionEndingMidPollStartsTheNextTransactionsClock() {
    TransactionBoundaries tx = new TransactionBoundaries(commits, Duration.ofMillis(1000), clock);
    tx.end(records(record("a", false)));
    clock.set(Instant.ofEpochMilli(900));
    tx.end(records(record("v1-last", true), record("v2-row", false))); // v2's piece opens at 900
    clock.set(Instant.ofEpochMilli(1800));
    tx.end(records(record("v2-more", false)));
    assertThat(commits.asked).containsExactly("v1-last");
    clock.set(Instant.ofEpochMilli(1900));
    tx.end(records(record("v2-still", false)));
    assertThat(commits.asked).containsExactly("v1-last", "batch");
  }

  @Test
  void aDueTransactionIsCommittedByAPollWithoutRecords() {
    TransactionBoundaries tx = new TransactionBoundaries(commits, Duration.ofMillis(1000), clock);
    tx.end(records());
    assertThat(commits.asked).as("nothing open").isEmpty();
    tx.end(records(record("a", false)));
    clock.set(Instant.ofEpochMilli(1000));
    tx.end(records());
    assertThat(commits.asked).containsExactly("batch");
  }

  @Test
  void aMaxDurationOfZeroEndsTransactionsAtVersionsOnly() {
    TransactionBoundaries tx = new TransactionBoundaries(commits, Duration.ZERO, clock);
    tx.end(records(record("a", false)));
    clock.set(Instant.ofEpochMilli(3_600_000));
    tx.end(records(record("b", false)));
    assertThat(commits.asked).isEmpty();
    assertThat(tx.deadline(3_601_000)).isEqualTo(3_601_000);
    tx.end(records(record("v-last", true)));
    assertThat(commits.asked).containsExactly("v-last");
  }
}
