package io.sharestream.common.client;

import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Client settings for tests against the kit's server: short backoffs, waits recorded instead of slept. */
final class Kit {
  private Kit() {}

  /** Records the backoff waits asked for (and does not sleep). */
  static final class RecordingSleeper implements Sleeper {
    final List<Duration> waits = new CopyOnWriteArrayList<>();

    @Override
    public void sleep(Duration d) {
      waits.add(d);
    }
  }

  static ClientSettings settings(RecordingSleeper sleeper) {
    return ClientSettings.DEFAULT.withSleeper(sleeper)
        .withRetry(new RetrySettings(4, Duration.ofMillis(100), Duration.ofSeconds(2), Duration.ofMinutes(5)))
        .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30));
  }

  static DeltaSharingClient client(DeltaSharingServer server, RecordingSleeper sleeper) {
    return new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()), settings(sleeper));
  }
}
