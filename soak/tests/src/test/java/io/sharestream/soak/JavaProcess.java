package io.sharestream.soak;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM of its own (a Connect worker, a Spark driver) that the soak starts, kills with SIGKILL and starts again.
 * Each run's standard output and error go to {@code <log>.<run>.log}, so a failure can be read after the fact.
 */
final class JavaProcess {
  private final Jdk jdk;
  private final String classpath;
  private final List<String> jvmFlags;
  private final String mainClass;
  private final List<String> args;
  private final Path log;
  private Process process;
  private int runs;

  JavaProcess(Jdk jdk, String classpath, List<String> jvmFlags, String mainClass, List<String> args, Path log) {
    this.jdk = jdk;
    this.classpath = classpath;
    this.jvmFlags = jvmFlags;
    this.mainClass = mainClass;
    this.args = args;
    this.log = log;
  }

  /** Starts a new run; the previous one must have ended. */
  synchronized void start() {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(mainClass + " is still running");
    }
    List<String> command = new ArrayList<>();
    command.add(jdk.java().toString());
    command.addAll(jvmFlags);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    runs++;
    try {
      Files.createDirectories(log.getParent());
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(runLog(runs).toFile());
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // a Spark driver: loopback only, as it binds
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** SIGKILL, as {@code kill -9}: no shutdown hook, no flush, no goodbye to the group or the checkpoint. */
  synchronized void kill() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(mainClass + " survived SIGKILL");
      }
    }
  }

  synchronized boolean alive() {
    return process != null && process.isAlive();
  }

  /** The exit code of the run that ended, or null while it runs. */
  synchronized Integer exitCode() {
    return process == null || process.isAlive() ? null : process.exitValue();
  }

  /** The output of the current (or last) run. */
  Path runLog() {
    return runLog(runs);
  }

  private Path runLog(int run) {
    return log.resolveSibling(log.getFileName() + "." + run + ".log");
  }

  /** The last {@code lines} lines of the current (or last) run's output, for a failure message. */
  String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(runLog());
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }
}
