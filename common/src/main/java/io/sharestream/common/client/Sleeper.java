package io.sharestream.common.client;

import java.time.Duration;

/** Takes backoff waits; a seam so tests can observe waits instead of spending them. */
@FunctionalInterface
public interface Sleeper {
  Sleeper REAL = d -> Thread.sleep(d.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
