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
 * What executors need to talk to the sharing server: the profile, the response formats asked, the session's network
 * confs and whether the requests serve a stream (their User-Agent says so, as the reference client's do). Shipped
 * with each scan; each JVM keeps one client per spec. {@link #toString()} shows no secret.
 */
final class ClientSpec implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Marks streaming requests, as the reference client's: servers recognise them by it. */
  static final String STREAMING_AGENT = "Delta-Sharing-SparkStructuredStreaming";
  private static final Map<ClientSpec, DeltaSharingClient> CLIENTS = new ConcurrentHashMap<>();

  private final DeltaSharingProfile profile;
  private final ResponseFormat responseFormat;
  private final SessionConfs confs;
  private final boolean streaming;

  ClientSpec(DeltaSharingProfile profile, ResponseFormat responseFormat, SessionConfs confs, boolean streaming) {
    this.profile = Objects.requireNonNull(profile);
    this.responseFormat = Objects.requireNonNull(responseFormat);
    this.confs = Objects.requireNonNull(confs);
    this.streaming = streaming;
  }

  /** This spec for the requests of a stream. */
  ClientSpec forStreaming() {
    return streaming ? this : new ClientSpec(profile, responseFormat, confs, true);
  }

  /** This JVM's client for the spec. */
  DeltaSharingClient client() {
    return CLIENTS.computeIfAbsent(this, s -> new DeltaSharingClient(s.profile, s.confs.apply(ClientSettings.DEFAULT)
        .withUserAgent(s.userAgent()).withResponseFormat(s.responseFormat)));
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
    return c.profile.equals(profile) && c.responseFormat == responseFormat && c.confs.equals(confs)
        && c.streaming == streaming;
  }

  @Override
  public int hashCode() {
    return Objects.hash(profile, responseFormat, confs, streaming);
  }

  @Override
  public String toString() {
    return "ClientSpec{" + profile + ", " + responseFormat + (streaming ? ", streaming" : "") + "}";
  }
}
