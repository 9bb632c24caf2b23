package io.sharestream.testkit.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A document generated from the code and committed under the repository (e.g. {@code docs/errors.md}): a test
 * regenerates it and calls {@link #assertCurrent}, which fails when the committed file differs, naming the command
 * that rewrites it; run with {@code -Ddocs.write=true}, it writes the file instead.
 */
public final class GeneratedDoc {
  private GeneratedDoc() {}

  /** Fails unless the committed {@code relativePath} equals {@code generated}; writes it under -Ddocs.write=true. */
  public static void assertCurrent(String relativePath, String generated, String regenerate) throws IOException {
    Path file = repositoryRoot().resolve(relativePath);
    if (Boolean.getBoolean("docs.write")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, generated);
    }
    String committed = Files.exists(file) ? Files.readString(file).replace("\r\n", "\n") : "";
    if (!committed.equals(generated)) {
      throw new AssertionError(file + " is out of date with the code; regenerate it: " + regenerate);
    }
  }

  /** The repository's root, found upwards from the working directory (Maven's is the module's). */
  public static Path repositoryRoot() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("pom.xml")) && Files.isDirectory(d.resolve("common"))
          && Files.isDirectory(d.resolve("testkit"))) {
        return d;
      }
    }
    throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
  }
}
