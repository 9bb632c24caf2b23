package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files are read by Spark's own vectorized Parquet reader over the pre-signed URLs: columnar batches into
 * whole-stage code, two storage requests per file (the footer's tail, then the column chunks), file names that are
 * no URLs, each file let go as soon as it is read, and a file gone from storage failing the read even where Spark
 * would skip corrupt files.
 */
class VectorizedReadTest {
  static SparkSession spark;
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  String path;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @BeforeEach
  void serve() {
    table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    Random random = new Random(5);
    List<Map<String, Object>> rows = ChangeMatrix.rows(0, 40_000);
    rows.forEach(r -> r.put("name", Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong())));
    table.append(rows, 10_000); // 4 files of ~400 KB: larger than the tail read
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
  }

  @AfterEach
  void stop() {
    server.close();
    spark.conf().unset("spark.sql.files.ignoreCorruptFiles");
  }

  @Test
  void filesAreReadVectorizedWithTwoRequestsEach() {
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    String plan = df.queryExecution().executedPlan().toString();
    assertThat(plan).contains("ColumnarToRow").contains("BatchScan");
    server.requests().clear();
    assertThat(df.agg(functions.sum("id"), functions.count("name")).first().getLong(0))
        .isEqualTo(40_000L * 39_999 / 2);
    assertThat(server.requests().entries(Endpoint.STORAGE)).as("two requests per file").hasSize(8);
  }

  @Test
  void inputFileNamesAreTheFileSystemsPathsNeverUrls() {
    List<String> names = spark.read().format("deltaSharing").load(path).select(functions.input_file_name())
        .distinct().collectAsList().stream().map(r -> r.getString(0)).collect(Collectors.toList());
    assertThat(names).hasSize(4).allMatch(n -> n.startsWith("deltasharing:/") && !n.contains("?")
        && !n.contains("127.0.0.1"));
    assertThat(FileRegistry.registered()).as("files are released after their tasks").isEmpty();
  }

  @Test
  void aPartitionReleasesEachFileAsSoonAsItIsRead() {
    UserDefinedFunction registered = functions.udf(
        (UDF1<String, String>) file -> String.join(" ", FileRegistry.registered()), DataTypes.StringType)
        .asNondeterministic();
    List<Row> rows = spark.read().format("deltaSharing").load(path).select(functions.spark_partition_id(),
        functions.input_file_name(), registered.apply(functions.input_file_name())).collectAsList();
    Map<Integer, List<String>> readOrder = new HashMap<>(); // each partition's files, as it reads them
    for (Row r : rows) {
      List<String> files = readOrder.computeIfAbsent(r.getInt(0), p -> new ArrayList<>());
      if (!files.contains(r.getString(1))) {
        files.add(r.getString(1));
      }
    }
    assertThat(readOrder.values()).as("a partition reading several files").anyMatch(files -> files.size() > 1);
    for (Row r : rows) {
      List<String> files = readOrder.get(r.getInt(0));
      List<String> readable = List.of(r.getString(2).split(" "));
      assertThat(readable).as("while a partition reads %s", r.getString(1)).contains(r.getString(1));
      for (String done : files.subList(0, files.indexOf(r.getString(1)))) {
        assertThat(readable).as("while a partition reads %s", r.getString(1)).doesNotContain(done);
      }
    }
  }

  @Test
  void aFileGoneFromStorageFailsTheReadEvenWhenSparkSkipsCorruptFiles() throws Exception {
    spark.conf().set("spark.sql.files.ignoreCorruptFiles", "true");
    Dataset<Row> df = spark.read().format("deltaSharing").load(path);
    df.queryExecution().executedPlan(); // planned (and listed) before the file goes
    Files.delete(table.log().resolve(table.snapshot().files().iterator().next().path));
    assertThatThrownBy(df::count).hasMessageContaining("VACUUM");
  }
}
