package io.sharestream.spark;

import org.apache.spark.sql.SparkSession;

/** The one local SparkSession of this module's test JVM (a session start costs seconds). */
final class TestSpark {
  private static SparkSession session;

  private TestSpark() {}

  /** Sets the session's time zone to {@code zone} and returns the one it had (for the test to set back). */
  static String sessionZone(String zone) {
    String before = session().conf().get("spark.sql.session.timeZone");
    session().conf().set("spark.sql.session.timeZone", zone);
    return before;
  }

  static synchronized SparkSession session() {
    if (session == null) {
      SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("sharestream-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.sql.shuffle.partitions", "2")
          // no state store snapshots written in the background after a test stopped its query: they raced the
          // deletion of the test's checkpoint directory (seen on Spark 4 on a busy machine)
          .config("spark.sql.streaming.stateStore.maintenanceInterval", "1h")
          .config("spark.databricks.delta.snapshotPartitions", "1") // small tables: no 50-task state jobs
          // tests append and then process what is available at once: no pause between version polls
          .config("spark.sharestream.versionPollIntervalMs", "0");
      if (deltaLake()) { // the seed's Delta sink, in the modules that test it
        builder.config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
            .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
      }
      session = builder.getOrCreate();
    }
    return session;
  }

  private static boolean deltaLake() {
    try {
      Class.forName("io.delta.sql.DeltaSparkSessionExtension", false, TestSpark.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
