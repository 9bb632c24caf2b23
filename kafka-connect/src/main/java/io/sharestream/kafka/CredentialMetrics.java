package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import java.time.Clock;
import java.time.Instant;
import javax.management.ObjectName;

/** {@link CredentialMetricsMBean} of one task's client, registered while the task runs. */
final class CredentialMetrics implements CredentialMetricsMBean {
  private final DeltaSharingClient client;
  private final Clock clock;
  private final ObjectName name;

  CredentialMetrics(String connector, String task, DeltaSharingClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
    this.name = MBeans.register("io.sharestream.kafka:type=credentials,connector=" + ObjectName.quote(connector)
        + ",task=" + ObjectName.quote(task), this);
  }

  void unregister() {
    MBeans.unregister(name, this);
  }

  @Override
  public long getExpirationTime() {
    Instant at = client.credentialsExpireAt();
    return at == null ? -1 : at.toEpochMilli();
  }

  @Override
  public long getSecondsToExpiry() {
    Instant at = client.credentialsExpireAt();
    return at == null ? -1 : at.getEpochSecond() - clock.instant().getEpochSecond();
  }

  @Override
  public long getProfileReloads() {
    return client.profileReloads();
  }
}
