package io.sharestream.kafka;

import io.sharestream.common.client.BuildVersion;

/** The connector's version, from the build. */
final class Version {
  private static final String VERSION = load();

  private Version() {}

  static String get() {
    return VERSION;
  }

  private static String load() {
    return BuildVersion.of(Version.class, "/sharestream-kafka-connect.properties");
  }
}
