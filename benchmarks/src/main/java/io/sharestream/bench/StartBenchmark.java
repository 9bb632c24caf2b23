package io.sharestream.bench;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.connect.util.clusters.EmbeddedConnectCluster;

/**
 * How light the plugin is: the zip's size, and a standalone Connect worker's start to the connector's first record
 * with the plugin unpacked in its {@code plugin.path} (the worker in a JVM of its own, from one Kafka line's jars:
 * the classpath file of {@code soak/worker-4.1}). Beside the figure with Connect's default plugin discovery (which
 * scans every class of every plugin): the same with {@code plugin.discovery=service_load}, and the worker alone
 * (no plugin, no connector) to Connect's "started" line, its ceiling. Each the median of {@code -Dbench.rounds}
 * rounds (3). The CLI likewise: its jar's size, and {@code sharestream head} printing a table's first row from the
 * JVM's launch to its exit.
 *
 * <pre>
 * mvn -q -B package -DskipTests -pl benchmarks,cli,soak/worker-4.1 -am
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/classpath.txt) io.sharestream.bench.StartBenchmark
 * </pre>
 */
public final class StartBenchmark {
  private static final long GOAL_BYTES = 25L * 1024 * 1024;
  private static final Duration GOAL_FIRST_RECORD = Duration.ofSeconds(15);
  private static final String STARTED = "Kafka Connect started";

  private StartBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path zip = args.length > 0 ? Path.of(args[0])
        : jar(Path.of("kafka-connect/target"), "sharestream-kafka-connect-.*\\.zip");
    Path workerClasspath = Path.of(args.length > 1 ? args[1] : "soak/worker-4.1/target/classpath.txt");
    String classpath = Files.readString(workerClasspath).trim();
    int rounds = Integer.getInteger("bench.rounds", 3);
    Path dir = Files.createTempDirectory("sharestream-start");
    Path plugins = unzip(zip, dir.resolve("plugins"));
    System.out.printf("plugin %s: %.1f MB zipped (goal %.0f MB: %.2f of it), %.1f MB unpacked%n",
        zip.getFileName(), Files.size(zip) / 1048576.0, GOAL_BYTES / 1048576.0,
        (double) Files.size(zip) / GOAL_BYTES, bytes(plugins) / 1048576.0);

    DeltaTableWriter table = DeltaTableWriter.create(dir.resolve("t"), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG), DeltaType.field("name", DeltaType.STRING))).commit();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      rows.add(Map.of("id", i, "name", "row-" + i));
    }
    table.append(rows);
    EmbeddedConnectCluster kafka = ConnectorBenchmark.cluster(false); // its broker; the workers run apart
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "b", "t", table.dir(), true).start()) {
      String profile = server.writeProfile(dir.resolve("p.share")).toString();
      Map<String, List<Double>> seconds = new LinkedHashMap<>();
      for (int round = 0; round < rounds; round++) {
        for (String discovery : new String[] {"default", "service_load"}) {
          String prefix = "start" + round + discovery.replace("_", "") + ".";
          String topic = prefix + "s.b.t";
          try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.kafka().bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
          }
          Map<String, String> connector = ConnectorBenchmark.connector(profile, "s.b.t", prefix,
              "startingVersion", "0");
          connector.put("name", "start");
          double[] t = run(classpath, kafka, dir, plugins, discovery, connector, topic);
          seconds.computeIfAbsent(discovery + " started", k -> new ArrayList<>()).add(t[0]);
          seconds.computeIfAbsent(discovery + " first record", k -> new ArrayList<>()).add(t[1]);
        }
        double[] alone = run(classpath, kafka, dir, null, "default", null, null);
        seconds.computeIfAbsent("alone started", k -> new ArrayList<>()).add(alone[0]);
        System.out.printf("round %d: %s%n", round + 1, seconds);
      }
      Path cli = jar(Path.of("cli/target"), "sharestream-cli-.*\\.jar");
      List<Double> head = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        head.add(cliHead(cli, profile, dir));
      }
      double first = median(seconds.get("default first record"));
      double alone = median(seconds.get("alone started"));
      System.out.printf("worker start to the first record, default plugin discovery: %.1f s (goal %d s: %.2f of it); "
          + "Connect started after %.1f s%n", first, GOAL_FIRST_RECORD.getSeconds(),
          first / GOAL_FIRST_RECORD.getSeconds(), median(seconds.get("default started")));
      System.out.printf("  with plugin.discovery=service_load: %.1f s (started after %.1f s)%n",
          median(seconds.get("service_load first record")), median(seconds.get("service_load started")));
      System.out.printf("  the worker alone, no plugin: started after %.1f s; the plugin's worker to its first record "
          + "%.2f of that%n", alone, first / alone);
      System.out.printf("CLI %s: %.1f MB (goal %.0f MB: %.2f of it); `sharestream head s.b.t -n 1`, JVM start to exit: "
          + "%.1f s%n", cli.getFileName(), Files.size(cli) / 1048576.0, GOAL_BYTES / 1048576.0,
          (double) Files.size(cli) / GOAL_BYTES, median(head));
    } finally {
      kafka.stop();
    }
  }

  /** Seconds the CLI takes to print a table's first row, from its JVM's launch to its exit. */
  private static double cliHead(Path cli, String profile, Path dir) throws Exception {
    Path out = Files.createTempFile(dir, "cli", ".out");
    long start = System.nanoTime();
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        cli.toString(), "head", "s.b.t", "-n", "1", "--profile", profile).redirectErrorStream(true)
        .redirectOutput(out.toFile()).start();
    if (p.waitFor() != 0 || !Files.readString(out).contains("\"id\"")) {
      throw new IllegalStateException("the CLI failed: " + tail(out));
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * Starts a worker JVM and times (seconds from its launch) Connect's "started" line and, with a connector, the first
   * record of {@code topic}; stops the worker.
   */
  private static double[] run(String classpath, EmbeddedConnectCluster kafka, Path dir, Path plugins,
      String discovery, Map<String, String> connector, String topic) throws Exception {
    Properties worker = new Properties();
    worker.put("bootstrap.servers", kafka.kafka().bootstrapServers());
    worker.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    worker.put("offset.storage.file.filename", Files.createTempFile(dir, "offsets", ".dat").toString());
    worker.put("listeners", "http://127.0.0.1:0");
    if (plugins != null) { // an empty plugin.path would be the working directory, scanned whole
      worker.put("plugin.path", plugins.toString());
    }
    if (!discovery.equals("default")) {
      worker.put("plugin.discovery", discovery);
    }
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", classpath, "org.apache.kafka.connect.cli.ConnectStandalone", write(worker, dir)));
    if (connector != null) {
      Properties c = new Properties();
      c.putAll(connector);
      command.add(write(c, dir));
    }
    Path log = Files.createTempFile(dir, "worker", ".log");
    KafkaConsumer<byte[], byte[]> consumer = topic == null ? null : consumer(kafka, topic);
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      double started = -1;
      double firstRecord = -1;
      long deadline = start + Duration.ofMinutes(3).toNanos();
      while (System.nanoTime() < deadline && (started < 0 || (consumer != null && firstRecord < 0))) {
        if (!process.isAlive()) {
          throw new IllegalStateException("the worker ended: " + tail(log));
        }
        if (started < 0 && Files.readString(log).contains(STARTED)) {
          started = (System.nanoTime() - start) / 1e9;
        }
        if (consumer != null && firstRecord < 0 && !consumer.poll(Duration.ofMillis(50)).isEmpty()) {
          firstRecord = (System.nanoTime() - start) / 1e9;
        } else if (consumer == null) {
          Thread.sleep(50);
        }
      }
      if (started < 0 || (consumer != null && firstRecord < 0)) {
        throw new IllegalStateException("no record within 3 minutes: " + tail(log));
      }
      return new double[] {started, firstRecord};
    } finally {
      process.destroy();
      process.waitFor();
      if (consumer != null) {
        consumer.close();
      }
    }
  }

  private static KafkaConsumer<byte[], byte[]> consumer(EmbeddedConnectCluster kafka, String topic) {
    KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.kafka().bootstrapServers(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.GROUP_ID_CONFIG, "start-" + topic),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    c.subscribe(List.of(topic));
    c.poll(Duration.ofMillis(200)); // joined before the worker starts
    return c;
  }

  /** The one file of {@code dir} whose name matches {@code pattern} (a build's output). */
  private static Path jar(Path dir, String pattern) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().matches(pattern)).findFirst()
          .orElseThrow(() -> new IllegalStateException("nothing like " + pattern + " in " + dir + ": build it first"));
    }
  }

  private static Path unzip(Path zip, Path into) throws Exception {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        Path p = into.resolve(e.getName()).normalize();
        if (e.isDirectory()) {
          Files.createDirectories(p);
        } else {
          Files.createDirectories(p.getParent());
          Files.copy(in, p);
        }
      }
    }
    return into;
  }

  private static long bytes(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static String write(Properties p, Path dir) throws Exception {
    Path file = Files.createTempFile(dir, "worker", ".properties");
    try (Writer w = Files.newBufferedWriter(file)) {
      p.store(w, null);
    }
    return file.toString();
  }

  private static String tail(Path log) throws Exception {
    String text = Files.readString(log, StandardCharsets.UTF_8);
    return text.substring(Math.max(0, text.length() - 4000));
  }
}
