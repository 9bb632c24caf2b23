package io.sharestream.soak;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A Spark 3.1.1 driver in a process of its own running the soak's streams into the file sink
 * ({@code io.sharestream.soak.spark.SoakQuery}), and what the sink committed: the files its log lists, nothing a
 * killed batch left behind.
 */
final class SparkDriver implements AutoCloseable {
  private final Path work;
  private final JavaProcess process;

  /** Runs {@code streams} ({@code name=table[,option=value]...}) read with {@code profile}, state in {@code work}. */
  SparkDriver(Path work, String profile, List<String> streams) throws IOException {
    this.work = work;
    String classpath = System.getProperty("soak.spark.classes") + java.io.File.pathSeparator
        + Files.readString(Path.of(System.getProperty("soak.spark.classpath"))).trim();
    List<String> flags = new ArrayList<>(List.of("-Xmx1g", "-Dspark.testing.memory=536870912"));
    flags.addAll(Arrays.asList(System.getProperty("soak.spark.jvm.flags", "").trim().split("\\s+")));
    List<String> args = new ArrayList<>(List.of(work.toString(), profile));
    args.addAll(streams);
    this.process = new JavaProcess(Jdk.current(), classpath, flags, "io.sharestream.soak.spark.SoakQuery", args,
        work.resolve("driver"));
  }

  JavaProcess process() {
    return process;
  }

  /**
   * The rows stream {@code name}'s sink has committed, each written as the soak's events are: {@code
   * version/id/changeType/v} with {@code withChanges}, else {@code id/v}.
   */
  List<String> committed(String name, boolean withChanges) throws IOException {
    Path out = work.resolve(name).resolve("out");
    List<String> rows = new ArrayList<>();
    for (Path file : committedFiles(out)) {
      try (BufferedReader r = Files.newBufferedReader(file)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          JsonNode row = ConnectWorker.JSON.readTree(line);
          long id = row.path("id").asLong();
          long v = row.path("v").asLong();
          rows.add(withChanges ? SoakTable.event(row.path("_commit_version").asLong(), id,
              row.path("_change_type").asText(), v) : SoakTable.event(-1, id, null, v));
        }
      }
    }
    return rows;
  }

  /** The data files the file sink's log ({@code _spark_metadata}: batch files and compactions) lists as added. */
  private static Set<Path> committedFiles(Path out) throws IOException {
    Path log = out.resolve("_spark_metadata");
    Set<Path> files = new TreeSet<>();
    if (!Files.isDirectory(log)) {
      return files;
    }
    List<Path> entries;
    try (Stream<Path> s = Files.list(log)) {
      entries = s.filter(p -> p.getFileName().toString().matches("\\d+(\\.compact)?")).toList();
    }
    for (Path entry : entries) {
      List<String> lines = Files.readAllLines(entry);
      for (String line : lines.subList(1, lines.size())) { // the first line is the log's version, "v1"
        JsonNode e = ConnectWorker.JSON.readTree(line);
        if ("add".equals(e.path("action").asText())) {
          files.add(Path.of(URI.create(e.path("path").asText())));
        }
      }
    }
    return files;
  }

  @Override
  public void close() throws InterruptedException {
    process.kill();
  }
}
