package io.sharestream.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark 4 jar on a Spark Connect server, as a user deploys it ({@code spark-submit --jars}, what
 * {@code start-connect-server.sh --jars} runs), driven by the Connect JVM client with the profile as options (a
 * client's file means nothing on the server): a batch read, and a stream into a Parquet directory restarted from its
 * checkpoint.
 */
class SparkConnectIT {
  @TempDir static Path tmp;
  static DeltaSharingServer sharing;
  static DeltaTableWriter table;
  static Process server;
  static SparkSession spark;

  @BeforeAll
  static void start() throws Exception {
    table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 4), 2); // 1
    sharing = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();

    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(Arrays.asList(System.getProperty("connect.server.jvm.flags").trim().split("\\s+")));
    command.addAll(List.of("-cp", Files.readString(Path.of(System.getProperty("connect.server.classpath"))).trim(),
        "org.apache.spark.deploy.SparkSubmit", "--master", "local[2]",
        "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--jars", System.getProperty("sharestream.jar"),
        "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
        "--conf", "spark.connect.grpc.binding.port=" + port,
        "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
        "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.shuffle.partitions=2",
        "--conf", "spark.sharestream.versionPollIntervalMs=0", "spark-internal"));
    Path log = Path.of("target", "connect-server.log");
    server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (!listening(port)) {
      if (!server.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("The Connect server did not start; see " + log.toAbsolutePath());
      }
      Thread.sleep(250);
    }
    spark = SparkSession.builder().remote("sc://127.0.0.1:" + port).getOrCreate();
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (spark != null) {
      spark.close();
    }
    if (server != null) {
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
    if (sharing != null) {
      sharing.close();
    }
  }

  private static Map<String, String> profile() {
    return Map.of("shareCredentialsVersion", "1", "endpoint", sharing.endpoint(), "bearerToken",
        sharing.bearerToken());
  }

  @Test
  void aBatchReadAndAStreamRestartedFromItsCheckpointRunOnTheServer() throws Exception {
    assertThat(ids(spark.read().format("sharestream").options(profile()).load("s.sc.t").collectAsList()))
        .isEqualTo(range(0, 4));

    String out = tmp.resolve("out").toString();
    String checkpoint = tmp.resolve("checkpoint").toString();
    runStream(out, checkpoint);
    assertThat(ids(spark.read().parquet(out).collectAsList())).isEqualTo(range(0, 4));
    table.append(ChangeMatrix.rows(4, 8), 2); // 2
    runStream(out, checkpoint);
    assertThat(ids(spark.read().parquet(out).collectAsList())).isEqualTo(range(0, 8));
  }

  /** Everything available from version 1 on, or from the checkpoint, into Parquet files at {@code out}. */
  private static void runStream(String out, String checkpoint) throws Exception {
    StreamingQuery q = spark.readStream().format("deltaSharing").options(profile()).option("startingVersion", "1")
        .load("s.sc.t").writeStream().format("parquet").option("path", out)
        .option("checkpointLocation", checkpoint).trigger(Trigger.AvailableNow()).start();
    q.awaitTermination();
    assertThat(q.exception().isEmpty()).isTrue();
  }

  private static List<Long> ids(List<Row> rows) {
    return rows.stream().map(r -> r.getLong(0)).sorted().collect(Collectors.toList());
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().collect(Collectors.toList());
  }
}
