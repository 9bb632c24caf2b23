package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar resolved by its coordinates, as Spark users add it: {@code spark-submit --packages
 * io.sharestream:sharestream-spark-<line>_<scala>:<version>} against a Maven repository holding what {@code mvn
 * deploy} publishes (the shaded jar and its flattened POM, no parent), the only repository Spark's Ivy
 * knows here ({@code spark.jars.ivySettings}), in a driver JVM of Spark's jars alone; the job reads the table and
 * streams it to files with {@code AvailableNow}, twice around a new commit, the second query resuming from the
 * first one's checkpoint.
 */
class PackagesIT {
  private static final String MARKER = "PACKAGES ";

  @TempDir Path tmp;

  @Test
  void sparkSubmitPackagesResolvesThePublishedJarAndStreamsATable() throws Exception {
    Path repo = publish(tmp.resolve("repo"));
    DeltaType.StructType schema = DeltaType.struct(DeltaType.field("id", DeltaType.LONG),
        DeltaType.field("name", DeltaType.STRING));
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), schema).commit();
    table.append(rows(0, 5));
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      String path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
      Submitted job = submit(repo, path);
      Map<String, String> first = job.report(1);
      assertThat(first.get("batch")).isEqualTo("5");
      assertThat(first.get("source")).as("the source's classes come from the jar Ivy resolved")
          .contains(System.getProperty("packages.artifactId") + "-" + System.getProperty("packages.version") + ".jar")
          .contains(tmp.resolve("ivy").toString());
      assertThat(ids()).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
      table.append(rows(5, 8));
      job.proceed();
      Map<String, String> second = job.report(2);
      assertThat(second.get("batch")).isEqualTo("8");
      assertThat(ids()).as("the query started again from its checkpoint streams only the new commit")
          .containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
      job.finish();
    }
  }

  /**
   * Lays out a Maven repository as {@code mvn deploy} fills it: the jar and its published POM, which names no parent
   * (none is published beside it here, so resolving fails if it needs one).
   */
  private static Path publish(Path repo) throws Exception {
    String artifactId = System.getProperty("packages.artifactId");
    String version = System.getProperty("packages.version");
    Path dir = repo.resolve("io/sharestream").resolve(artifactId).resolve(version);
    Files.createDirectories(dir);
    Files.copy(Path.of(System.getProperty("packages.pom")), dir.resolve(artifactId + "-" + version + ".pom"));
    Files.copy(Path.of(System.getProperty("packages.jar")), dir.resolve(artifactId + "-" + version + ".jar"));
    return repo;
  }

  /** Runs {@link Job} through {@code SparkSubmit} in a JVM of its own, the jar only in {@code --packages}. */
  private Submitted submit(Path repo, String table) throws Exception {
    Path settings = tmp.resolve("ivysettings.xml");
    Files.writeString(settings, "<ivysettings>\n  <settings defaultResolver=\"published\"/>\n"
        + "  <caches defaultCacheDir=\"" + tmp.resolve("ivy-cache") + "\"/>\n  <resolvers>\n"
        + "    <ibiblio name=\"published\" m2compatible=\"true\" root=\"" + repo.toUri() + "\"/>\n"
        + "  </resolvers>\n</ivysettings>\n");
    String jar = Path.of(System.getProperty("packages.jar")).toString();
    String testClasspath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String classpath = Arrays.stream(testClasspath.split(File.pathSeparator))
        .filter(e -> !e.equals(jar)).collect(Collectors.joining(File.pathSeparator));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g", "-Duser.home=" + tmp.resolve("home")));
    command.addAll(Arrays.asList(System.getProperty("packages.jvmFlags").trim().split("\\s+")));
    command.addAll(List.of("-cp", classpath, "org.apache.spark.deploy.SparkSubmit", "--master", "local[2]",
        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false", "--conf", "spark.jars.ivySettings=" + settings,
        "--conf", "spark.jars.ivy=" + tmp.resolve("ivy"),
        "--packages", "io.sharestream:" + System.getProperty("packages.artifactId") + ":"
            + System.getProperty("packages.version"),
        "--class", Job.class.getName(), "spark-internal", table, tmp.resolve("out").toString()));
    Path log = tmp.resolve("submit.log");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    return new Submitted(pb.start(), log);
  }

  /** The submitted job: its reports, read from its output, and the line on its input that lets it go on. */
  private static final class Submitted {
    private final Process process;
    private final Path log;

    Submitted(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    /** Waits for the job's report number {@code n} (or its end) and returns it. */
    Map<String, String> report(int n) throws Exception {
      String marker = MARKER + n + " ";
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      String out = output();
      while (!out.contains(marker) && process.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(200);
        out = output();
      }
      out = output();
      int at = out.indexOf(marker);
      assertThat(at).as("the job's report %d; its output:\n%s", n, out.substring(Math.max(0, out.length() - 6000)))
          .isGreaterThanOrEqualTo(0);
      Map<String, String> report = new HashMap<>();
      for (String kv : out.substring(at + marker.length()).split("\n")[0].trim().split(" ")) {
        report.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
      return report;
    }

    /** Lets the job start its query again. */
    void proceed() throws Exception {
      process.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    }

    /** Waits for the job to end, successfully. */
    void finish() throws Exception {
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
      }
      assertThat(process.exitValue()).as(output()).isZero();
    }

    private String output() throws Exception {
      return Files.readString(log, StandardCharsets.UTF_8);
    }
  }

  /** The ids the job's file sink holds. */
  private List<Long> ids() throws Exception {
    List<Long> ids = new ArrayList<>();
    try (Stream<Path> files = Files.walk(tmp.resolve("out/rows"))) {
      for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".json")).collect(Collectors.toList())) {
        for (String line : Files.readAllLines(f)) {
          Matcher m = Pattern.compile("\"id\":(\\d+)").matcher(line);
          if (m.find()) {
            ids.add(Long.parseLong(m.group(1)));
          }
        }
      }
    }
    return ids;
  }

  private static List<Map<String, Object>> rows(long from, long to) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(Map.of("id", i, "name", "row-" + i));
    }
    return rows;
  }

  /**
   * The job spark-submit runs: a batch count, then the table streamed into JSON files until it is caught up; once a
   * line comes on its input, both again, the query started anew from its checkpoint.
   */
  public static final class Job {
    public static void main(String[] args) throws Exception {
      String table = args[0];
      Path out = Path.of(args[1]);
      SparkSession spark = SparkSession.builder().getOrCreate();
      BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (int n = 1; n <= 2; n++) {
        if (n > 1 && input.readLine() == null) {
          break;
        }
        long batch = spark.read().format("deltaSharing").load(table).count();
        StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0").load(table)
            .writeStream().format("json").option("checkpointLocation", out.resolve("checkpoint").toString())
            .trigger(Trigger.AvailableNow()).start(out.resolve("rows").toString());
        q.awaitTermination();
        String source = Class.forName("io.sharestream.spark.DeltaSharingDataSource", false,
            Thread.currentThread().getContextClassLoader()).getProtectionDomain().getCodeSource().getLocation()
            .getPath();
        System.out.println(MARKER + n + " batch=" + batch + " source=" + source);
        System.out.flush();
      }
      spark.stop();
    }
  }
}
