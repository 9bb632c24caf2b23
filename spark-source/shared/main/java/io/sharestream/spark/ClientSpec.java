package io.sharestream.spark;

import io.sharestream.common.client.AccessSettings;
import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.NetworkSettings;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.ProfileSource;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What executors need to talk to the sharing server: the profile (and the file it was read from, if any), the
 * response formats asked, the session's network confs and whether the requests serve a stream (their User-Agent says
 * so, as the reference client's do). Shipped with each scan; each JVM keeps one client per spec, which reads the
 * profile file again when it changes (where the JVM reaches it; else the profile shipped stays in use).
 * {@link #toString()} shows no secret.
 */
final class ClientSpec implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Marks streaming requests, as the reference client's: servers recognise them by it. */
  static final String STREAMING_AGENT = "Delta-Sharing-SparkStructuredStreaming";
  private static final Map<ClientSpec, DeltaSharingClient> CLIENTS = new ConcurrentHashMap<>();

  private final DeltaSharingProfile profile;
  /** The profile file's location; null for a profile given as options. */
  private final String profileLocation;
  private final ResponseFormat responseFormat;
  private final SessionConfs confs;
  /** The read's proxy and trust (its options over the session's confs). */
  private final NetworkSettings network;
  private final boolean streaming;
  /** URL or directory access, and the storage endpoints. */
  private final AccessSettings access;

  ClientSpec(DeltaSharingProfile profile, String profileLocation, ResponseFormat responseFormat, SessionConfs confs,
      NetworkSettings network, boolean streaming, AccessSettings access) {
    this.access = Objects.requireNonNull(access);
    this.network = Objects.requireNonNull(network);
    this.profile = Objects.requireNonNull(profile);
    this.profileLocation = profileLocation;
    this.responseFormat = Objects.requireNonNull(responseFormat);
    this.confs = Objects.requireNonNull(confs);
    this.streaming = streaming;
  }

  /** This spec for the requests of a stream. */
  ClientSpec forStreaming() {
    return streaming ? this : new ClientSpec(profile, profileLocation, responseFormat, confs, network, true,
        access);
  }

  /** Whether this spec's requests trust every certificate (the session's sslTrustAll). */
  boolean trustsAll() {
    return network.trust().trustsAll();
  }

  /** This JVM's client for the spec. */
  DeltaSharingClient client() {
    return CLIENTS.computeIfAbsent(this, s -> new DeltaSharingClient(s.profileSource(),
        s.confs.apply(ClientSettings.DEFAULT).withUserAgent(s.userAgent()).withResponseFormat(s.responseFormat)
            .withNetwork(s.network).withAccess(s.access)));
  }

  private ProfileSource profileSource() {
    if (profileLocation == null) {
      return ProfileSource.fixed(profile);
    }
    return ProfileSource.reading(profileLocation, profile, () -> DeltaSharingDataSource.readProfileText(
        profileLocation), DeltaSharingDataSource.localDirectory(profileLocation), ProfileSource.CHECK_INTERVAL,
        java.time.Clock.systemUTC());
  }

  /** The product and its version, the stream marker for streams, then the engine: Spark, Scala, Java and OS. */
  String userAgent() {
    return "Sharestream-Spark/" + DeltaSharingDataSource.VERSION + (streaming ? " " + STREAMING_AGENT : "")
        + " Spark/" + org.apache.spark.package$.MODULE$.SPARK_VERSION()
        + " Scala/" + scala.util.Properties$.MODULE$.versionNumberString()
        + " Java/" + token("java.version") + " " + token("os.name") + "/" + token("os.version");
  }

  private static String token(String property) {
    return System.getProperty(property, "unknown").replaceAll("\\s+", "_");
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ClientSpec)) {
      return false;
    }
    ClientSpec c = (ClientSpec) o;
    return c.profile.equals(profile) && Objects.equals(c.profileLocation, profileLocation)
        && c.responseFormat == responseFormat && c.network.equals(network) && c.confs.equals(confs)
        && c.streaming == streaming && c.access.equals(access);
  }

  @Override
  public int hashCode() {
    return Objects.hash(profile, profileLocation, responseFormat, confs, network, streaming, access);
  }

  @Override
  public String toString() {
    return "ClientSpec{" + profile + ", " + responseFormat + (streaming ? ", streaming" : "") + "}";
  }
}
