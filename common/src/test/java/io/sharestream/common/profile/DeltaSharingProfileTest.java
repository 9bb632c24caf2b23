package io.sharestream.common.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.InvalidSettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeltaSharingProfileTest {
  @TempDir Path tmp;

  @Test
  void versionOneBearerProfileWithExpiry() throws Exception {
    Path f = Files.writeString(tmp.resolve("p.share"), "{\"shareCredentialsVersion\":1,"
        + "\"endpoint\":\"https://sharing.example.com/delta-sharing/\",\"bearerToken\":\"tok-123\","
        + "\"expirationTime\":\"2021-11-12T00:12:29.0Z\"}");
    DeltaSharingProfile p = DeltaSharingProfile.fromFile(f);
    assertThat(p.version()).isEqualTo(1);
    assertThat(p.type()).isEqualTo(DeltaSharingProfile.Type.BEARER_TOKEN);
    assertThat(p.endpoint()).isEqualTo("https://sharing.example.com/delta-sharing");
    assertThat(p.bearerToken()).isEqualTo("tok-123");
    assertThat(p.expirationTime()).isEqualTo(Instant.parse("2021-11-12T00:12:29Z"));
    assertThat(p.toString()).doesNotContain("tok-123").contains("<redacted>");
  }

  @Test
  void versionTwoOAuthProfile() {
    DeltaSharingProfile p = DeltaSharingProfile.fromJson("{\"shareCredentialsVersion\":2,"
        + "\"type\":\"OAuth_Client_Credentials\",\"endpoint\":\"https://h/ds\",\"tokenEndpoint\":\"https://h/token\","
        + "\"clientId\":\"cid\",\"clientSecret\":\"very-secret\",\"scope\":\"s1\"}");
    assertThat(p.type()).isEqualTo(DeltaSharingProfile.Type.OAUTH_CLIENT_CREDENTIALS);
    assertThat(p.clientId()).isEqualTo("cid");
    assertThat(p.scope()).isEqualTo("s1");
    assertThat(p.toString()).doesNotContain("very-secret").contains("cid");
  }

  @Test
  void optionsFormBuildsTheSameProfile() {
    DeltaSharingProfile p = DeltaSharingProfile.fromMap(Map.of("shareCredentialsVersion", "1",
        "endpoint", "http://127.0.0.1:1/x", "bearerToken", "t"));
    assertThat(p).isEqualTo(DeltaSharingProfile.fromJson(
        "{\"shareCredentialsVersion\":1,\"endpoint\":\"http://127.0.0.1:1/x\",\"bearerToken\":\"t\"}"));
  }

  @Test
  void badProfilesNameTheFieldAtFault() {
    assertBad("not json", "not valid JSON");
    assertBad("[]", "JSON object");
    assertBad("{\"endpoint\":\"https://h\",\"bearerToken\":\"t\"}", "'shareCredentialsVersion'");
    assertBad("{\"shareCredentialsVersion\":\"one\",\"endpoint\":\"https://h\",\"bearerToken\":\"t\"}",
        "must be an integer");
    assertBad("{\"shareCredentialsVersion\":3,\"endpoint\":\"https://h\",\"bearerToken\":\"t\"}",
        "newer than this reader supports");
    assertBad("{\"shareCredentialsVersion\":1,\"bearerToken\":\"t\"}", "'endpoint'");
    assertBad("{\"shareCredentialsVersion\":1,\"endpoint\":\"ftp://h\",\"bearerToken\":\"t\"}", "http(s) URL");
    assertBad("{\"shareCredentialsVersion\":1,\"endpoint\":\"https://h\"}", "'bearerToken'");
    assertBad("{\"shareCredentialsVersion\":1,\"endpoint\":\"https://h\",\"bearerToken\":\" \"}", "'bearerToken'");
    assertBad("{\"shareCredentialsVersion\":1,\"endpoint\":\"https://h\",\"bearerToken\":\"t\","
        + "\"expirationTime\":\"tomorrow\"}", "'expirationTime'");
    assertBad("{\"shareCredentialsVersion\":2,\"endpoint\":\"https://h\",\"bearerToken\":\"t\"}", "'type'");
    assertBad("{\"shareCredentialsVersion\":2,\"type\":\"basic\",\"endpoint\":\"https://h\"}", "'username'");
    assertBad("{\"shareCredentialsVersion\":2,\"type\":\"oauth_client_credentials\",\"endpoint\":\"https://h\","
        + "\"clientId\":\"c\",\"clientSecret\":\"s\"}", "'tokenEndpoint'");
    assertBad("{\"shareCredentialsVersion\":2,\"type\":\"oauth_client_credentials\",\"endpoint\":\"https://h\","
        + "\"tokenEndpoint\":\"https://h/t\",\"clientSecret\":\"s\"}", "'clientId'");
    assertBad("{\"shareCredentialsVersion\":2,\"type\":\"oauth_client_credentials\",\"endpoint\":\"https://h\","
        + "\"tokenEndpoint\":\"https://h/t\",\"clientId\":\"c\"}", "'clientSecret'");
    assertBad("{\"shareCredentialsVersion\":1,\"type\":\"oauth_client_credentials\",\"endpoint\":\"https://h\","
        + "\"tokenEndpoint\":\"https://h/t\",\"clientId\":\"c\",\"clientSecret\":\"s\"}", "needs 'shareCredentialsVersion' 2");
    assertThatThrownBy(() -> DeltaSharingProfile.fromFile(tmp.resolve("missing.share")))
        .isInstanceOf(InvalidProfileException.class).hasMessageContaining("missing.share").hasMessageContaining("does not exist");
  }

  @Test
  void secretsNeverAppearInProfileErrors() {
    assertThatThrownBy(() -> DeltaSharingProfile.fromJson("{\"shareCredentialsVersion\":9,"
        + "\"endpoint\":\"https://h\",\"bearerToken\":\"SECRET-TOKEN\"}")).hasMessageNotContaining("SECRET-TOKEN");
    assertThatThrownBy(() -> DeltaSharingProfile.fromJson("{\"shareCredentialsVersion\":2,\"type\":\"x\","
        + "\"endpoint\":\"https://h\",\"clientSecret\":\"SECRET\"}")).hasMessageNotContaining("SECRET");
  }

  private static void assertBad(String json, String message) {
    assertThatThrownBy(() -> DeltaSharingProfile.fromJson(json)).isInstanceOf(InvalidProfileException.class)
        .hasMessageContaining(message);
  }

  @Test
  void tablePathSplitsAtTheLastHash() {
    TablePath p = TablePath.parse("/opt/profiles/prod#1.share#analytics.streaming.events");
    assertThat(p.profileLocation()).isEqualTo("/opt/profiles/prod#1.share");
    assertThat(p.table()).isEqualTo(new TableRef("analytics", "streaming", "events"));
    assertThatThrownBy(() -> TablePath.parse("/opt/p.share")).isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("<profile-file>#<share>.<schema>.<table>");
    assertThatThrownBy(() -> TablePath.parse("/p#a.b")).hasMessageContaining("'a.b'");
    assertThatThrownBy(() -> TablePath.parse("/p#a..c")).hasMessageContaining("'a..c'");
    assertThatThrownBy(() -> TableRef.parse("a.b.c.d", "tables")).hasMessageContaining("tables must name");
  }
}
