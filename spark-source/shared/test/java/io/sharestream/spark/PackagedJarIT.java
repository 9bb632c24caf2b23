package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar {@code mvn package} builds, as a user of its Spark line adds it: alone on Spark's classpath (this JVM has
 * neither the module's classes nor the core's), found by its short name, streaming and reading a shared table.
 */
class PackagedJarIT {
  /** The Spark line of the running Spark ("3.1", "3.5", "4"), as it names the module's jar. */
  private static final String SPARK_LINE = sparkLine(org.apache.spark.package$.MODULE$.SPARK_VERSION());

  private static String sparkLine(String version) {
    return version.startsWith("3.") ? version.substring(0, 3) : version.substring(0, version.indexOf('.'));
  }

  @TempDir Path tmp;

  @Test
  void theJarAloneReadsAndStreamsASharedTable() throws Exception {
    Class<?> source = Class.forName("io.sharestream.spark.DeltaSharingDataSource");
    assertThat(source.getProtectionDomain().getCodeSource().getLocation().getPath())
        .endsWith(".jar").contains("sharestream-spark-" + SPARK_LINE);
    Class<?> core = Class.forName("io.sharestream.common.planner.SharingStreamPlanner");
    assertThat(core.getProtectionDomain().getCodeSource().getLocation())
        .isEqualTo(source.getProtectionDomain().getCodeSource().getLocation());

    DeltaTableWriter table = ChangeMatrix.write(tmp.resolve("t"), true);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      String path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
      SparkSession spark = SparkSession.builder().master("local[2]").appName("packaged-jar")
          .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
      try {
        assertThat(spark.read().format("deltaSharing").load(path).count()).isEqualTo(10);
        StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0")
            .option("readChangeFeed", "true").load(path).writeStream().format("memory").queryName("packaged")
            .trigger(Trigger.Once()).start();
        q.awaitTermination();
        assertThat(spark.sql("SELECT * FROM packaged").count())
            .isEqualTo(ChangeMatrix.expected(ChangeMatrix.Mode.READ_CHANGE_FEED, true).size());
      } finally {
        spark.stop();
      }
    }
  }
}
