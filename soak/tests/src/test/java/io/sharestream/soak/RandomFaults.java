package io.sharestream.soak;

import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import io.sharestream.testkit.server.Faults;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Injects one random fault at a time into the kit's server: 429 with Retry-After, 500/503, a body cut off mid-way
 * (the connection closed under the reader), a slow answer, a failed or slow storage download, and pre-signed URLs
 * that expire within seconds. Counts what it injected, by kind.
 */
final class RandomFaults {
  private static final Endpoint[] TABLE_ENDPOINTS = {Endpoint.VERSION, Endpoint.METADATA, Endpoint.QUERY,
      Endpoint.CHANGES};
  private static final Endpoint[] LISTINGS = {Endpoint.QUERY, Endpoint.CHANGES};

  private final Faults faults;
  private final Random random;
  private final Map<String, Integer> injected = new TreeMap<>();

  RandomFaults(DeltaSharingServer server, Random random) {
    this.faults = server.faults();
    this.random = random;
  }

  /** Clears what the last fault left and injects a new one. */
  synchronized void next() {
    faults.clear();
    Endpoint endpoint = TABLE_ENDPOINTS[random.nextInt(TABLE_ENDPOINTS.length)];
    String kind;
    switch (random.nextInt(8)) {
      case 0:
        faults.rateLimit(endpoint, 1 + random.nextInt(2), 1);
        kind = "429 Retry-After";
        break;
      case 1:
        faults.failWith(endpoint, 1 + random.nextInt(2), random.nextBoolean() ? 500 : 503);
        kind = "5xx";
        break;
      case 2:
        faults.truncate(LISTINGS[random.nextInt(LISTINGS.length)], 1, 1 + random.nextInt(4));
        kind = "truncated body";
        break;
      case 3:
        faults.delay(endpoint, 1, Duration.ofMillis(500 + random.nextInt(2500)));
        kind = "slow answer";
        break;
      case 4:
        faults.failWith(Endpoint.STORAGE, 1 + random.nextInt(2), 503);
        kind = "storage 503";
        break;
      case 5:
        faults.slowStorage(Duration.ofMillis(20 + random.nextInt(80)));
        kind = "slow storage";
        break;
      case 6:
        faults.urlTtl(Duration.ofSeconds(1 + random.nextInt(2)));
        kind = "expiring URLs";
        break;
      default:
        faults.delay(Endpoint.STORAGE, 1, Duration.ofMillis(500 + random.nextInt(1500)));
        kind = "slow download";
        break;
    }
    injected.merge(kind, 1, Integer::sum);
  }

  /** Stops injecting: the last fault's rules are dropped. */
  synchronized void stop() {
    faults.clear();
  }

  synchronized int count() {
    return injected.values().stream().mapToInt(Integer::intValue).sum();
  }

  synchronized Map<String, Integer> byKind() {
    return new TreeMap<>(injected);
  }
}
