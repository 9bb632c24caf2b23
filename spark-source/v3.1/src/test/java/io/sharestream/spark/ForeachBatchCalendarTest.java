package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark 3.1.1's {@code foreachBatch} hands each micro-batch over as rows of {@code java.sql} dates and timestamps
 * (the hybrid calendar), whatever the source: the days that calendar skips, 1582-10-05 to 14, come out as 1582-10-15,
 * from Delta Lake's own stream as from this one, while a batch read keeps them. With
 * {@code spark.sql.datetime.java8API.enabled=true} the batch comes as {@code java.time} values and keeps them too.
 */
class ForeachBatchCalendarTest {
  private static final String[] INTERNAL = {"unix_date(d)", "unix_micros(ts)"};
  private static final Map<String, List<String>> SEEN = new ConcurrentHashMap<>();

  @TempDir Path tmp;

  @AfterEach
  void unset() {
    SparkSession spark = TestSpark.session();
    for (String key : List.of("spark.sql.legacy.parquet.datetimeRebaseModeInWrite",
        "spark.sql.legacy.parquet.int96RebaseModeInWrite", "spark.sql.datetime.java8API.enabled")) {
      spark.conf().unset(key);
    }
  }

  @Test
  void aDayTheHybridCalendarSkipsComesOutOfForeachBatchAsFromDeltasOwnStream() throws Exception {
    SparkSession spark = TestSpark.session();
    String zone = TestSpark.sessionZone("UTC");
    try {
      spark.conf().set("spark.sql.legacy.parquet.datetimeRebaseModeInWrite", "CORRECTED");
      spark.conf().set("spark.sql.legacy.parquet.int96RebaseModeInWrite", "CORRECTED");
      spark.conf().set("spark.sql.datetime.java8API.enabled", "true"); // java.time values to write the table
      Path table = tmp.resolve("t");
      spark.createDataFrame(List.of(RowFactory.create(LocalDate.of(1582, 10, 10),
          Instant.parse("1582-10-10T10:10:10Z"))), DataTypes.createStructType(List.of(
              DataTypes.createStructField("d", DataTypes.DateType, true),
              DataTypes.createStructField("ts", DataTypes.TimestampType, true))))
          .write().format("delta").save(table.toString());
      spark.conf().set("spark.sql.datetime.java8API.enabled", "false");
      try (DeltaSharingServer s = DeltaSharingServer.builder().table("s", "sc", "t", table, true).start()) {
        String path = s.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
        assertThat(internal(spark.read().format("deltaSharing").load(path))).as("batch")
            .containsExactly("-141432 -12219688190000000");

        assertThat(foreachBatch(spark.readStream().format("deltaSharing").option("startingVersion", "0").load(path)))
            .as("this source, java.sql rows").isEqualTo(foreachBatch(spark.readStream().format("delta")
                .load(table.toString()))).containsExactly("-141427 -12219256190000000"); // 1582-10-15

        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        assertThat(foreachBatch(spark.readStream().format("deltaSharing").option("startingVersion", "0").load(path)))
            .as("this source, java.time rows").containsExactly("-141432 -12219688190000000");
      }
    } finally {
      TestSpark.sessionZone(zone);
    }
  }

  private static List<String> internal(Dataset<Row> df) {
    return df.selectExpr(INTERNAL).collectAsList().stream().map(r -> r.get(0) + " " + r.get(1))
        .collect(Collectors.toList());
  }

  /** The internal values of the batches a Trigger.Once query hands to {@code foreachBatch}. */
  private static List<String> foreachBatch(Dataset<Row> stream) throws Exception {
    String key = String.valueOf(System.nanoTime());
    StreamingQuery q = stream.writeStream().foreachBatch((VoidFunction2<Dataset<Row>, Long>) (batch, id) ->
        SEEN.put(key, internal(batch))).trigger(Trigger.Once()).start();
    assertThat(q.awaitTermination(180_000)).isTrue();
    return SEEN.remove(key);
  }
}
