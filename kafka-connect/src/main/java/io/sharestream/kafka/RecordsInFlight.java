package io.sharestream.kafka;

/**
 * A task's records handed to the worker and not yet acknowledged ({@code SourceTask.commitRecord}), at most
 * {@code records.in.flight.max}: the worker keeps each until the broker acknowledges it, so this bounds the heap a
 * task's records take whatever the producer's buffers allow.
 */
final class RecordsInFlight {
  /** Longest wait of a poll for room; the worker calls poll again (and hears a stop) in between. */
  private static final long WAIT_MS = 100;

  private final int max;
  private int count; // guarded by this

  RecordsInFlight(int max) {
    this.max = max;
  }

  synchronized void handedOver(int records) {
    count += records;
  }

  synchronized void acknowledged() {
    count--;
    if (count == max / 2) {
      notifyAll();
    }
  }

  /**
   * How many more records may be handed over: at once when at least half the bound is free, else after up to 100
   * ms waiting for acknowledgements (perhaps none).
   */
  synchronized int room() throws InterruptedException {
    long end = System.nanoTime() + WAIT_MS * 1_000_000;
    for (long left = WAIT_MS; count > max / 2 && left > 0; left = (end - System.nanoTime()) / 1_000_000) {
      wait(left);
    }
    return Math.max(0, max - count);
  }
}
