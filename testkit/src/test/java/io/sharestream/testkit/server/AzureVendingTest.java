package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sharestream.testkit.storage.Azurite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table {@linkplain DeltaSharingServer.Builder#storedInAzure stored in Azure}: its location is its Azurite
 * container's, and the SAS token vended for it lists and reads that container in a real Azurite (its own signature
 * check), and nothing else: not another container, not after it expires, not with its signature altered.
 */
class AzureVendingTest {
  private static Azurite azurite;
  @TempDir static Path tmp;
  private static DeltaSharingServer server;
  private static Http http;
  private static String blobs;

  @BeforeAll
  static void start() {
    assumeTrue(Azurite.nodeAvailable(), "Node.js runs Azurite: none on the PATH");
    azurite = Azurite.start();
    Path events = Fixtures.fiveVersions(tmp.resolve("events"), true).dir();
    azurite.createContainer("events");
    azurite.createContainer("other");
    server = DeltaSharingServer.builder().table("s", "sc", "t", events, true).accessModes("s.sc.t", AccessMode.DIR)
        .storedInAzure("s.sc.t", "events").credentialTtl(Duration.ofSeconds(3)).start();
    assertThat(azurite.mirror(events, "events", "s/sc/t")).isPositive();
    assertThat(azurite.mirror(events, "events", "s/sc/t")).as("mirrored already").isZero();
    azurite.mirror(events, "other", "s/sc/t");
    http = new Http(server);
    blobs = azurite.endpointTemplate().replace("{account}", Azurite.ACCOUNT);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (azurite != null) {
      azurite.close();
    }
  }

  @Test
  void theVendedTokenListsAndReadsTheTablesContainerUntilItExpires() throws Exception {
    long before = System.currentTimeMillis();
    JsonNode c = DirAccess.credentials(http, "s.sc.t");
    assertThat(c.path("location").asText())
        .isEqualTo("abfss://events@devstoreaccount1.dfs.core.windows.net/s/sc/t");
    assertThat(c.has("awsTempCredentials")).isFalse();
    String sas = c.path("azureUserDelegationSas").path("sasToken").asText();
    long expires = c.path("expirationTime").asLong();
    assertThat(expires).isBetween(before + 1000, System.currentTimeMillis() + 3000);
    assertThat(sas).contains("sp=rl").contains("sr=c").contains("se=" + Instant.ofEpochMilli(expires).toString()
        .replace(":", "%3A"));

    Http.Response list = Http.download(blobs + "/events?restype=container&comp=list&prefix=s/sc/t/_delta_log/&"
        + sas, null);
    assertThat(list.status).isEqualTo(200);
    assertThat(list.raw.body()).contains("<Name>s/sc/t/_delta_log/00000000000000000000.json</Name>");
    Http.Response commit = Http.download(blobs + "/events/s/sc/t/_delta_log/00000000000000000000.json?" + sas,
        null);
    assertThat(commit.status).isEqualTo(200);
    assertThat(commit.raw.body()).isEqualTo(Files.readString(server.tables().get("s.sc.t").dir()
        .resolve("_delta_log/00000000000000000000.json")));

    assertThat(Http.download(blobs + "/other/s/sc/t/_delta_log/00000000000000000000.json?" + sas, null).status)
        .as("another container").isEqualTo(403);
    assertThat(Http.download(blobs + "/events/s/sc/t/_delta_log/00000000000000000000.json?"
        + sas.replaceAll("sig=[^&]*", "sig=AAAA"), null).status).as("a forged signature").isEqualTo(403);
    Thread.sleep(Math.max(0, expires - System.currentTimeMillis()) + 1100);
    assertThat(Http.download(blobs + "/events/s/sc/t/_delta_log/00000000000000000000.json?" + sas, null).status)
        .as("after its expiry").isEqualTo(403);
  }

  @Test
  void aLocationOutsideTheTableIsRefused() {
    assertThat(DirAccess.vend(http, "s.sc.t",
        "{\"location\":\"abfss://events@devstoreaccount1.dfs.core.windows.net/s/sc/t/_delta_log\"}").status)
        .isEqualTo(200);
    assertThat(DirAccess.vend(http, "s.sc.t",
        "{\"location\":\"abfss://events@devstoreaccount1.dfs.core.windows.net/s/sc/other\"}").status)
        .isEqualTo(400);
  }
}
