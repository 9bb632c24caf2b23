package io.sharestream.cli;

import io.sharestream.common.client.BuildVersion;
import picocli.CommandLine;

/** {@code --version}: the build's version, and the user agent the CLI sends. */
final class VersionInfo implements CommandLine.IVersionProvider {
  /** The project version this build was made from. */
  static final String VERSION = BuildVersion.of(VersionInfo.class, "version.properties");

  static String userAgent() {
    return "sharestream-cli/" + VERSION;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"sharestream " + VERSION};
  }
}
