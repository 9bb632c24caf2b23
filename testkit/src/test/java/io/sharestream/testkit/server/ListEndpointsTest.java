package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListEndpointsTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  Http http;

  @BeforeEach
  void start() {
    Path dir = DeltaTableWriter.create(tmp.resolve("t"), Fixtures.EVENTS).commit().dir();
    DeltaSharingServer.Builder b = DeltaSharingServer.builder();
    for (int i = 0; i < 7; i++) {
      b.table("sales", "s" + (i % 2), "t" + i, dir, true);
    }
    b.table("marketing", "web", "clicks", dir, false);
    server = b.shareId("sales", "5c1d0b9e-7a3f-4e21-9d6b-2f8e4a1c3b70").start();
    http = new Http(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void listSharesReturnsEveryShareWithTheIdsConfigured() {
    Http.Response r = http.get("/shares");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.json().path("items")).extracting(n -> n.path("name").asText()).containsExactly("sales", "marketing");
    assertThat(r.json().path("items").get(0).path("id").asText()).isEqualTo("5c1d0b9e-7a3f-4e21-9d6b-2f8e4a1c3b70");
    assertThat(r.json().path("items").get(1).has("id")).as("a share configured without id").isFalse();
    assertThat(r.json().has("nextPageToken")).isFalse();
  }

  @Test
  void listsPageWithMaxResultsAndPageToken() {
    List<String> names = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      Http.Response r = http.get("/shares/sales/all-tables?maxResults=3" + (token == null ? "" : "&pageToken=" + token));
      assertThat(r.status).isEqualTo(200);
      assertThat(r.json().path("items").size()).isLessThanOrEqualTo(3);
      r.json().path("items").forEach(n -> names.add(n.path("name").asText()));
      token = r.json().path("nextPageToken").asText(null);
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(3);
    assertThat(names).containsExactly("t0", "t1", "t2", "t3", "t4", "t5", "t6");

    Http.Response zero = http.get("/shares?maxResults=0");
    assertThat(zero.json().path("items").size()).isZero();
    assertThat(zero.json().path("nextPageToken").asText()).isNotEmpty();
  }

  @Test
  void tableItemsCarryNameSchemaShareAndIds() {
    Http.Response r = http.get("/shares/sales/schemas/s1/tables");
    assertThat(r.json().path("items")).extracting(n -> n.path("name").asText()).containsExactly("t1", "t3", "t5");
    JsonNode item = r.json().path("items").get(0);
    assertThat(item.path("schema").asText()).isEqualTo("s1");
    assertThat(item.path("share").asText()).isEqualTo("sales");
    assertThat(item.path("shareId").asText()).isNotEmpty();
    assertThat(item.path("id").asText()).isNotEmpty();
  }

  @Test
  void schemasAndShareAreListedAndNamesMatchCaseInsensitively() {
    assertThat(http.get("/shares/SALES/schemas").json().path("items"))
        .extracting(n -> n.path("name").asText()).containsExactly("s0", "s1");
    Http.Response share = http.get("/shares/Marketing");
    assertThat(share.status).isEqualTo(200);
    assertThat(share.json().path("share").path("name").asText()).isEqualTo("marketing");
    assertThat(http.get("/shares/sales/schemas/S0/tables").json().path("items").size()).isEqualTo(4);
  }

  @Test
  void unknownShareOrSchemaIs404InProtocolErrorForm() {
    Http.Response share = http.get("/shares/nope/schemas");
    assertThat(share.status).isEqualTo(404);
    assertThat(share.errorCode()).isEqualTo("RESOURCE_DOES_NOT_EXIST");
    assertThat(share.message()).contains("nope");
    Http.Response schema = http.get("/shares/sales/schemas/nope/tables");
    assertThat(schema.status).isEqualTo(404);
    assertThat(schema.errorCode()).isEqualTo("RESOURCE_DOES_NOT_EXIST");
    assertThat(http.get("/shares/nope").status).isEqualTo(404);
    assertThat(http.get("/not-an-api").status).isEqualTo(404);
  }

  @Test
  void badPagingParametersAre400() {
    assertThat(http.get("/shares?maxResults=-1").status).isEqualTo(400);
    assertThat(http.get("/shares?maxResults=abc").status).isEqualTo(400);
    Http.Response token = http.get("/shares?pageToken=garbage!");
    assertThat(token.status).isEqualTo(400);
    assertThat(token.errorCode()).isEqualTo("INVALID_PARAMETER_VALUE");
  }
}
