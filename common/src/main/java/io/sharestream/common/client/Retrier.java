package io.sharestream.common.client;

import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.Errors;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an attempt until it succeeds, retrying {@link TransientFailure}s and I/O errors with jittered exponential
 * backoff within {@link RetrySettings}; typed {@link DeltaSharingException}s (4xx answers) are never retried.
 */
final class Retrier {
  private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

  private final RetrySettings settings;
  private final Sleeper sleeper;
  private final BooleanSupplier cancelled;
  private final Exhausted exhausted;

  /** The error raised when every attempt failed and the last did not fail to connect. */
  interface Exhausted {
    DeltaSharingException make(String what, int attempts, Throwable last);
  }

  Retrier(RetrySettings settings, Sleeper sleeper, Exhausted exhausted) {
    this(settings, sleeper, () -> false, exhausted);
  }

  /**
   * {@code cancelled}: true once the owner was closed; a failure then ends the call instead of a retry.
   * {@code exhausted}: the error when retries run out ({@link Errors#unreachable} when the last attempt could not
   * connect).
   */
  Retrier(RetrySettings settings, Sleeper sleeper, BooleanSupplier cancelled, Exhausted exhausted) {
    this.settings = settings;
    this.sleeper = sleeper;
    this.cancelled = cancelled;
    this.exhausted = exhausted;
  }

  /** An attempt that may fail with an I/O error. */
  interface Attempt<T> {
    T run() throws IOException;
  }

  <T> T call(String what, Attempt<T> attempt) {
    long start = System.nanoTime();
    Duration budget = settings.maxTotal();
    for (int n = 1; ; n++) {
      RuntimeException failure;
      Duration retryAfter = null;
      try {
        return attempt.run();
      } catch (DeltaSharingException e) {
        throw e;
      } catch (TransientFailure e) {
        failure = e;
        retryAfter = e.retryAfter();
      } catch (IOException e) {
        if (e instanceof InterruptedIOException && Thread.currentThread().isInterrupted()) {
          throw new DeltaSharingException("Interrupted during " + what, e);
        }
        if (e instanceof Unreachable && ((Unreachable) e).settled) { // a certificate or a proxy refusal: no retry
          Unreachable u = (Unreachable) e;
          throw Errors.unreachable(u.target, u.url, what, n, u.reason, u);
        }
        failure = new TransientFailure(Errors.describe(e), null, e);
      }
      if (cancelled.getAsBoolean()) { // the failure was the owner's close aborting the attempt
        throw Errors.cancelled(what);
      }
      Duration wait = backoff(n, retryAfter);
      Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
      if (n >= settings.maxAttempts() || elapsed.plus(wait).compareTo(budget) > 0) {
        Throwable last = failure.getCause() != null ? failure.getCause() : failure;
        if (last instanceof Unreachable) {
          Unreachable u = (Unreachable) last;
          throw Errors.unreachable(u.target, u.url, what, n, u.reason, u);
        }
        throw exhausted.make(what, n, last);
      }
      if (LOG.isInfoEnabled()) {
        LOG.info("Retrying {} ({}/{}) in {} ms after: {}", what, n + 1, settings.maxAttempts(), wait.toMillis(),
            Errors.redact(failure.getMessage()));
      }
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new DeltaSharingException("Interrupted while waiting to retry " + what, e);
      }
    }
  }

  /** Attempt n failed: wait initial*2^(n-1) capped, with up to 50% jitter off, and never less than Retry-After. */
  Duration backoff(int attempt, Duration retryAfter) {
    long base = settings.initialBackoff().toMillis() << Math.min(attempt - 1, 20);
    long capped = Math.min(base, settings.maxBackoff().toMillis());
    long jittered = capped - (long) (capped * 0.5 * ThreadLocalRandom.current().nextDouble());
    Duration wait = Duration.ofMillis(Math.max(0, jittered));
    return retryAfter != null && retryAfter.compareTo(wait) > 0 ? retryAfter : wait;
  }
}
