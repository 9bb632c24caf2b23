package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin as a user installs it: the zip built by {@code mvn package} unpacked into a worker's {@code plugin.path},
 * the connector loaded from there (this test's classpath holds neither the connector nor the core), deployed over
 * REST in a distributed worker, its records read back.
 */
class PluginPackageIT {
  @TempDir Path tmp;

  private static Path unzip(Path zip, Path into) throws IOException {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        Path target = into.resolve(e.getName()).normalize();
        if (e.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(in, target);
        }
      }
    }
    return into;
  }

  /** Class file major version of Java 11. */
  private static final int JAVA_11 = 55;

  @Test
  void everyClassInThePluginLoadsOnJava11() throws Exception {
    Path plugin = unzip(Path.of(System.getProperty("plugin.zip")), tmp.resolve("plugins"));
    List<String> tooNew = new java.util.ArrayList<>();
    int classes = 0;
    List<Path> jars;
    try (Stream<Path> files = Files.walk(plugin)) {
      jars = files.filter(p -> p.toString().endsWith(".jar")).collect(Collectors.toList());
    }
    assertThat(jars).hasSizeGreaterThan(5);
    for (Path jar : jars) {
      try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
        for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
          if (!e.getName().endsWith(".class") || e.getName().endsWith("module-info.class")
              || forNewerJavaOnly(e.getName())) {
            continue;
          }
          byte[] head = in.readNBytes(8);
          int major = ((head[6] & 0xff) << 8) | (head[7] & 0xff);
          classes++;
          if (major > JAVA_11) {
            tooNew.add(jar.getFileName() + "!/" + e.getName() + " (class file version " + major + ")");
          }
        }
      }
    }
    assertThat(classes).as("classes read").isGreaterThan(5_000);
    assertThat(tooNew).as("class files a Java 11 worker cannot load").isEmpty();
  }

  /** A multi-release jar's classes for a Java after 11 ({@code META-INF/versions/17/...}), which Java 11 skips. */
  private static boolean forNewerJavaOnly(String entry) {
    if (!entry.startsWith("META-INF/versions/")) {
      return false;
    }
    String v = entry.substring("META-INF/versions/".length(), entry.indexOf('/', "META-INF/versions/".length()));
    return Integer.parseInt(v) > 11;
  }

  @Test
  void theZipHoldsAConfluentHubLayoutAndRunsInADistributedWorker() throws Exception {
    Path zip = Path.of(System.getProperty("plugin.zip"));
    Path pluginPath = unzip(zip, tmp.resolve("plugins"));
    Path plugin;
    try (Stream<Path> dirs = Files.list(pluginPath)) {
      plugin = dirs.findFirst().orElseThrow();
    }
    assertThat(plugin.resolve("manifest.json")).exists();
    assertThat(ConnectHarness.JSON.readTree(plugin.resolve("manifest.json").toFile()).path("component_types")
        .get(0).asText()).isEqualTo("source");
    assertThat(plugin.resolve("doc/LICENSE")).exists();
    assertThat(plugin.resolve("doc/kafka-connect-config.md")).content().contains("profile.path");
    assertThat(plugin.resolve("doc/errors.md")).exists();
    assertThat(plugin.resolve("doc/CHANGELOG.md")).exists();
    assertThat(plugin.resolve("doc/kafka-connect.md")).content().contains("## Behavior when things go wrong");
    assertThat(plugin.resolve("doc/security.md")).exists();
    assertThat(plugin.resolve("doc/README.md")).doesNotExist(); // the guide, not the repository's README
    assertThat(plugin.resolve("etc/delta-sharing-source.json")).exists();
    List<String> lib;
    try (Stream<Path> jars = Files.list(plugin.resolve("lib"))) {
      lib = jars.map(p -> p.getFileName().toString()).collect(Collectors.toList());
    }
    assertThat(lib).anyMatch(j -> j.startsWith("sharestream-kafka-connect-"))
        .anyMatch(j -> j.startsWith("sharestream-common-")).anyMatch(j -> j.startsWith("parquet-hadoop-1.15"))
        .noneMatch(j -> j.startsWith("kafka-clients") || j.startsWith("connect-api") || j.startsWith("slf4j-api"))
        .as("Parquet is read without Hadoop and native codecs").noneMatch(j -> j.startsWith("hadoop-")
            || j.startsWith("snappy-java") || j.startsWith("zstd-jni"));
    assertThat(Files.size(zip)).as("the plugin zip's bytes").isLessThan(25L * 1024 * 1024);
    assertThatThrownBy(() -> Class.forName(ConnectHarness.CONNECTOR_CLASS))
        .as("the connector must come from the plugin").isInstanceOf(ClassNotFoundException.class);

    DeltaTableWriter table = ChangeMatrix.write(tmp.resolve("t"), true);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      String profile = server.writeProfile(tmp.resolve("p.share")).toString();
      EmbeddedConnectCluster connect = new EmbeddedConnectCluster.Builder().name("plugin").numWorkers(1)
          .numBrokers(1).workerProps(new java.util.HashMap<>(Map.of("plugin.path", pluginPath.toString(),
              "key.converter", "org.apache.kafka.connect.json.JsonConverter",
              "value.converter", "org.apache.kafka.connect.json.JsonConverter",
              "value.converter.schemas.enable", "false", "key.converter.schemas.enable", "false",
              "plugin.discovery", "hybrid_warn"))).build();
      connect.start();
      try {
        connect.configureConnector("plugin", new java.util.HashMap<>(ConnectHarness.config(profile, "s.sc.t",
            "startingVersion", "0", "readChangeFeed", "true", "topic.prefix", "plugin.")));
        connect.assertions().assertConnectorAndExactlyNumTasksAreRunning("plugin", 1, "did not start");
        List<String> expected = ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true);
        int n = 0;
        for (var r : connect.kafka().consume(expected.size(), 60_000, "plugin.s.sc.t")) {
          assertThat(new String(r.value(), java.nio.charset.StandardCharsets.UTF_8)).contains("\"id\"");
          n++;
        }
        assertThat(n).isEqualTo(expected.size());
        try (InputStream in = new java.net.URL(connect.endpointForResource("connector-plugins")).openStream()) {
          assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
              .contains(ConnectHarness.CONNECTOR_CLASS).contains("1.0.0");
        }
      } finally {
        connect.stop();
      }
    }
  }
}
