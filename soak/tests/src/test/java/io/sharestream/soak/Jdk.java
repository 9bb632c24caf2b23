package io.sharestream.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A Java installation to run a worker or driver on: this build's own, and any other feature release installed. */
record Jdk(int feature, Path home) {
  private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

  Path java() {
    return home.resolve("bin/java");
  }

  /** The JDK running this test. */
  static Jdk current() {
    return new Jdk(Runtime.version().feature(), Path.of(System.getProperty("java.home")));
  }

  /** This build's JDK and one of every other feature release of 17 or later under {@code /usr/lib/jvm}. */
  static List<Jdk> installed() {
    Map<Integer, Jdk> byFeature = new TreeMap<>();
    Jdk current = current();
    byFeature.put(current.feature(), current);
    Path root = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(root)) {
      try (Stream<Path> homes = Files.list(root)) {
        homes.forEach(home -> {
          Integer feature = feature(home);
          if (feature != null && feature >= 17 && Files.isExecutable(home.resolve("bin/java"))) {
            byFeature.putIfAbsent(feature, new Jdk(feature, home));
          }
        });
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new ArrayList<>(byFeature.values());
  }

  private static Integer feature(Path home) {
    Path release = home.resolve("release");
    if (!Files.isRegularFile(release)) {
      return null;
    }
    try {
      Matcher m = VERSION.matcher(Files.readString(release));
      return m.find() ? Integer.parseInt(m.group(1)) : null;
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "Java " + feature;
  }
}
