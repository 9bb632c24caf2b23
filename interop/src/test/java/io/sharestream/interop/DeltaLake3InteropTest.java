package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaLog;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A table written by Delta Lake 3.2 on Spark 3.5 ({@link DeltaFixtures#cdf()}) with the change data feed on (stats,
 * {@code _change_data} files, UPDATE, DELETE, MERGE, a checkpoint): the kit serves it faithfully, and the core's
 * planner reads, per version and change type, exactly the rows Delta's own change data feed returns.
 */
class DeltaLake3InteropTest {
  static SparkSession spark;
  static String path;
  static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void writeTableWithDeltaLake() {
    // CREATE (0), ten appends (1..10, checkpoint at 10), UPDATE (11), DELETE (12), MERGE (13), append (14)
    spark = DeltaFixtures.spark();
    path = DeltaFixtures.cdf().path();
  }

  private static HttpResponse<String> get(DeltaSharingServer server, String pathAndQuery) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.endpoint() + pathAndQuery))
        .header("Authorization", "Bearer " + server.bearerToken()).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theKitServesDeltaLakeChangeDataStatsAndCheckpoints() throws Exception {
    DeltaLog log = new DeltaLog(Path.of(path));
    assertThat(log.snapshot(log.latestVersion()).protocol.minWriterVersion).isGreaterThanOrEqualTo(4);
    assertThat(Path.of(path, "_delta_log", "00000000000000000010.checkpoint.parquet")).exists();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", Path.of(path), true).start()) {
      HttpResponse<String> meta = get(server, "/shares/s/schemas/sc/tables/t/metadata");
      assertThat(meta.body()).contains("\"enableChangeDataFeed\":\"true\"");
      HttpResponse<String> changes = get(server, "/shares/s/schemas/sc/tables/t/changes?startingVersion=11"
          + "&endingVersion=13");
      assertThat(changes.statusCode()).isEqualTo(200);
      List<JsonNode> cdf = new ArrayList<>();
      for (String line : changes.body().split("\n")) {
        JsonNode n = JSON.readTree(line);
        if (n.has("cdf")) {
          cdf.add(n.get("cdf"));
        }
      }
      assertThat(cdf).isNotEmpty().allSatisfy(c -> {
        assertThat(c.path("url").asText()).contains("_change_data");
        assertThat(c.path("partitionValues").has("part")).isTrue();
      });
      HttpResponse<String> latest = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create(server.endpoint() + "/shares/s/schemas/sc/tables/t/query"))
          .header("Authorization", "Bearer " + server.bearerToken())
          .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
      long withStats = 0;
      long files = 0;
      for (String line : latest.body().split("\n")) {
        JsonNode n = JSON.readTree(line);
        if (n.has("file")) {
          files++;
          if (JSON.readTree(n.get("file").path("stats").asText("{}")).has("numRecords")) {
            withStats++;
          }
        }
      }
      assertThat(files).isEqualTo(spark.read().format("delta").load(path).inputFiles().length);
      assertThat(withStats).isEqualTo(files);
    }
  }

  /** Delta's own change data feed from version 1: rows per "version:change_type". */
  private static Map<String, Long> deltaChangeFeed() {
    Map<String, Long> out = new TreeMap<>();
    for (Row r : spark.read().format("delta").option("readChangeFeed", "true").option("startingVersion", 1)
        .load(path).groupBy("_commit_version", "_change_type").count().collectAsList()) {
      out.put(r.getLong(0) + ":" + r.getString(1), r.getLong(2));
    }
    return out;
  }

  /** The core's stream from version 1 with {@code options}: rows per "version:change_type". */
  private static Map<String, Long> coreStream(Map<String, String> options) {
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", Path.of(path), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);
      Map<String, Long> actual = new TreeMap<>();
      Map<String, String> all = new java.util.HashMap<>(options);
      all.put("startingVersion", "1");
      all.put("maxVersionsPerRpc", "4");
      try (SharingStreamPlanner planner = new SharingStreamPlanner(client, new TableRef("s", "sc", "t"),
          StreamOptions.parse(all), Duration.ZERO, Clock.systemUTC())) {
        Position pos = planner.initialPosition();
        for (int guard = 0; guard < 100; guard++) {
          StreamPlanner.Plan plan = planner.plan(pos, AdmissionLimits.files(5));
          for (WorkUnit u : plan.units()) {
            try (UnitReader r = UnitReader.open(client, u, planner.urls(u), planner.schema(), ReadSettings.DEFAULT,
                0)) {
              r.forEachRemaining(c -> actual.merge(u.version() + ":" + c.changeType(), 1L, Long::sum));
            }
          }
          if (plan.end().equals(pos)) {
            break;
          }
          pos = plan.end();
        }
      }
      return actual;
    }
  }

  @Test
  void readChangeFeedGivesExactlyDeltasOwnChangeDataFeed() {
    Map<String, Long> expected = deltaChangeFeed();
    assertThat(expected.keySet()).contains("11:update_preimage", "11:update_postimage", "12:delete",
        "13:update_postimage", "13:insert", "14:insert");
    assertThat(coreStream(Map.of("readChangeFeed", "true"))).isEqualTo(expected);
  }

  @Test
  void theDefaultModeGivesTheNewRowImagesOfDeltasChangeDataFeed() {
    Map<String, Long> expected = new TreeMap<>();
    deltaChangeFeed().forEach((k, n) -> {
      if (k.endsWith(":insert") || k.endsWith(":update_postimage")) {
        expected.put(k, n);
      }
    });
    assertThat(coreStream(Map.of())).isEqualTo(expected);
  }

  @Test
  void skipChangeCommitsGivesOnlyTheVersionsThatAppended() {
    Map<String, Long> feed = deltaChangeFeed();
    Map<String, Long> expected = new TreeMap<>();
    feed.forEach((k, n) -> {
      String version = k.substring(0, k.indexOf(':'));
      boolean onlyInserts = feed.keySet().stream().filter(x -> x.startsWith(version + ":"))
          .allMatch(x -> x.endsWith(":insert"));
      if (onlyInserts) {
        expected.put(k, n);
      }
    });
    assertThat(expected).doesNotContainKey("13:insert"); // the MERGE also updated rows: a change commit
    assertThat(coreStream(Map.of("skipChangeCommits", "true"))).isEqualTo(expected);
  }
}
