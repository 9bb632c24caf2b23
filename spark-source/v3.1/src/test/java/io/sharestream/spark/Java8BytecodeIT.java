package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The Spark 3.1 jar as shipped loads on Java 8: every class in it, the core's and the bundled HTTP client's included,
 * is class file version 52 or older (animal-sniffer checks the APIs they call at verify), and the HTTP client is
 * relocated so that a cluster's own cannot clash.
 */
class Java8BytecodeIT {
  private static final int JAVA_8 = 52;

  @Test
  void everyClassOfTheShippedJarIsJava8Bytecode() throws Exception {
    Path jar = Path.of(DeltaSharingDataSource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(jar.toString()).endsWith(".jar");
    List<String> newer = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try (JarFile f = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        if (entry.getName().endsWith(".class")) {
          names.add(entry.getName());
          int major = majorVersion(f, entry);
          if (major > JAVA_8) {
            newer.add(entry.getName() + " (" + major + ")");
          }
        }
      }
    }
    assertThat(newer).isEmpty();
    assertThat(names).contains("io/sharestream/common/client/HttpTransport.class",
        "io/sharestream/shaded/org/apache/hc/client5/http/impl/classic/CloseableHttpClient.class");
    assertThat(names).noneMatch(n -> n.startsWith("org/apache/hc/") || n.startsWith("META-INF/versions/"));
  }

  private static int majorVersion(JarFile jar, JarEntry entry) throws IOException {
    try (InputStream in = jar.getInputStream(entry); DataInputStream data = new DataInputStream(in)) {
      data.readInt(); // 0xCAFEBABE
      data.readUnsignedShort(); // minor
      return data.readUnsignedShort();
    }
  }
}
