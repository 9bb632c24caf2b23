package io.sharestream.testkit.jvm;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand (UTC). */
public final class MovableClock extends Clock {
  private volatile Instant now = Instant.now();

  /** Moves the clock on by {@code d}. */
  public void advance(Duration d) {
    now = now.plus(d);
  }

  /** Sets the clock to {@code instant}. */
  public void set(Instant instant) {
    now = instant;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
