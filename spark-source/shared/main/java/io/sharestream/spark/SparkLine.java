package io.sharestream.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The Spark line and Scala version this jar was built for, checked against the running ones before the source does
 * anything else: a jar on another line fails with one message naming the Spark found and the artifact to use, not
 * with a {@code NoSuchMethodError} somewhere in Spark's internals (or later, at a stream's first batch).
 */
final class SparkLine {
  /** The jars there are: their Spark line, Scala version and artifact. */
  private static final String[][] JARS = {
      {"3.1", "2.12", "sharestream-spark-3.1_2.12"},
      {"3.5", "2.12", "sharestream-spark-3.5_2.12"},
      {"3.5", "2.13", "sharestream-spark-3.5_2.13"},
      {"4", "2.13", "sharestream-spark-4_2.13"}};
  private static final String PROBLEM;

  static {
    Properties built = new Properties();
    try (InputStream in = SparkLine.class.getResourceAsStream("/sharestream-spark.properties")) {
      if (in != null) {
        built.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PROBLEM = problem(built.getProperty("spark.line", "?"), built.getProperty("scala.binary", "?"),
        org.apache.spark.package$.MODULE$.SPARK_VERSION(), scala.util.Properties$.MODULE$.versionNumberString());
  }

  private SparkLine() {}

  /** Fails when this jar is not the one for the running Spark and Scala. */
  static void require() {
    if (PROBLEM != null) {
      throw new UnsupportedOperationException(PROBLEM);
    }
  }

  /**
   * Null when a jar built for Spark {@code line} on Scala {@code scala} runs on Spark {@code spark} with the Scala
   * library {@code runningScala}; else what is wrong and which artifact to use.
   */
  static String problem(String line, String scala, String spark, String runningScala) {
    if (fits(line, scala, spark, runningScala)) {
      return null;
    }
    String found = "Spark " + spark + " on Scala " + runningScala;
    String artifact = null;
    for (String[] jar : JARS) {
      if (fits(jar[0], jar[1], spark, runningScala)) {
        artifact = jar[2];
      }
    }
    return "This deltaSharing jar is built for Spark " + (line.equals("4") ? "4.x" : line + ".x") + " on Scala "
        + scala + ", but runs on " + found + ". " + (artifact != null ? "Use " + artifact + " instead."
        : "There is no jar for " + found + ": the source has jars for Spark 3.1.x on Scala 2.12, Spark 3.5.x on "
            + "Scala 2.12 and 2.13, and Spark 4.x on Scala 2.13.");
  }

  private static boolean fits(String line, String scala, String spark, String runningScala) {
    return (spark.equals(line) || spark.startsWith(line + ".")) && (runningScala.equals(scala)
        || runningScala.startsWith(scala + "."));
  }
}
