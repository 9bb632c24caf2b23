package io.sharestream.spark;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.profile.DeltaSharingProfile;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What executors need to talk to the sharing server (the profile and the response formats asked), shipped with each
 * scan; each JVM keeps one
 * client per profile. {@link #toString()} shows no secret.
 */
final class ClientSpec implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final Map<ClientSpec, DeltaSharingClient> CLIENTS = new ConcurrentHashMap<>();

  private final DeltaSharingProfile profile;
  private final ResponseFormat responseFormat;

  ClientSpec(DeltaSharingProfile profile, ResponseFormat responseFormat) {
    this.profile = Objects.requireNonNull(profile);
    this.responseFormat = Objects.requireNonNull(responseFormat);
  }

  /** This JVM's client for the profile. */
  DeltaSharingClient client() {
    return CLIENTS.computeIfAbsent(this, s -> new DeltaSharingClient(s.profile,
        ClientSettings.DEFAULT.withUserAgent("sharestream-spark/" + DeltaSharingDataSource.VERSION
            + " Delta-Sharing-SparkStructuredStreaming").withResponseFormat(s.responseFormat)));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClientSpec && ((ClientSpec) o).profile.equals(profile)
        && ((ClientSpec) o).responseFormat == responseFormat;
  }

  @Override
  public int hashCode() {
    return profile.hashCode() * 31 + responseFormat.hashCode();
  }

  @Override
  public String toString() {
    return "ClientSpec{" + profile + ", " + responseFormat + "}";
  }
}
