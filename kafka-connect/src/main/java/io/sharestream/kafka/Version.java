package io.sharestream.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The connector's version, from the build. */
final class Version {
  private static final String VERSION = load();

  private Version() {}

  static String get() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("/sharestream-kafka-connect.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
