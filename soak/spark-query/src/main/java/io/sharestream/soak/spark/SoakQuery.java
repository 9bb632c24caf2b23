package io.sharestream.soak.spark;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * A Spark 3.1.1 driver for the soak: one stream per argument from the {@code deltaSharing} source into the file sink
 * (JSON lines), each with its own checkpoint, as a user would run them. The soak kills it with SIGKILL at random
 * points and starts it again on the same directories; the file sink's log then tells which output is committed.
 *
 * <p>Arguments: {@code <work dir> <profile> <stream>...}, each stream
 * {@code <name>=<share>.<schema>.<table>[,option=value]...}; stream {@code n} writes {@code <work>/<n>/out} with its
 * checkpoint in {@code <work>/<n>/checkpoint}. The driver runs until killed, or until a query fails (exit code 1,
 * the failure on standard error).
 */
public final class SoakQuery {
  private SoakQuery() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    String profile = args[1];
    SparkSession spark = SparkSession.builder().master("local[2]").appName("sharestream-soak")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.session.timeZone", "UTC").getOrCreate();
    for (int i = 2; i < args.length; i++) {
      String[] parts = args[i].split(",");
      String name = parts[0].substring(0, parts[0].indexOf('='));
      String table = parts[0].substring(name.length() + 1);
      Map<String, String> options = new LinkedHashMap<>();
      for (int p = 1; p < parts.length; p++) {
        options.put(parts[p].substring(0, parts[p].indexOf('=')), parts[p].substring(parts[p].indexOf('=') + 1));
      }
      Path dir = work.resolve(name);
      spark.readStream().format("deltaSharing").options(options).load(profile + "#" + table)
          .writeStream().format("json").queryName(name)
          .option("checkpointLocation", dir.resolve("checkpoint").toString())
          .option("path", dir.resolve("out").toString())
          .trigger(Trigger.ProcessingTime(500)).start();
    }
    try {
      spark.streams().awaitAnyTermination();
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
    for (StreamingQuery q : spark.streams().active()) {
      q.stop();
    }
    System.exit(1); // a query ended without a failure: nothing here stops a query but a kill
  }
}
