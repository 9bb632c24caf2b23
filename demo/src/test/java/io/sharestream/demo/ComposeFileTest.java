package io.sharestream.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The top-level {@code docker-compose.yml} and what it names, checked without Docker: every image pinned, every
 * build context, Dockerfile and copied file in the repository or exactly what {@code mvn package} makes (checked
 * inside when built), every mounted file in the repository, the connector's config in agreement with
 * {@code config/}, the profile with the server it names, the Spark job with its jar and profile, variables
 * defined, ports on loopback only. {@code docker compose config} runs where Docker is installed.
 */
class ComposeFileTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMPOSE_VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:?-([^}]*))?}");
  private static final Set<String> LOOPBACK_HOSTS = Set.of("localhost", "127.0.0.1", "0.0.0.0");

  private static Path root;
  private static String version;
  private static JsonNode compose;
  private static Map<String, JsonNode> services;
  /** The build outputs a Dockerfile may copy, by their path under the repository root, as the poms name them. */
  private static Map<String, String> buildOutputs;

  @BeforeAll
  static void readTheComposeFile() throws Exception {
    root = Path.of("").toAbsolutePath();
    while (!Files.exists(root.resolve("docker-compose.yml")) || !Files.exists(root.resolve("pom.xml"))) {
      root = root.getParent();
      assertThat(root).as("no docker-compose.yml beside a pom.xml above the working directory").isNotNull();
    }
    Element parent = pom("pom.xml");
    version = child(parent, "version");
    compose = YAML.readTree(interpolate(read(root.resolve("docker-compose.yml"))));
    services = new LinkedHashMap<>();
    compose.path("services").properties().forEach(e -> services.put(e.getKey(), e.getValue()));
    assertThat(services).isNotEmpty();

    buildOutputs = new LinkedHashMap<>();
    String pluginName = property(pom("kafka-connect/pom.xml"), "plugin.name").replace("${project.version}", version);
    buildOutputs.put("kafka-connect/target/" + pluginName, "plugin directory");
    buildOutputs.put("spark-source/v3.5/target/" + child(pom("spark-source/v3.5/pom.xml"), "artifactId") + "-" + version + ".jar",
        "Spark 3.5 jar");
    Element demo = pom("demo/pom.xml");
    assertThat(read(root.resolve("demo/pom.xml"))).as("demo/pom.xml shades the runnable jar with classifier 'all'")
        .contains("<shadedClassifierName>all</shadedClassifierName>");
    buildOutputs.put("demo/target/" + child(demo, "artifactId") + "-" + version + "-all.jar", "demo runnable jar");
  }

  @Test
  void everyImageIsAPublicImagePinnedToAVersion() throws IOException {
    List<String> images = new ArrayList<>();
    services.forEach((name, s) -> {
      if (s.has("image")) {
        images.add(s.get("image").asText());
      }
      assertThat(s.has("image") || s.has("build")).as("service %s has an image or a build", name).isTrue();
    });
    for (Path dockerfile : dockerfiles()) {
      Dockerfile d = Dockerfile.read(dockerfile);
      assertThat(d.from).as("FROM lines of %s", dockerfile).isNotEmpty();
      images.addAll(d.from);
    }
    assertThat(images).hasSizeGreaterThanOrEqualTo(6);
    for (String image : images) {
      assertThat(image).as("image %s: name:tag, no digest-only or variable reference", image)
          .matches("[a-z0-9][a-z0-9._/-]*:[A-Za-z0-9][A-Za-z0-9._-]*");
      String name = image.substring(0, image.lastIndexOf(':'));
      String tag = image.substring(image.lastIndexOf(':') + 1);
      assertThat(tag).as("tag of %s", image).doesNotContainIgnoringCase("latest").matches("\\d+(\\.\\d+)+.*");
      String first = name.split("/")[0];
      assertThat(name.contains("/") && first.contains(".")).as("%s names a registry host", image).isFalse();
    }
  }

  @Test
  void everyBuildContextDockerfileAndCopiedFileIsInTheRepoOrIsWhatTheBuildMakes() throws Exception {
    DockerIgnore ignore = DockerIgnore.read(root.resolve(".dockerignore"));
    int copies = 0;
    Set<String> outputsCopied = new LinkedHashSet<>();
    for (Map.Entry<String, JsonNode> e : services.entrySet()) {
      JsonNode build = e.getValue().path("build");
      if (build.isMissingNode()) {
        continue;
      }
      Path context = root.resolve(build.path("context").asText(".")).normalize();
      assertThat(context).as("build context of %s", e.getKey()).isDirectory().isEqualTo(root);
      Path dockerfile = context.resolve(build.path("dockerfile").asText("Dockerfile")).normalize();
      assertThat(dockerfile).as("Dockerfile of %s", e.getKey()).isRegularFile();
      Dockerfile d = Dockerfile.read(dockerfile);
      Map<String, String> args = new LinkedHashMap<>(d.args);
      build.path("args").properties().forEach(a -> {
        assertThat(d.args).as("%s declares the build arg %s", dockerfile, a.getKey()).containsKey(a.getKey());
        args.put(a.getKey(), a.getValue().asText());
      });
      for (Dockerfile.Copy copy : d.copies) {
        String source = root.relativize(context.resolve(d.substitute(copy.source, args)).normalize()).toString()
            .replace(File.separatorChar, '/');
        boolean dir = copy.source.endsWith("/") || Files.isDirectory(root.resolve(source));
        assertThat(ignore.excludes(dir ? source + "/any-file" : source))
            .as("%s is copied by %s but excluded by .dockerignore", source, dockerfile).isFalse();
        if (source.contains("/target/")) {
          assertThat(buildOutputs).as("%s copies %s: not a path the build makes", dockerfile, source)
              .containsKey(source);
          outputsCopied.add(source);
          checkBuildOutput(source);
        } else {
          assertThat(root.resolve(source)).as("%s copies %s", dockerfile, source).exists();
        }
        copies++;
      }
    }
    assertThat(copies).isGreaterThanOrEqualTo(4);
    assertThat(outputsCopied).as("the images copy the plugin, the Spark jar and the demo jar")
        .containsExactlyInAnyOrderElementsOf(buildOutputs.keySet());
  }

  @Test
  void everyMountedHostPathIsInTheRepoAndEveryVolumeIsDeclared() {
    int binds = 0;
    for (Map.Entry<String, JsonNode> e : services.entrySet()) {
      for (Mount m : mounts(e.getValue())) {
        if (m.bind) {
          assertThat(m.source).as("%s mounts %s, a build output", e.getKey(), m.source).doesNotContain("/target/");
          assertThat(root.resolve(m.source)).as("%s mounts %s", e.getKey(), m.source).exists();
          binds++;
        } else {
          assertThat(compose.path("volumes").has(m.source)).as("volume %s of %s declared", m.source, e.getKey())
              .isTrue();
        }
      }
    }
    assertThat(binds).isGreaterThanOrEqualTo(4);
  }

  @Test
  void theConnectorConfigAgreesWithTheExampleAvroConfig() throws IOException {
    JsonNode deploy = serviceRunning("curl");
    List<String> command = strings(deploy.path("command"));
    String url = command.get(command.size() - 1);
    URI put = URI.create(url);
    assertThat(command).contains("PUT");
    assertThat(put.getPath()).matches("/connectors/[a-z0-9-]+/config");
    assertThat(services).as("the worker named by %s", url).containsKey(put.getHost());
    JsonNode connect = services.get(put.getHost());
    assertThat(String.valueOf(put.getPort())).isEqualTo(env(connect, "CONNECT_REST_PORT"));
    assertThat(put.getHost()).isEqualTo(env(connect, "CONNECT_REST_ADVERTISED_HOST_NAME"));
    String data = command.get(command.indexOf("--data-binary") + 1);
    assertThat(data).startsWith("@");
    Path configFile = root.resolve(mountSource(deploy, data.substring(1)));
    JsonNode mine = JSON.readTree(configFile.toFile());
    JsonNode example = JSON.readTree(root.resolve("config/delta-sharing-source-avro.json").toFile());

    for (String key : List.of("connector.class", "topic.prefix", "topic.template", "time.precision.mode",
        "key.converter", "value.converter", "key.converter.schema.registry.url",
        "value.converter.schema.registry.url")) {
      assertThat(mine.path(key)).as("%s of %s", key, configFile).isEqualTo(example.path(key));
    }
    for (String side : List.of("key", "value")) {
      URI registry = URI.create(mine.path(side + ".converter.schema.registry.url").asText());
      JsonNode service = services.get(registry.getHost());
      assertThat(service).as("a service named %s", registry.getHost()).isNotNull();
      assertThat(service.path("image").asText()).contains("cp-schema-registry");
      assertThat(env(service, "SCHEMA_REGISTRY_LISTENERS")).endsWith(":" + registry.getPort());
      assertThat(env(connect, "CONNECT_" + side.toUpperCase() + "_CONVERTER"))
          .isEqualTo(mine.path(side + ".converter").asText());
      assertThat(env(connect, "CONNECT_" + side.toUpperCase() + "_CONVERTER_SCHEMA_REGISTRY_URL"))
          .isEqualTo(registry.toString());
    }
    String profile = mine.path("profile.path").asText();
    assertThat(Path.of(profile).getParent()).isEqualTo(Path.of(example.path("profile.path").asText()).getParent());
    assertThat(mountSource(connect, profile)).as("what the worker has at %s", profile).isEqualTo("docker/demo.share");
    assertThat(mine.path("topic.creation.default.replication.factor").asText()).isEqualTo("1");
    Set<String> shared = sharedTables();
    for (String table : mine.path("tables").asText().split(",")) {
      assertThat(shared).as("tables of %s", configFile).contains(table.trim());
    }
  }

  @Test
  void theProfileNamesTheSharingServerAndItsToken() throws IOException {
    JsonNode profile = JSON.readTree(root.resolve("docker/demo.share").toFile());
    URI endpoint = URI.create(profile.path("endpoint").asText());
    JsonNode sharing = services.get(endpoint.getHost());
    assertThat(sharing).as("a service named %s", endpoint.getHost()).isNotNull();
    List<String> command = strings(sharing.path("command"));
    assertThat(command.get(0)).isEqualTo("io.sharestream.testkit.server.ServerMain");
    assertThat(option(command, "--public-url") + "/delta-sharing").isEqualTo(endpoint.toString());
    assertThat(option(command, "--port")).isEqualTo(String.valueOf(endpoint.getPort()));
    assertThat(option(command, "--bind")).isEqualTo("0.0.0.0");
    assertThat(option(command, "--token")).isEqualTo(profile.path("bearerToken").asText()).contains("demo");
    String healthcheck = String.join(" ", strings(sharing.path("healthcheck").path("test")));
    assertThat(healthcheck).contains("Bearer " + profile.path("bearerToken").asText());

    // the server's table list is the image's copy of docker/sharing/tables.json; the writer writes its table
    Dockerfile image = Dockerfile.read(root.resolve(sharing.path("build").path("dockerfile").asText()));
    assertThat(image.copies.stream().filter(c -> c.source.equals("docker/sharing/tables.json")).map(c -> c.target))
        .containsExactly(option(command, "--config"));
    JsonNode writer = services.values().stream()
        .filter(s -> strings(s.path("command")).contains("io.sharestream.demo.EventWriter")).findFirst().orElseThrow();
    JsonNode tables = JSON.readTree(root.resolve("docker/sharing/tables.json").toFile());
    assertThat(tables.path("tables").findValuesAsText("location"))
        .containsExactly(option(strings(writer.path("command")), "--table"));
    String location = tables.path("tables").get(0).path("location").asText();
    Mount writerVolume = mountAt(writer, location);
    Mount serverVolume = mountAt(sharing, location);
    assertThat(writerVolume.source).isEqualTo(serverVolume.source);
    assertThat(writerVolume.bind).isFalse();
  }

  @Test
  void theSparkJobReadsTheMountedProfileWithTheCopiedJar() throws IOException {
    JsonNode spark = serviceRunning("spark-submit");
    assertThat(spark.path("build").path("dockerfile").asText()).isNotEmpty();
    Dockerfile image = Dockerfile.read(root.resolve(spark.path("build").path("dockerfile").asText()));
    List<String> command = strings(spark.path("command"));
    String jar = option(command, "--jars");
    assertThat(image.copies.stream().filter(c -> c.source.startsWith("spark-source/v3.5/target/")).map(c -> c.target))
        .containsExactly(jar);
    assertThat(image.from).allMatch(from -> from.startsWith("apache/spark:3.5."));

    int script = command.indexOf(jar) + 1;
    assertThat(command.get(script)).endsWith(".py");
    Path job = root.resolve(mountSource(spark, command.get(script)));
    String tablePath = command.get(script + 1);
    assertThat(tablePath).contains("#");
    String profile = tablePath.substring(0, tablePath.indexOf('#'));
    assertThat(mountSource(spark, profile)).isEqualTo("docker/demo.share");
    assertThat(sharedTables()).contains(tablePath.substring(tablePath.indexOf('#') + 1));
    Mount checkpoints = mountAt(spark, command.get(script + 2));
    assertThat(checkpoints.bind).as("checkpoints in a volume").isFalse();

    String code = read(job);
    assertThat(code).contains("format(\"deltaSharing\")", "option(\"startingVersion\"",
        "option(\"skipChangeCommits\", \"true\")", "col(\"event_type\") == \"purchase\"", ".groupBy(\"user_id\")",
        "withWatermark(\"event_time\"", "window(col(\"event_time\")", "format(\"console\")", "checkpointLocation",
        "sys.argv[1]", "sys.argv[2]");
  }

  @Test
  void everyVariableIsDefinedAndTheVersionIsTheProjects() throws IOException {
    String text = read(root.resolve("docker-compose.yml"));
    Map<String, String> dotEnv = dotEnv();
    Matcher m = COMPOSE_VARIABLE.matcher(text);
    int variables = 0;
    while (m.find()) {
      variables++;
      assertThat(m.group(2) != null || dotEnv.containsKey(m.group(1)))
          .as("%s has a default or is in .env", m.group()).isTrue();
      if (m.group(1).equals("SHARESTREAM_VERSION")) {
        assertThat(m.group(3)).as("default of %s", m.group()).isEqualTo(version);
      }
    }
    assertThat(variables).isPositive();
    assertThat(text.replace("$$", "").replaceAll("\\$\\{[^}]*}", ""))
        .as("every other $ in docker-compose.yml").doesNotContain("$");
    for (Path dockerfile : dockerfiles()) {
      Dockerfile d = Dockerfile.read(dockerfile);
      assertThat(d.args.getOrDefault("SHARESTREAM_VERSION", version)).as("ARG default of %s", dockerfile)
          .isEqualTo(version);
      for (Dockerfile.Copy c : d.copies) {
        d.substitute(c.source, d.args); // fails on an undeclared variable
      }
    }
  }

  @Test
  void portsArePublishedOnLoopbackOnly() {
    int ports = 0;
    for (Map.Entry<String, JsonNode> e : services.entrySet()) {
      assertThat(e.getValue().path("network_mode").asText(""))
          .as("network_mode of %s", e.getKey()).isNotEqualTo("host");
      for (JsonNode p : e.getValue().path("ports")) {
        ports++;
        if (p.isObject()) {
          assertThat(p.path("host_ip").asText()).as("ports of %s", e.getKey()).isEqualTo("127.0.0.1");
        } else {
          assertThat(p.asText()).as("ports of %s", e.getKey()).matches("127\\.0\\.0\\.1:\\d+:\\d+(/tcp)?");
        }
      }
    }
    assertThat(ports).isGreaterThanOrEqualTo(4);
  }

  @Test
  void servicesWaitForHealthyServicesThatHaveAHealthcheck() {
    for (Map.Entry<String, JsonNode> e : services.entrySet()) {
      JsonNode dependsOn = e.getValue().path("depends_on");
      dependsOn.properties().forEach(d -> {
        assertThat(services).as("%s depends on %s", e.getKey(), d.getKey()).containsKey(d.getKey());
        String condition = d.getValue().path("condition").asText();
        assertThat(condition).as("%s waits for %s", e.getKey(), d.getKey())
            .isIn("service_healthy", "service_completed_successfully");
        if (condition.equals("service_healthy")) {
          assertThat(strings(services.get(d.getKey()).path("healthcheck").path("test")))
              .as("healthcheck of %s", d.getKey()).isNotEmpty();
        }
      });
      for (JsonNode d : dependsOn.isArray() ? dependsOn : JSON.createArrayNode()) {
        fail("%s depends on %s without a condition", e.getKey(), d.asText());
      }
    }
    assertThat(strings(serviceRunning("curl").path("depends_on").fieldNames()))
        .as("the connector is deployed once the worker and the server are up").contains("connect", "sharing");
  }

  @Test
  void everyUrlNamesAComposeServiceOrLoopback() throws IOException {
    Pattern url = Pattern.compile("https?://([A-Za-z0-9._-]+)");
    List<Path> files = new ArrayList<>(List.of(root.resolve("docker-compose.yml"), root.resolve(".dockerignore")));
    try (Stream<Path> docker = Files.walk(root.resolve("docker"))) {
      docker.filter(Files::isRegularFile).forEach(files::add);
    }
    int urls = 0;
    for (Path f : files) {
      Matcher m = url.matcher(read(f));
      while (m.find()) {
        urls++;
        assertThat(services.containsKey(m.group(1)) || LOOPBACK_HOSTS.contains(m.group(1)))
            .as("%s in %s names a compose service or loopback", m.group(), root.relativize(f)).isTrue();
      }
    }
    assertThat(urls).isGreaterThanOrEqualTo(5);
  }

  @Test
  void theGuideNamesTheTopicAndTheSubjectsTheConnectorWrites() throws IOException {
    JsonNode config = JSON.readTree(root.resolve("docker/connect/delta-sharing-source-avro.json").toFile());
    String topic = config.path("topic.prefix").asText() + config.path("tables").asText();
    String guide = read(root.resolve("docs/compose.md"));
    assertThat(guide).contains(topic, topic + "-value", topic + "-key", "mvn -B package -DskipTests",
        "docker compose up", "docker compose down -v");
  }

  @Test
  void dockerComposeAcceptsTheFile() throws Exception {
    Assumptions.assumeTrue(onPath("docker"), "no docker on the PATH: `docker compose config -q` not run");
    Assumptions.assumeTrue(run("docker", "compose", "version").exit == 0,
        "docker has no compose plugin here: `docker compose config -q` not run");
    Run config = run("docker", "compose", "-f", "docker-compose.yml", "config", "-q");
    assertThat(config.exit).as(config.output).isZero();
  }

  private static final class Run {
    final int exit;
    final String output;

    Run(int exit, String output) {
      this.exit = exit;
      this.output = output;
    }
  }

  private static Run run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ends", List.of(command)).isTrue();
    return new Run(p.exitValue(), out);
  }

  // --- the files

  /** When built, the output is what the images need; before packaging only its name is checked (above). */
  private static void checkBuildOutput(String path) throws IOException {
    Path file = root.resolve(path);
    if (!Files.exists(file)) {
      return;
    }
    switch (buildOutputs.get(path)) {
      case "plugin directory": {
        Path plugin = file.resolve(file.getFileName());
        assertThat(plugin.resolve("manifest.json")).isRegularFile();
        assertThat(plugin.resolve("lib").resolve("sharestream-kafka-connect-" + version + ".jar")).isRegularFile();
        break;
      }
      case "Spark 3.5 jar":
        assertThat(entries(file)).contains("META-INF/services/org.apache.spark.sql.sources.DataSourceRegister");
        break;
      case "demo runnable jar":
        assertThat(entries(file)).contains("io/sharestream/testkit/server/ServerMain.class",
            "io/sharestream/demo/EventWriter.class");
        break;
      default:
        fail("unknown output " + path);
    }
  }

  private static Set<String> entries(Path jar) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.stream().map(java.util.zip.ZipEntry::getName).collect(Collectors.toSet());
    }
  }

  private static Set<String> sharedTables() throws IOException {
    JsonNode tables = JSON.readTree(root.resolve("docker/sharing/tables.json").toFile());
    return new LinkedHashSet<>(tables.path("tables").findValuesAsText("name"));
  }

  private static List<Path> dockerfiles() throws IOException {
    try (Stream<Path> files = Files.walk(root.resolve("docker"))) {
      List<Path> out = files.filter(f -> f.getFileName().toString().equals("Dockerfile")).sorted()
          .collect(Collectors.toList());
      assertThat(out).hasSize(3);
      return out;
    }
  }

  private static Map<String, String> dotEnv() throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Path file = root.resolve(".env");
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file)) {
        if (line.contains("=") && !line.startsWith("#")) {
          out.put(line.substring(0, line.indexOf('=')).trim(), line.substring(line.indexOf('=') + 1));
        }
      }
    }
    return out;
  }

  /** Compose's interpolation, defaults only (what the file does in a clean environment). */
  private static String interpolate(String text) throws IOException {
    Map<String, String> dotEnv = dotEnv();
    Matcher m = COMPOSE_VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = dotEnv.containsKey(m.group(1)) ? dotEnv.get(m.group(1)) : m.group(3);
      m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
    }
    return m.appendTail(out).toString();
  }

  // --- compose services

  private static JsonNode serviceRunning(String what) {
    List<JsonNode> found = services.values().stream()
        .filter(s -> s.path("image").asText().contains(what) || strings(s.path("command")).stream()
            .anyMatch(c -> c.contains(what)))
        .collect(Collectors.toList());
    assertThat(found).as("one service running %s", what).hasSize(1);
    return found.get(0);
  }

  private static String env(JsonNode service, String name) {
    JsonNode env = service.path("environment");
    assertThat(env.isObject()).as("environment as a map").isTrue();
    assertThat(env.has(name)).as("environment has %s", name).isTrue();
    return env.get(name).asText();
  }

  private static String option(List<String> command, String name) {
    int i = command.indexOf(name);
    assertThat(i).as("%s in %s", name, command).isNotNegative().isLessThan(command.size() - 1);
    return command.get(i + 1);
  }

  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> out.add(n.asText()));
    } else if (node.isTextual()) {
      out.addAll(List.of(node.asText().trim().split("\\s+")));
    }
    return out;
  }

  private static List<String> strings(java.util.Iterator<String> names) {
    List<String> out = new ArrayList<>();
    names.forEachRemaining(out::add);
    return out;
  }

  /** A volume entry: host path (relative to the repository root) or volume name, and where it is mounted. */
  private static final class Mount {
    final String source;
    final String target;
    final boolean bind;

    Mount(String source, String target) {
      this.bind = source.startsWith(".") || source.startsWith("/") || source.startsWith("~");
      this.source = bind ? root.relativize(root.resolve(source).normalize()).toString().replace('\\', '/') : source;
      this.target = target;
    }
  }

  private static List<Mount> mounts(JsonNode service) {
    List<Mount> out = new ArrayList<>();
    for (JsonNode v : service.path("volumes")) {
      if (v.isObject()) {
        out.add(new Mount(v.path("source").asText(), v.path("target").asText()));
      } else {
        String[] parts = v.asText().split(":");
        assertThat(parts.length).as("volume %s", v.asText()).isBetween(2, 3);
        out.add(new Mount(parts[0], parts[1]));
      }
    }
    return out;
  }

  /** The repository file mounted exactly at {@code target}. */
  private static String mountSource(JsonNode service, String target) {
    List<Mount> found = mounts(service).stream().filter(m -> m.target.equals(target)).collect(Collectors.toList());
    assertThat(found).as("a mount at %s", target).hasSize(1);
    assertThat(found.get(0).bind).as("%s is a file of the repository", target).isTrue();
    assertThat(root.resolve(found.get(0).source)).isRegularFile();
    return found.get(0).source;
  }

  /** The mount holding {@code path} (at it or above it). */
  private static Mount mountAt(JsonNode service, String path) {
    return mounts(service).stream().filter(m -> Path.of(path).startsWith(Path.of(m.target))).findFirst()
        .orElseThrow(() -> new AssertionError("nothing mounted at or above " + path));
  }

  // --- poms

  private static Element pom(String path) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(root.resolve(path).toFile()).getDocumentElement();
  }

  /** A direct child's text (the project's own version, artifactId, ...). */
  private static String child(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && n.getNodeName().equals(name)) {
        return n.getTextContent().trim();
      }
    }
    throw new AssertionError("no <" + name + "> in " + e.getNodeName());
  }

  private static String property(Element project, String name) {
    for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element && n.getNodeName().equals("properties")) {
        return child((Element) n, name);
      }
    }
    throw new AssertionError("no <properties>");
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file);
  }

  private static boolean onPath(String command) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
        return true;
      }
    }
    return false;
  }

  /** The Dockerfile instructions this demo uses: FROM, ARG, COPY (shell form, flags skipped). */
  private static final class Dockerfile {
    final List<String> from = new ArrayList<>();
    final Map<String, String> args = new LinkedHashMap<>();
    final List<Copy> copies = new ArrayList<>();
    final Path file;

    static final class Copy {
      final String source;
      final String target;

      Copy(String source, String target) {
        this.source = source;
        this.target = target;
      }
    }

    private Dockerfile(Path file) {
      this.file = file;
    }

    static Dockerfile read(Path file) throws IOException {
      Dockerfile d = new Dockerfile(file);
      String text = Files.readString(file).replaceAll("\\\\\\r?\\n", " ");
      for (String line : text.split("\\r?\\n")) {
        String l = line.trim();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        String[] words = l.split("\\s+");
        List<String> operands = new ArrayList<>();
        for (int i = 1; i < words.length; i++) {
          if (!words[i].startsWith("--")) {
            operands.add(words[i]);
          }
        }
        switch (words[0].toUpperCase()) {
          case "FROM":
            d.from.add(operands.get(0));
            break;
          case "ARG":
            String[] arg = operands.get(0).split("=", 2);
            d.args.put(arg[0], arg.length > 1 ? arg[1] : null);
            break;
          case "COPY":
          case "ADD":
            assertThat(words[0]).as("%s: COPY, not ADD", file).isEqualToIgnoringCase("COPY");
            assertThat(operands).as("%s: COPY with one source", file).hasSize(2);
            d.copies.add(new Copy(operands.get(0), operands.get(1)));
            break;
          default:
        }
      }
      return d;
    }

    /** {@code ${NAME}} replaced by the build's arguments; an undeclared or unset one fails. */
    String substitute(String text, Map<String, String> values) {
      Matcher m = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)}?").matcher(text);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String value = values.get(m.group(1));
        assertThat(value).as("%s: %s is a declared ARG with a value", file, m.group()).isNotNull();
        m.appendReplacement(out, Matcher.quoteReplacement(value));
      }
      return m.appendTail(out).toString();
    }
  }

  /** .dockerignore: patterns in order, the last one matching a path or one of its parents decides. */
  private static final class DockerIgnore {
    final List<PathMatcher> matchers = new ArrayList<>();
    final List<Boolean> negated = new ArrayList<>();

    static DockerIgnore read(Path file) throws IOException {
      DockerIgnore d = new DockerIgnore();
      for (String line : Files.readAllLines(file)) {
        String l = line.trim();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        boolean not = l.startsWith("!");
        String pattern = (not ? l.substring(1) : l).replaceAll("^/+", "").replaceAll("/+$", "");
        d.matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
        d.negated.add(not);
      }
      return d;
    }

    boolean excludes(String relative) {
      boolean excluded = false;
      Path p = Path.of(relative);
      for (int i = 0; i < matchers.size(); i++) {
        for (int n = 1; n <= p.getNameCount(); n++) {
          if (matchers.get(i).matches(p.subpath(0, n))) {
            excluded = !negated.get(i);
            break;
          }
        }
      }
      return excluded;
    }
  }
}
