package io.sharestream.cli;

import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.NetworkSettings;
import io.sharestream.common.client.ResponseFormat;
import io.sharestream.common.client.RetrySettings;
import io.sharestream.common.client.TrustSettings;
import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.profile.ProfileSource;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options every command connects with: the profile file, how long an attempt may wait and how often failing
 * requests are retried (each retry a note on stderr), and the network path: a proxy ({@code --proxy}, else the
 * {@code HTTPS_PROXY}/{@code HTTP_PROXY} variables every Unix client honours, with {@code NO_PROXY}) and the
 * certificates to trust ({@code --ca-cert}).
 */
final class ConnectionOptions {
  @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
  private CommandLine.Model.CommandSpec command;

  @Option(names = "--profile", paramLabel = "<file>", defaultValue = "${env:SHARESTREAM_PROFILE}",
      description = "The Delta Sharing profile file (default: the file $SHARESTREAM_PROFILE names); read again "
          + "when it changes.")
  private Path profile;

  @Option(names = "--max-retries", paramLabel = "<n>", defaultValue = "4",
      description = "Retries of a request that failed with 429, 5xx or a network error, with backoff from 1 s to "
          + "30 s (default: ${DEFAULT-VALUE}).")
  private int maxRetries;

  @Option(names = "--timeout", paramLabel = "<duration>", defaultValue = "30s", converter = Converters.Interval.class,
      description = "How long to wait for a connection, for an answer to start and for the next bytes of one, before "
          + "the attempt counts as failed and is retried: 500ms, 30s, 2m, ... (default: ${DEFAULT-VALUE}).")
  private Duration timeout;

  @Option(names = "--proxy", paramLabel = "<url>",
      description = "The forward proxy of every request (API, OAuth token endpoint, storage): "
          + "http://[user:password@]host:port (default: $HTTPS_PROXY for https:// targets, $HTTP_PROXY for "
          + "http:// ones, as curl reads them).")
  private String proxy;

  @Option(names = "--no-proxy", paramLabel = "<hosts>",
      description = "Hosts reached directly, comma-separated: a name (its subdomains too), .example.com, an IP "
          + "address, or * (default: $NO_PROXY).")
  private String noProxy;

  @Option(names = "--ca-cert", paramLabel = "<file>",
      description = "Trust only the certificates of this file for HTTPS: PEM certificates, or a PKCS12 or JKS trust "
          + "store (default: the JVM's trust store). Host names are verified either way.")
  private String caCert;

  @Option(names = "--ca-cert-password", paramLabel = "<password>",
      description = "The password of a PKCS12 or JKS --ca-cert.")
  private String caCertPassword;

  /** The proxy and trust of this run: its options, else the proxy variables of the environment. */
  NetworkSettings network() {
    NetworkSettings n = NetworkSettings.SYSTEM;
    try {
      if (proxy != null) {
        n = n.withProxy(NetworkSettings.ProxyAddress.parse(proxy, null, null, "--proxy"));
      } else {
        String https = env("HTTPS_PROXY");
        String http = env("HTTP_PROXY");
        n = n.withHttpsProxy(https == null ? null : NetworkSettings.ProxyAddress.parse(https, null, null,
            "HTTPS_PROXY")).withHttpProxy(http == null ? null : NetworkSettings.ProxyAddress.parse(http, null, null,
            "HTTP_PROXY"));
      }
      String bypass = noProxy != null ? noProxy : env("NO_PROXY");
      if (bypass != null) {
        n = n.withNoProxy(java.util.Arrays.asList(bypass.split(",")));
      }
      if (caCert != null) {
        n = n.withTrust(TrustSettings.file(caCert, caCertPassword, null, "--ca-cert"));
      }
    } catch (InvalidSettingException e) {
      throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
    }
    return n;
  }

  /** A variable in upper or lower case (curl reads {@code https_proxy} too); null when unset or empty. */
  private static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.trim().isEmpty()) {
      v = System.getenv(name.toLowerCase(java.util.Locale.ROOT));
    }
    return v == null || v.trim().isEmpty() ? null : v.trim();
  }

  /** A client of the profile's server reading as {@code settings} say; the caller closes it. */
  DeltaSharingClient connect(io.sharestream.common.planner.StreamSettings settings) {
    return connect(settings.responseFormat(), settings.access());
  }

  /** A client of the profile's server asking for {@code format} answers; the caller closes it. */
  DeltaSharingClient connect(ResponseFormat format, io.sharestream.common.client.AccessSettings access) {
    if (profile == null) {
      throw new CommandLine.ParameterException(command.commandLine(),
          "Missing required option: '--profile=<file>' (or set SHARESTREAM_PROFILE)");
    }
    if (maxRetries < 0) {
      throw new CommandLine.ParameterException(command.commandLine(), "--max-retries cannot be negative");
    }
    RetrySettings retry = new RetrySettings(maxRetries + 1, Duration.ofSeconds(1), Duration.ofSeconds(30),
        Duration.ofMinutes(10));
    ClientSettings settings = ClientSettings.DEFAULT.withRetry(retry).withTimeouts(timeout, timeout, timeout)
        .withUserAgent(VersionInfo.userAgent()).withResponseFormat(format).withNetwork(network())
        .withAccess(access);
    return new DeltaSharingClient(ProfileSource.file(profile), settings); // a tail takes up a rotated profile
  }

  DeltaSharingClient connect() {
    return connect(ResponseFormat.AUTO, io.sharestream.common.client.AccessSettings.DEFAULT);
  }
}
