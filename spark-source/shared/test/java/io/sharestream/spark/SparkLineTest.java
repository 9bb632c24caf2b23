package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which jar fits which Spark: the running one passes, a foreign line is named with the artifact to use. */
class SparkLineTest {
  @Test
  void theJarBuiltForThisLinePassesOnTheSparkItRunsOn() {
    SparkLine.require();
    TestSpark.session(); // and the source works on it, as every other test here shows
  }

  @Test
  void aJarOnAForeignLineNamesTheSparkFoundAndTheArtifactToUse() {
    assertThat(SparkLine.problem("4", "2.13", "4.2.0", "2.13.16")).isNull();
    assertThat(SparkLine.problem("4", "2.13", "4.0.4", "2.13.14")).isNull();
    assertThat(SparkLine.problem("3.5", "2.12", "3.5.9", "2.12.18")).isNull();
    assertThat(SparkLine.problem("3.1", "2.12", "3.1.1", "2.12.20")).isNull();

    assertThat(SparkLine.problem("4", "2.13", "3.5.0", "2.12.18")).isEqualTo("This deltaSharing jar is built for "
        + "Spark 4.x on Scala 2.13, but runs on Spark 3.5.0 on Scala 2.12.18. Use sharestream-spark-3.5_2.12 "
        + "instead.");
    assertThat(SparkLine.problem("3.1", "2.12", "3.5.9", "2.12.18")).endsWith("Use sharestream-spark-3.5_2.12 "
        + "instead.");
    assertThat(SparkLine.problem("3.5", "2.12", "4.1.3", "2.13.16")).endsWith("Use sharestream-spark-4_2.13 "
        + "instead.");
    assertThat(SparkLine.problem("3.5", "2.13", "3.5.1", "2.13.8")).isNull();
    assertThat(SparkLine.problem("3.5", "2.12", "3.5.1", "2.13.8")).contains("runs on Spark 3.5.1 on Scala 2.13.8")
        .endsWith("Use sharestream-spark-3.5_2.13 instead.");
    assertThat(SparkLine.problem("3.5", "2.13", "3.5.9", "2.12.18")).endsWith("Use sharestream-spark-3.5_2.12 "
        + "instead.");
    assertThat(SparkLine.problem("4", "2.13", "3.5.9", "2.13.8")).endsWith("Use sharestream-spark-3.5_2.13 instead.");
    assertThat(SparkLine.problem("3.5", "2.13", "4.2.0", "2.13.16")).endsWith("Use sharestream-spark-4_2.13 instead.");
    assertThat(SparkLine.problem("3.1", "2.12", "3.1.1", "2.13.8")).contains("There is no jar for Spark 3.1.1 on "
        + "Scala 2.13.8");
    assertThat(SparkLine.problem("3.5", "2.12", "3.3.2", "2.12.15")).contains("There is no jar for Spark 3.3.2");
    assertThat(SparkLine.problem("3.1", "2.12", "3.10.0", "2.12.18")).as("3.10 is not 3.1")
        .contains("There is no jar");
  }
}
