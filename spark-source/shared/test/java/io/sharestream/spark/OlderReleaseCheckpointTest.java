package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint an older release wrote inside a version names no file (offset format 1): on a server whose file ids
 * changed since (it ignores the pinned id scheme and now answers in the delta format), which files it had read cannot
 * be told. The query is refused naming the fixes rather than replaying a guess.
 */
class OlderReleaseCheckpointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  @Test
  void aCheckpointOffsetOfAnOlderReleaseInsideAVersionIsRefusedNamingTheFixes() throws Exception {
    SparkSession spark = TestSpark.session();
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 6), 2); // version 1: three files
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true)
        .honourFileIdHash(false).start()) {
      String path = server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
      String checkpoint = tmp.resolve("checkpoint").toString();
      StreamingQuery first = start(spark, path, checkpoint);
      first.processAllAvailable(); // three batches of one file: offsets inside version 1 and after it
      first.stop();

      List<Path> offsets = new ArrayList<>();
      try (Stream<Path> files = Files.list(Path.of(checkpoint, "offsets"))) {
        files.filter(f -> f.getFileName().toString().matches("\\d+")).forEach(offsets::add);
      }
      for (Path f : offsets) { // as an older release wrote them: no file key
        List<String> lines = Files.readAllLines(f);
        ObjectNode offset = (ObjectNode) JSON.readTree(lines.get(2));
        offset.remove("fileKey");
        offset.put("sourceVersion", 1);
        lines.set(2, offset.toString());
        Files.write(f, lines);
      }
      Files.deleteIfExists(Path.of(checkpoint, "commits", "2")); // the last batch, inside version 1, runs again
      Files.deleteIfExists(Path.of(checkpoint, "commits", ".2.crc"));
      server.faults().respondInDeltaFormat(Endpoint.QUERY, 100); // the provider enabled deletion vectors meanwhile

      StreamingQuery again = start(spark, path, checkpoint);
      assertThatThrownBy(() -> again.awaitTermination(120_000))
          .hasMessageContaining("The stored position of s.sc.t lies inside version 1")
          .hasMessageContaining("written by an older release")
          .hasMessageContaining("new checkpoint and startingVersion 1");
    }
  }

  private static StreamingQuery start(SparkSession spark, String path, String checkpoint) throws Exception {
    return spark.readStream().format("deltaSharing").option("startingVersion", "1").option("maxFilesPerTrigger", "1")
        .load(path).writeStream().format("noop").option("checkpointLocation", checkpoint).start();
  }
}
