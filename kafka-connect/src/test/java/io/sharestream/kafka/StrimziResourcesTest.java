package io.sharestream.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBuilder;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.strimzi.api.ResourceAnnotations;
import io.strimzi.api.ResourceLabels;
import io.strimzi.api.kafka.model.common.Constants;
import io.strimzi.api.kafka.model.common.template.AdditionalVolume;
import io.strimzi.api.kafka.model.connect.KafkaConnect;
import io.strimzi.api.kafka.model.connect.KafkaConnectSpec;
import io.strimzi.api.kafka.model.connect.build.Artifact;
import io.strimzi.api.kafka.model.connect.build.DockerOutput;
import io.strimzi.api.kafka.model.connect.build.Plugin;
import io.strimzi.api.kafka.model.connect.build.ZipArtifact;
import io.strimzi.api.kafka.model.connector.AbstractConnectorSpec;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;
import org.apache.kafka.connect.runtime.distributed.DistributedConfig;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes example in {@code config/strimzi/} as Strimzi's operator takes it: both resources read into Strimzi's
 * own API model ({@code io.strimzi:api}) with no field the model does not know; the KafkaConnect builds its image from
 * the plugin zip this module packages, enables exactly-once sources with worker settings Connect knows, and mounts the
 * profile Secret where the KafkaConnector's {@code profile.path} looks; the KafkaConnector runs this connector on that
 * cluster, with settings of the connector or of Connect only, and its config (the profile served by the kit) passes the
 * connector's {@code validate()}, in its profile file form and in the commented {@code profile.json} form alike.
 *
 * <p>The model is {@code io.strimzi:api} 0.51, the newest that runs on Java 17 (1.x is Java 21 bytecode). It reads the
 * {@code kafka.strimzi.io/v1} API, the only one Strimzi 1.x serves, beside the deprecated v1beta2.
 */
class StrimziResourcesTest {
  private static final Path DIR = Path.of("..", "config", "strimzi");
  private static final Path CONNECT_YAML = DIR.resolve("kafka-connect.yaml");
  private static final Path CONNECTOR_YAML = DIR.resolve("kafka-connector.yaml");
  /** Strimzi's operator refuses additional volume mounts elsewhere ({@code TemplateUtils.ALLOWED_MOUNT_PATH}). */
  private static final String ALLOWED_MOUNT_PATH = "/mnt/";

  /**
   * Strict as {@code kubectl apply} (server-side field validation) against the v1 schema: an unknown or duplicated
   * field fails. Strimzi's and fabric8's model classes keep unknown fields in {@code additionalProperties} through a
   * {@code @JsonAnySetter}; it is taken away, so {@code FAIL_ON_UNKNOWN_PROPERTIES} applies to them. The model also
   * reads the older v1beta2 API, whose fields v1 dropped are {@code @Deprecated} in it (such as
   * {@code spec.externalConfiguration}): they are taken away too, so they fail as unknown.
   */
  static final ObjectMapper YAML = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .addModule(new SimpleModule("strict").setDeserializerModifier(new BeanDeserializerModifier() {
        @Override
        public BeanDeserializerBuilder updateBuilder(DeserializationConfig config, BeanDescription bean,
            BeanDeserializerBuilder builder) {
          builder.setAnySetter(null);
          for (BeanPropertyDefinition property : bean.findProperties()) {
            if (Stream.of(property.getGetter(), property.getSetter(), property.getField())
                .anyMatch(m -> m != null && m.getAnnotated() instanceof AnnotatedElement
                    && ((AnnotatedElement) m.getAnnotated()).isAnnotationPresent(Deprecated.class))) {
              builder.removeProperty(property.getFullName());
            }
          }
          return builder;
        }
      }))
      .build();

  @TempDir static Path tmp;
  static DeltaSharingServer server;
  /** Stands for the profile Secret's volume on a worker: the Secret's key as a file. */
  static Path mountedSecret;

  @BeforeAll
  static void serve() throws IOException {
    DeltaTableWriter orders = DeltaTableWriter.create(tmp.resolve("orders"), DeltaType.struct(
        DeltaType.field("order_id", DeltaType.LONG), DeltaType.field("amount", DeltaType.DOUBLE)))
        .changeDataFeed(true).commit();
    DeltaTableWriter customers = DeltaTableWriter.create(tmp.resolve("customers"), DeltaType.struct(
        DeltaType.field("customer_id", DeltaType.LONG))).commit();
    server = DeltaSharingServer.builder().table("demo", "sales", "orders", orders.dir(), true)
        .table("demo", "sales", "customers", customers.dir(), true).start();
    mountedSecret = Files.createDirectories(tmp.resolve("mounted-secret"));
    server.writeProfile(mountedSecret.resolve(Path.of(profilePath(connectorConfig(connector()))).getFileName()));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static KafkaConnect connect() throws IOException {
    return YAML.readValue(CONNECT_YAML.toFile(), KafkaConnect.class);
  }

  static KafkaConnector connector() throws IOException {
    return YAML.readValue(CONNECTOR_YAML.toFile(), KafkaConnector.class);
  }

  /** As Strimzi hands it on: every value as text. */
  private static Map<String, String> strings(Map<String, Object> config) {
    Map<String, String> out = new LinkedHashMap<>();
    config.forEach((k, v) -> out.put(k, String.valueOf(v)));
    return out;
  }

  static Map<String, String> connectorConfig(KafkaConnector connector) {
    return strings(connector.getSpec().getConfig());
  }

  static Map<String, String> workerConfig(KafkaConnect connect) {
    return strings(connect.getSpec().getConfig());
  }

  private static String profilePath(Map<String, String> config) {
    return config.get(DeltaSharingSourceConfig.PROFILE_PATH);
  }

  /** The plugin zip's name as this module's build makes it ({@code ${plugin.name}.zip}, passed by the pom). */
  private static String pluginZipName() {
    return System.getProperty("plugin.name", "sharestream-kafka-connect-" + Version.get()) + ".zip";
  }

  /** Mount paths of the Connect container's volumes made from a Secret, by the Secret's name. */
  private static Map<String, String> secretMounts(KafkaConnect connect) {
    Map<String, String> secretOfVolume = new HashMap<>();
    for (AdditionalVolume v : connect.getSpec().getTemplate().getPod().getVolumes()) {
      if (v.getSecret() != null) {
        secretOfVolume.put(v.getName(), v.getSecret().getSecretName());
      }
    }
    Map<String, String> out = new TreeMap<>();
    for (VolumeMount m : connect.getSpec().getTemplate().getConnectContainer().getVolumeMounts()) {
      if (secretOfVolume.containsKey(m.getName()) && m.getSubPath() == null) {
        out.put(secretOfVolume.get(m.getName()), m.getMountPath());
      }
    }
    return out;
  }

  /** Keys of the connector's config that are neither the connector's settings nor Connect's. */
  static List<String> unknownConnectorSettings(Map<String, String> config) {
    Set<String> known = new HashSet<>(DeltaSharingSourceConfig.CONFIG_DEF.names());
    known.addAll(frameworkDef().names());
    // Connect's prefixed settings: client overrides, converters' own settings, transformations and predicates
    List<String> prefixes = List.of("producer.override.", "admin.override.", "key.converter.", "value.converter.",
        "header.converter.", "transforms.", "predicates.");
    return config.keySet().stream().filter(k -> !known.contains(k) && prefixes.stream().noneMatch(k::startsWith))
        .sorted().collect(Collectors.toList());
  }

  /** A source connector's settings of Connect itself, with those of the default topic creation group. */
  private static ConfigDef frameworkDef() {
    return SourceConnectorConfig.embedDefaultGroup(SourceConnectorConfig.configDef());
  }

  /** Errors Connect's own settings would get from the worker, with what Strimzi adds (name, class, tasks.max). */
  static Map<String, List<String>> frameworkErrors(KafkaConnector connector, Map<String, String> config) {
    Map<String, String> full = new HashMap<>(config);
    full.put("name", connector.getMetadata().getName());
    full.put("connector.class", connector.getSpec().getClassName());
    full.put("tasks.max", String.valueOf(connector.getSpec().getTasksMax()));
    Map<String, List<String>> out = new TreeMap<>();
    for (ConfigValue v : frameworkDef().validate(full)) {
      if (!v.errorMessages().isEmpty()) {
        out.put(v.name(), v.errorMessages());
      }
    }
    return out;
  }

  /**
   * The worker config Strimzi writes: the resource's fields, its defaults, and spec.config. Connect instantiates the
   * config providers it names, and Kafka's file and directory providers refuse allowed paths that do not exist: here
   * the directory standing for the mounted Secret is allowed in their place.
   */
  static DistributedConfig worker(KafkaConnectSpec spec, Map<String, String> config) {
    Map<String, String> props = new HashMap<>(config);
    props.replaceAll((k, v) -> k.startsWith("config.providers.") && k.endsWith(".param.allowed.paths")
        ? mountedSecret.toString() : v);
    props.put("bootstrap.servers", spec.getBootstrapServers());
    props.put("group.id", spec.getGroupId());
    props.put("config.storage.topic", spec.getConfigStorageTopic());
    props.put("offset.storage.topic", spec.getOffsetStorageTopic());
    props.put("status.storage.topic", spec.getStatusStorageTopic());
    props.putIfAbsent("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    props.putIfAbsent("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    return new DistributedConfig(props);
  }

  /** Keys of spec.config that are no worker setting (nor one of the prefixed ones a worker passes on). */
  static List<String> unknownWorkerSettings(KafkaConnectSpec spec, Map<String, String> config) {
    Set<String> known = worker(spec, config).values().keySet();
    List<String> prefixes = List.of("config.providers.", "producer.", "consumer.", "admin.", "key.converter.",
        "value.converter.", "header.converter.");
    return config.keySet().stream().filter(k -> !known.contains(k) && prefixes.stream().noneMatch(k::startsWith))
        .sorted().collect(Collectors.toList());
  }

  /**
   * spec.config keys Strimzi ignores (with a warning) because it sets them itself or forbids them: the model's list,
   * and the worker settings v1 has fields for (Strimzi 1.x adds those to the list; 0.51 still takes them in v1beta2).
   */
  static List<String> forbiddenByStrimzi(Map<String, String> config) {
    List<String> prefixes = new ArrayList<>(split(KafkaConnectSpec.FORBIDDEN_PREFIXES));
    prefixes.addAll(List.of("group.id", "config.storage.topic", "offset.storage.topic", "status.storage.topic"));
    List<String> exceptions = split(KafkaConnectSpec.FORBIDDEN_PREFIX_EXCEPTIONS);
    return config.keySet().stream().filter(k -> !exceptions.contains(k) && prefixes.stream().anyMatch(k::startsWith))
        .sorted().collect(Collectors.toList());
  }

  private static List<String> split(String list) {
    return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
  }

  private static Map<String, List<String>> validationErrors(Map<String, String> config) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (ConfigValue v : new DeltaSharingSourceConnector().validate(config).configValues()) {
      if (!v.errorMessages().isEmpty()) {
        out.put(v.name(), v.errorMessages());
      }
    }
    return out;
  }

  @Test
  void bothResourcesAreStrimzisV1ModelWithEveryFieldItRequires() throws IOException {
    KafkaConnect connect = connect();
    KafkaConnector connector = connector();
    // v1: the only API Strimzi 1.x serves, and served since 0.49 (beside the deprecated v1beta2)
    assertThat(KafkaConnect.VERSIONS).contains(Constants.V1);
    assertThat(KafkaConnector.VERSIONS).contains(Constants.V1);
    // as written (the model's own apiVersion is the version it stores, v1beta2 in 0.51)
    JsonNode connectTree = YAML.readTree(CONNECT_YAML.toFile());
    JsonNode connectorTree = YAML.readTree(CONNECTOR_YAML.toFile());
    assertThat(connectTree.path("apiVersion").asText()).isEqualTo(KafkaConnect.RESOURCE_GROUP + "/" + Constants.V1);
    assertThat(connectTree.path("kind").asText()).isEqualTo(KafkaConnect.RESOURCE_KIND);
    assertThat(connectorTree.path("apiVersion").asText())
        .isEqualTo(KafkaConnector.RESOURCE_GROUP + "/" + Constants.V1);
    assertThat(connectorTree.path("kind").asText()).isEqualTo(KafkaConnector.RESOURCE_KIND);
    // what the v1 schema requires of a KafkaConnect (the worker settings Strimzi writes from them)
    KafkaConnectSpec spec = connect.getSpec();
    assertThat(Arrays.asList(spec.getBootstrapServers(), spec.getGroupId(), spec.getConfigStorageTopic(),
        spec.getOffsetStorageTopic(), spec.getStatusStorageTopic())).allSatisfy(v -> assertThat(v).isNotBlank());
    assertThat(connect.getMetadata().getName()).isNotBlank();
    assertThat(connector.getMetadata().getName()).isNotBlank();
  }

  @Test
  void theKafkaConnectBuildsItsImageFromThePluginZipThisModulePackages() throws IOException {
    KafkaConnect connect = connect();
    assertThat(connect.getMetadata().getAnnotations())
        .containsEntry(ResourceAnnotations.STRIMZI_IO_USE_CONNECTOR_RESOURCES, "true");
    assertThat(connect.getSpec().getBuild().getOutput()).isInstanceOfSatisfying(DockerOutput.class, out -> {
      assertThat(out.getImage()).isNotBlank();
      assertThat(out.getPushSecret()).isNotBlank();
    });
    List<Plugin> plugins = connect.getSpec().getBuild().getPlugins();
    assertThat(plugins).hasSize(1);
    List<Artifact> artifacts = plugins.get(0).getArtifacts();
    assertThat(artifacts).hasSize(1);
    assertThat(artifacts.get(0)).isInstanceOfSatisfying(ZipArtifact.class, zip -> {
      URI url = URI.create(zip.getUrl());
      assertThat(url.getScheme()).isEqualTo("https");
      assertThat(Path.of(url.getPath()).getFileName().toString()).isEqualTo(pluginZipName());
      if (zip.getSha512sum() != null) {
        assertThat(zip.getSha512sum()).matches("[0-9a-f]{128}");
      }
    });
  }

  @Test
  void theWorkersEnableExactlyOnceSourcesWithSettingsConnectKnowsAndStrimziPassesOn() throws IOException {
    KafkaConnect connect = connect();
    Map<String, String> config = workerConfig(connect);
    assertThat(config).containsEntry(DistributedConfig.EXACTLY_ONCE_SOURCE_SUPPORT_CONFIG, "enabled");
    assertThat(worker(connect.getSpec(), config).exactlyOnceSourceEnabled()).isTrue();
    assertThat(forbiddenByStrimzi(config)).isEmpty();
    assertThat(unknownWorkerSettings(connect.getSpec(), config)).isEmpty();
  }

  @Test
  void theProfileSecretIsMountedWhereTheConnectorReadsItsProfile() throws IOException {
    KafkaConnect connect = connect();
    assertThat(connect.getSpec().getTemplate().getConnectContainer().getVolumeMounts())
        .allSatisfy(m -> assertThat(m.getMountPath()).startsWith(ALLOWED_MOUNT_PATH));
    Map<String, String> mounts = secretMounts(connect);
    Path profile = Path.of(profilePath(connectorConfig(connector())));
    assertThat(profile.isAbsolute()).isTrue();
    assertThat(mounts.values()).as("mount paths of whole Secrets").contains(profile.getParent().toString());
    // the kubectl command the file's header gives makes that Secret, with the profile under that file name
    Matcher kubectl = Pattern.compile("kubectl create secret generic (\\S+) --from-file=([^=\\s]+)=")
        .matcher(Files.readString(CONNECT_YAML));
    assertThat(kubectl.find()).isTrue();
    assertThat(mounts).containsEntry(kubectl.group(1), profile.getParent().toString());
    assertThat(kubectl.group(2)).isEqualTo(profile.getFileName().toString());
  }

  @Test
  void theKafkaConnectorRunsThisConnectorOnThatClusterWithOnlyItsOwnAndConnectsSettings() throws IOException {
    KafkaConnect connect = connect();
    KafkaConnector connector = connector();
    assertThat(connector.getMetadata().getLabels())
        .containsEntry(ResourceLabels.STRIMZI_CLUSTER_LABEL, connect.getMetadata().getName());
    assertThat(connector.getSpec().getClassName()).isEqualTo(DeltaSharingSourceConnector.class.getName());
    assertThat(connector.getSpec().getTasksMax()).isPositive();
    Map<String, String> config = connectorConfig(connector);
    assertThat(config.keySet()).doesNotContainAnyElementsOf(split(AbstractConnectorSpec.FORBIDDEN_PARAMETERS));
    assertThat(unknownConnectorSettings(config)).isEmpty();
    assertThat(frameworkErrors(connector, config)).isEmpty();
    assertThat(config).containsEntry(SourceConnectorConfig.EXACTLY_ONCE_SUPPORT_CONFIG, "required");
    assertThat(new DeltaSharingSourceConnector().exactlyOnceSupport(config)).isEqualTo(ExactlyOnceSupport.SUPPORTED);
  }

  @Test
  void theConnectorConfigValidatesWithTheProfileWhereItsPathSays() throws IOException {
    Map<String, String> config = connectorConfig(connector());
    config.put(DeltaSharingSourceConfig.PROFILE_PATH,
        mountedSecret.resolve(Path.of(profilePath(config)).getFileName()).toString());
    assertThat(validationErrors(config)).isEmpty();
  }

  @Test
  void theCommentedProfileJsonFormResolvesThroughTheWorkersConfigProviderAndValidates() throws IOException {
    Matcher line = Pattern.compile("#\\s*profile\\.json:\\s*\"(\\$\\{(\\w+):([^:}]+):([^}]+)})\"")
        .matcher(Files.readString(CONNECTOR_YAML));
    assertThat(line.find()).as("the commented profile.json example").isTrue();
    String reference = line.group(1);
    String alias = line.group(2);
    String directory = line.group(3);
    String key = line.group(4);
    // the workers have that provider, reading that directory, where the profile Secret is mounted
    KafkaConnect connect = connect();
    Map<String, String> workerConfig = workerConfig(connect);
    assertThat(worker(connect.getSpec(), workerConfig).getList("config.providers")).contains(alias);
    String provider = "config.providers." + alias;
    assertThat(workerConfig).containsEntry(provider + ".class", DirectoryConfigProvider.class.getName());
    assertThat(split(workerConfig.getOrDefault(provider + ".param." + DirectoryConfigProvider.ALLOWED_PATHS_CONFIG,
        directory))).contains(directory);
    assertThat(secretMounts(connect)).containsValue(directory);
    Map<String, String> config = connectorConfig(connector());
    assertThat(key).isEqualTo(Path.of(profilePath(config)).getFileName().toString());

    // resolved as a worker does, from the mounted Secret, in place of profile.path
    DirectoryConfigProvider directoryProvider = new DirectoryConfigProvider();
    directoryProvider.configure(Map.of(DirectoryConfigProvider.ALLOWED_PATHS_CONFIG, mountedSecret.toString()));
    Map<String, ConfigProvider> providers = Map.of(alias, directoryProvider);
    String json = new ConfigTransformer(providers).transform(Map.of(DeltaSharingSourceConfig.PROFILE_JSON,
        reference.replace(directory, mountedSecret.toString()))).data().get(DeltaSharingSourceConfig.PROFILE_JSON);
    assertThat(json).isEqualTo(server.profileJson());
    config.remove(DeltaSharingSourceConfig.PROFILE_PATH);
    config.put(DeltaSharingSourceConfig.PROFILE_JSON, json);
    assertThat(validationErrors(config)).isEmpty();
  }

  @Test
  void aMisspeltFieldOrSettingIsCaught() throws IOException {
    String connectYaml = Files.readString(CONNECT_YAML);
    String connectorYaml = Files.readString(CONNECTOR_YAML);
    // fields of Strimzi's model and of fabric8's Kubernetes model
    for (String[] typo : new String[][] {{"pushSecret:", "pushSecrets:"}, {"volumeMounts:", "volumeMount:"},
        {"readOnly:", "readonly:"}, {"groupId:", "groupID:"}}) {
      assertThat(connectYaml).contains(typo[0]);
      assertThatThrownBy(() -> YAML.readValue(connectYaml.replace(typo[0], typo[1]), KafkaConnect.class))
          .as(typo[1]).isInstanceOf(UnrecognizedPropertyException.class);
    }
    assertThatThrownBy(() -> YAML.readValue(connectYaml.replace("  template:\n", "  externalConfiguration:\n"
        + "    volumes: []\n  template:\n"), KafkaConnect.class)).as("v1beta2's deprecated externalConfiguration")
        .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("externalConfiguration");
    assertThatThrownBy(() -> YAML.readValue(connectorYaml.replace("tasksMax:", "taskMax:"), KafkaConnector.class))
        .isInstanceOf(UnrecognizedPropertyException.class);
    assertThatThrownBy(() -> YAML.readValue(connectorYaml.replace("tasksMax: 2", "tasksMax: 2\n  tasksMax: 3"),
        KafkaConnector.class)).as("a duplicated field").hasMessageContaining("Duplicate field 'tasksMax'");

    // settings: the connector's, Connect's on a connector and on a worker
    KafkaConnector connector = connector();
    Map<String, String> config = connectorConfig(connector);
    Map<String, String> misspelt = new LinkedHashMap<>(config);
    misspelt.put("startingVerison", misspelt.remove("startingVersion"));
    misspelt.put("topic.creation.default.partition", misspelt.remove("topic.creation.default.partitions"));
    assertThat(unknownConnectorSettings(misspelt)).containsExactly("startingVerison",
        "topic.creation.default.partition");
    Map<String, String> badValue = new LinkedHashMap<>(config);
    badValue.put(SourceConnectorConfig.EXACTLY_ONCE_SUPPORT_CONFIG, "require");
    assertThat(frameworkErrors(connector, badValue))
        .containsOnlyKeys(SourceConnectorConfig.EXACTLY_ONCE_SUPPORT_CONFIG);

    KafkaConnect connect = connect();
    Map<String, String> worker = new LinkedHashMap<>(workerConfig(connect));
    worker.put("exactly.once.source.suport", worker.remove(DistributedConfig.EXACTLY_ONCE_SOURCE_SUPPORT_CONFIG));
    assertThat(unknownWorkerSettings(connect.getSpec(), worker)).containsExactly("exactly.once.source.suport");
    worker.put("group.id", "set-by-strimzi");
    worker.put("ssl.keystore.location", "/mnt/keystore.p12");
    worker.put("ssl.protocol", "TLSv1.3"); // one of the exceptions Strimzi passes on
    assertThat(forbiddenByStrimzi(worker)).containsExactly("group.id", "ssl.keystore.location");
  }
}
