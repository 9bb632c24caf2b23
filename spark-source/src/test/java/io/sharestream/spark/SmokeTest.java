package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path tmp;

  @Test
  void smoke() throws Exception {
    SparkSession spark = TestSpark.session();
    DeltaTableWriter t = ChangeMatrix.write(tmp.resolve("t"), true);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", t.dir(), true).start()) {
      String path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
      List<Row> batch = spark.read().format("deltaSharing").load(path).collectAsList();
      System.out.println("BATCH " + batch);
      StreamingQuery q = spark.readStream().format("deltaSharing").option("startingVersion", "0")
          .option("readChangeFeed", "true").load(path)
          .writeStream().format("memory").queryName("smoke").start();
      q.processAllAvailable();
      List<Row> rows = spark.sql("select * from smoke").collectAsList();
      System.out.println("STREAM " + rows);
      q.stop();
      assertThat(batch).hasSize(10);
    }
  }
}
