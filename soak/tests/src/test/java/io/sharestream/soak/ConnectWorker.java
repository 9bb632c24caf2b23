package io.sharestream.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A distributed Connect worker in a process of its own, run from one Kafka line's jars (a classpath file its module
 * wrote), with the connector loaded from the plugin zip as a user installs it. Connectors are deployed and read over
 * its REST API.
 */
final class ConnectWorker implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String CONNECTOR_CLASS = "io.sharestream.kafka.DeltaSharingSourceConnector";

  private final HttpClient http = HttpClient.newHttpClient();
  private final JavaProcess process;
  private final String rest;

  /**
   * A worker of group {@code group} on {@code bootstrap}, from the Kafka line whose classpath file the system
   * property {@code soak.worker.<line>} names, on {@code jdk}; {@code dir} holds its config, plugin and logs.
   */
  ConnectWorker(String line, Jdk jdk, String bootstrap, String group, boolean exactlyOnce, Path dir)
      throws IOException {
    Path classpathFile = Path.of(System.getProperty("soak.worker." + line));
    String classpath = Files.readString(classpathFile).trim();
    int port = freePort();
    this.rest = "http://127.0.0.1:" + port;
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("group.id", group);
    p.put("config.storage.topic", group + "-configs");
    p.put("offset.storage.topic", group + "-offsets");
    p.put("status.storage.topic", group + "-status");
    p.put("config.storage.replication.factor", "1");
    p.put("offset.storage.replication.factor", "1");
    p.put("status.storage.replication.factor", "1");
    p.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    p.put("key.converter.schemas.enable", "false");
    p.put("value.converter.schemas.enable", "false");
    p.put("listeners", rest);
    p.put("rest.advertised.host.name", "127.0.0.1");
    p.put("plugin.path", unzip(Path.of(System.getProperty("soak.plugin.zip")), dir.resolve("plugins")).toString());
    p.put("plugin.discovery", "service_load"); // the plugin's ServiceLoader manifest: no reflective scan of its jars
    p.put("offset.flush.interval.ms", "500");
    // a restarted worker is a new member: give its predecessor's tasks back at once, not after five minutes
    p.put("scheduled.rebalance.max.delay.ms", "1000");
    if (exactlyOnce) {
      p.put("exactly.once.source.support", "enabled");
    }
    Path config = dir.resolve("worker.properties");
    try (var out = Files.newOutputStream(config)) {
      p.store(out, "Connect " + line + " worker for the soak");
    }
    this.process = new JavaProcess(jdk, classpath, List.of("-Xmx512m"),
        "org.apache.kafka.connect.cli.ConnectDistributed", List.of(config.toString()), dir.resolve("worker"));
  }

  /**
   * {@code n} workers of group {@code group} on {@code bootstrap} from Kafka 4.1's jars on the first Java installed,
   * in {@code dir/worker<i>}, started at once.
   */
  static List<ConnectWorker> startGroup(int n, String bootstrap, String group, boolean exactlyOnce, Path dir)
      throws IOException {
    List<ConnectWorker> workers = new java.util.ArrayList<>();
    Jdk jdk = Jdk.installed().get(0);
    for (int i = 0; i < n; i++) {
      workers.add(new ConnectWorker("4.1", jdk, bootstrap, group, exactlyOnce, dir.resolve("worker" + i)));
    }
    java.util.concurrent.CompletableFuture.allOf(workers.stream().map(w ->
        java.util.concurrent.CompletableFuture.runAsync(() -> {
          try {
            w.start();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        })).toArray(java.util.concurrent.CompletableFuture[]::new)).join();
    return workers;
  }

  /** Starts the worker and waits until its REST API answers. */
  void start() throws InterruptedException {
    process.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.alive()) {
        throw new AssertionError("the worker exited with " + process.exitCode() + ":\n" + process.tail(40));
      }
      try {
        if (get("/").path("version").isTextual()) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the worker's REST API did not come up:\n" + process.tail(40));
  }

  /** SIGKILL. */
  void kill() throws InterruptedException {
    process.kill();
  }

  JavaProcess process() {
    return process;
  }

  /** The id the cluster knows this worker by in connector status ({@code worker_id}). */
  String workerId() {
    return rest.substring("http://".length());
  }

  /** The worker's Kafka version, from {@code GET /}. */
  String version() throws IOException, InterruptedException {
    return get("/").path("version").asText();
  }

  /** {@code PUT /connectors/<name>/config}. */
  JsonNode deploy(String name, Map<String, String> config) throws IOException, InterruptedException {
    return send("PUT", "/connectors/" + name + "/config", JSON.writeValueAsString(config));
  }

  /** Waits until connector {@code name} and {@code tasks} tasks run. */
  void awaitRunning(String name, int tasks, Duration timeout) throws InterruptedException {
    awaitRunning(name, tasks, timeout, null);
  }

  /**
   * Waits until connector {@code name} and {@code tasks} tasks run, none on worker {@code notOn} (a killed worker's
   * tasks read RUNNING until a rebalance gives them to others); null: on any worker.
   */
  void awaitRunning(String name, int tasks, Duration timeout, String notOn) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    JsonNode status = null;
    while (System.nanoTime() < deadline) {
      try {
        status = get("/connectors/" + name + "/status");
        int running = 0;
        for (JsonNode t : status.path("tasks")) {
          running += "RUNNING".equals(t.path("state").asText()) && !t.path("worker_id").asText().equals(notOn) ? 1
              : 0;
        }
        if ("RUNNING".equals(status.path("connector").path("state").asText()) && running == tasks) {
          return;
        }
      } catch (IOException e) {
        // not there yet
      }
      Thread.sleep(250);
    }
    throw new AssertionError("connector " + name + " not running with " + tasks + " tasks: " + status);
  }

  /** {@code GET path} as JSON; an HTTP error is an IOException carrying the body. */
  JsonNode get(String path) throws IOException, InterruptedException {
    return send("GET", path, null);
  }

  private JsonNode send(String method, String path, String body) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(rest + path)).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json");
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 300) {
      throw new IOException(method + " " + path + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
  }

  @Override
  public void close() throws InterruptedException {
    process.kill();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The plugin zip unpacked into {@code into}: the worker's plugin.path. */
  static Path unzip(Path zip, Path into) {
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
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return into;
  }
}
