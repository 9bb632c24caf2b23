package io.sharestream.common.planner;

import java.time.Duration;
import java.util.Objects;

/**
 * How often a stream asks the server for its table's latest version: every {@link #interval()} while the table
 * changes, and, backing off while it does not, at intervals doubling up to {@link #ceiling()}; a new version brings
 * the interval back at once. Many idle tables then cost the provider a request per ceiling each, while an active
 * table's new commits are seen within the interval. A ceiling equal to the interval never backs off.
 */
public final class VersionPolling {
  private final Duration interval;
  private final Duration ceiling;

  private VersionPolling(Duration interval, Duration ceiling) {
    this.interval = Objects.requireNonNull(interval, "interval");
    this.ceiling = ceiling.compareTo(interval) < 0 ? interval : ceiling;
  }

  /** Asks every {@code interval}, never backing off. */
  public static VersionPolling every(Duration interval) {
    return new VersionPolling(interval, interval);
  }

  /** These polls, backing off up to {@code ceiling} while the table does not change. */
  public VersionPolling backingOffUpTo(Duration ceiling) {
    return new VersionPolling(interval, Objects.requireNonNull(ceiling, "ceiling"));
  }

  public Duration interval() {
    return interval;
  }

  public Duration ceiling() {
    return ceiling;
  }

  /** The wait before the next ask after one that waited {@code waited}: the same version ({@code changed} false). */
  Duration next(Duration waited, boolean changed) {
    if (changed) {
      return interval;
    }
    Duration doubled = waited.isZero() ? interval : waited.multipliedBy(2);
    return doubled.compareTo(ceiling) > 0 ? ceiling : doubled;
  }

  @Override
  public String toString() {
    return "every " + interval.toMillis() + " ms" + (ceiling.equals(interval) ? ""
        : ", up to " + ceiling.toMillis() + " ms while the table does not change");
  }
}
