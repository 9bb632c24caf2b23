package io.sharestream.common.client;

import io.sharestream.common.profile.DeltaSharingProfile;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once an hour at most, while the profile in use holds a bearer token that expires within the warning
 * period ({@link ClientSettings#expiryWarning()}) or has expired: the log line says when, and that replacing the
 * profile file is enough (it is read again when it changes).
 */
final class ExpiryWarnings {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiryWarnings.class);
  private static final Duration REPEAT = Duration.ofHours(1);

  private final Duration ahead;
  private final Clock clock;
  private DeltaSharingProfile warnedFor;
  private Instant warnedAt;

  ExpiryWarnings(Duration ahead, Clock clock) {
    this.ahead = ahead;
    this.clock = clock;
  }

  void check(DeltaSharingProfile profile, String location) {
    Instant expires = profile.expirationTime();
    if (expires == null || ahead.isZero()) {
      return;
    }
    Instant now = clock.instant();
    if (now.plus(ahead).isBefore(expires)) {
      return;
    }
    synchronized (this) {
      if (profile == warnedFor && now.isBefore(warnedAt.plus(REPEAT))) {
        return;
      }
      warnedFor = profile;
      warnedAt = now;
    }
    String replace = location.equals("inline profile") ? "give the provider's new profile (a restart takes it up)"
        : "replace the profile file " + location + " with the provider's new one (it is read again when it "
            + "changes, no restart needed)";
    if (!now.isBefore(expires)) {
      LOG.error("The profile's bearer token expired at {}: the server refuses it; {}", expires, replace);
    } else {
      Duration left = Duration.between(now, expires);
      LOG.warn("The profile's bearer token expires at {}, in {}: {}", expires, left.toDays() > 0
          ? left.toDays() + " days" : left.toHours() > 0 ? left.toHours() + " hours" : left.toMinutes()
              + " minutes", replace);
    }
  }
}
