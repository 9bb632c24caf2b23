package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerMainTest {
  @TempDir Path tmp;

  @Test
  void startsFromAConfigFileWithHistoryPerTableAndWritesAProfile() throws Exception {
    DeltaTableWriter.create(tmp.resolve("events"), Fixtures.EVENTS).commit().append(Fixtures.events(0, 2));
    Path config = Files.writeString(tmp.resolve("tables.json"), "{\"tables\":["
        + "{\"name\":\"analytics.streaming.events\",\"location\":\"events\"},"
        + "{\"name\":\"analytics.streaming.nohistory\",\"location\":\"events\",\"history\":false}]}");
    Path profile = tmp.resolve("demo.share");
    try (DeltaSharingServer server = ServerMain.start(new String[] {"--config", config.toString(), "--token", "tok",
        "--profile", profile.toString(), "--url-ttl-seconds", "60"})) {
      assertThat(Http.JSON.readTree(profile.toFile()).path("bearerToken").asText()).isEqualTo("tok");
      Http http = new Http(server, "tok");
      Http.Response r = http.query("analytics.streaming.events", "{\"version\":1}");
      assertThat(r.status).isEqualTo(200);
      long expiry = r.lines("file").get(0).path("expirationTimestamp").asLong();
      assertThat(expiry).isLessThanOrEqualTo(System.currentTimeMillis() + 60_000);
      assertThat(http.query("analytics.streaming.nohistory", "{\"version\":1}").status).isEqualTo(400);
    }
  }

  @Test
  void theConfigGivesShareIdsAndSwitchesHistoryInDeltaFormat() throws Exception {
    DeltaTableWriter dv = DeltaTableWriter.create(tmp.resolve("dv"), Fixtures.EVENTS).deletionVectors(true).commit();
    dv.append(Fixtures.events(0, 2));
    Path config = Files.writeString(tmp.resolve("tables.json"), "{\"tables\":["
        + "{\"name\":\"analytics.streaming.dv\",\"location\":\"dv\"}],"
        + "\"shareIds\":{\"analytics\":\"share-id-1\"},\"historyInDeltaFormat\":false}");
    try (DeltaSharingServer server = ServerMain.start(new String[] {"--config", config.toString(), "--token", "t"})) {
      Http http = new Http(server, "t");
      assertThat(http.get("/shares/analytics").json().path("share").path("id").asText()).isEqualTo("share-id-1");
      String caps = "responseformat=delta;readerfeatures=deletionvectors";
      assertThat(http.query("analytics.streaming.dv", "{}", "delta-sharing-capabilities", caps).status)
          .isEqualTo(200);
      Http.Response history = http.query("analytics.streaming.dv", "{\"startingVersion\":0}",
          "delta-sharing-capabilities", caps);
      assertThat(history.status).isEqualTo(400);
      assertThat(history.message()).contains("(3,7) is too new");
    }
  }

  @Test
  void badArgumentsNameTheProblem() throws Exception {
    assertThatThrownBy(() -> ServerMain.start(new String[] {})).hasMessageContaining("--config is required");
    assertThatThrownBy(() -> ServerMain.start(new String[] {"--bogus", "1"})).hasMessageContaining("--bogus");
    Path bad = Files.writeString(tmp.resolve("bad.json"), "{\"tables\":[{\"name\":\"only.two\",\"location\":\"x\"}]}");
    assertThatThrownBy(() -> ServerMain.start(new String[] {"--config", bad.toString()}))
        .hasMessageContaining("only.two").hasMessageContaining("share.schema.table");
  }
}
