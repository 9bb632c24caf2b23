package io.sharestream.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;

/** {@code --version}: the build's version, and the user agent the CLI sends. */
final class VersionInfo implements CommandLine.IVersionProvider {
  /** The project version this build was made from. */
  static final String VERSION = load();

  private static String load() {
    Properties p = new Properties();
    try (InputStream in = VersionInfo.class.getResourceAsStream("version.properties")) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version");
  }

  static String userAgent() {
    return "sharestream-cli/" + VERSION;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"sharestream " + VERSION};
  }
}
