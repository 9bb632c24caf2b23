package io.sharestream.common.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version a module's build wrote into a properties resource ({@code version=...}): what each engine names in
 * its User-Agent and version strings.
 */
public final class BuildVersion {
  private BuildVersion() {}

  /** {@code version} from {@code resource} (as {@link Class#getResourceAsStream}), or "unknown" without one. */
  public static String of(Class<?> anchor, String resource) {
    try (InputStream in = anchor.getResourceAsStream(resource)) {
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
