package io.sharestream.common.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.ProtocolViolationException;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StorageCredentialsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void readsAwsCredentialsFromTheProtocolsAnswer() throws Exception {
    StorageCredentials c = StorageCredentials.fromJson(json("{\"credentials\": {\"location\": "
        + "\"s3://bucket/path/to/table\", \"awsTempCredentials\": {\"accessKeyId\": \"ASIAEXAMPLEID\", "
        + "\"secretAccessKey\": \"aws-secret-1a2b3c\", \"sessionToken\": \"aws-session-4d5e6f\"}, "
        + "\"expirationTime\": 1718298900000}}"));

    assertThat(c.kind()).isEqualTo(StorageCredentials.Kind.AWS);
    assertThat(c.location()).isEqualTo(StorageLocation.parse("s3://bucket/path/to/table"));
    assertThat(c.accessKeyId()).isEqualTo("ASIAEXAMPLEID");
    assertThat(c.secretAccessKey()).isEqualTo("aws-secret-1a2b3c");
    assertThat(c.sessionToken()).isEqualTo("aws-session-4d5e6f");
    assertThat(c.expiresAt()).isEqualTo(Instant.ofEpochMilli(1718298900000L));
    assertThat(c.signer(StorageSettings.defaults())).isInstanceOf(S3Signer.class);
  }

  @Test
  void readsTheInnerObjectAzureAndGcpCredentialsAndUnityCatalogsSnakeCase() throws Exception {
    StorageCredentials azure = StorageCredentials.fromJson(json("{\"location\": "
        + "\"abfss://c@acct.dfs.core.windows.net/t\", \"azureUserDelegationSas\": {\"sasToken\": "
        + "\"?sv=2023-11-03&se=2024-06-13T17%3A15%3A00Z&sr=d&sp=rl&sig=azure-sig-7g8h9i\"}, "
        + "\"expirationTime\": \"1718298900000\"}"));
    assertThat(azure.kind()).isEqualTo(StorageCredentials.Kind.AZURE_SAS);
    assertThat(azure.sasToken()).isEqualTo("sv=2023-11-03&se=2024-06-13T17%3A15%3A00Z&sr=d&sp=rl"
        + "&sig=azure-sig-7g8h9i");
    assertThat(azure.signer(StorageSettings.defaults())).isInstanceOf(AzureSasSigner.class);

    StorageCredentials gcp = StorageCredentials.fromJson(json("{\"credentials\": {\"location\": \"gs://b/t\", "
        + "\"gcpOauthToken\": {\"oauthToken\": \"ya29.gcp-token-0j1k2l\"}, \"expirationTime\": 1718298900000}}"));
    assertThat(gcp.kind()).isEqualTo(StorageCredentials.Kind.GCP_OAUTH);
    assertThat(gcp.oauthToken()).isEqualTo("ya29.gcp-token-0j1k2l");
    assertThat(gcp.signer(StorageSettings.defaults())).isInstanceOf(GcsSigner.class);

    StorageCredentials uc = StorageCredentials.fromJson(json("{\"aws_temp_credentials\": {\"access_key_id\": "
        + "\"ASIAUC\", \"secret_access_key\": \"uc-secret-3m4n5o\", \"session_token\": \"uc-session-6p7q8r\"}, "
        + "\"expiration_time\": 1718298900000, \"location\": \"s3://b/t\"}"));
    assertThat(uc.secretAccessKey()).isEqualTo("uc-secret-3m4n5o");
    assertThat(uc.sessionToken()).isEqualTo("uc-session-6p7q8r");
  }

  @Test
  void noSecretShowsInItsTextOrInAnyMessage() throws Exception {
    StorageCredentials aws = StorageCredentials.fromJson(json("{\"credentials\": {\"location\": \"s3://b/t\", "
        + "\"awsTempCredentials\": {\"accessKeyId\": \"ASIAEXAMPLEID\", \"secretAccessKey\": "
        + "\"aws-secret-9s8t7u\", \"sessionToken\": \"aws-session-6v5w4x\"}, \"expirationTime\": 1718298900000}}"));
    StorageCredentials azure = StorageCredentials.azureSas("wasbs://c@acct.blob.core.windows.net/t",
        "sv=2023-11-03&sig=Zm9vYmFy%2Bc2lnbmF0dXJl%3D", Instant.ofEpochMilli(1718298900000L));

    assertThat(aws.toString()).isEqualTo("StorageCredentials{AWS for s3://b/t, expires 2024-06-13T17:15:00Z}");
    assertThat(azure.toString()).doesNotContain("sig").doesNotContain("Zm9v");
    assertThat(Errors.redact("denied: key aws-secret-9s8t7u token aws-session-6v5w4x sig Zm9vYmFy+c2lnbmF0dXJl= "
        + "raw Zm9vYmFy%2Bc2lnbmF0dXJl%3D")).doesNotContain("aws-secret").doesNotContain("aws-session")
        .doesNotContain("Zm9v");
  }

  @Test
  void secretsAreRegisteredEvenWhenTheAnswerIsRefused() throws Exception {
    assertThatThrownBy(() -> StorageCredentials.fromJson(json("{\"location\": \"s3://b/t\", \"awsTempCredentials\": "
        + "{\"secretAccessKey\": \"refused-secret-1y2z\"}, \"expirationTime\": 1}")))
        .isInstanceOf(ProtocolViolationException.class);
    assertThat(Errors.redact("x refused-secret-1y2z")).isEqualTo("x <redacted>");
  }

  @Test
  void aMissingFieldFailsNamingIt() {
    assertRefused("{\"credentials\": {\"location\": \"s3://b/t\", \"awsTempCredentials\": {\"accessKeyId\": \"A\","
        + " \"sessionToken\": \"s-123456789\"}, \"expirationTime\": 1}}",
        "the field awsTempCredentials.secretAccessKey is missing or empty");
    assertRefused("{\"location\": \"s3://b/t\", \"awsTempCredentials\": {\"accessKeyId\": \"A\", \"secretAccessKey\":"
        + " \"s-123456789\"}}", "the field expirationTime (epoch milliseconds) is missing or not a number");
    assertRefused("{\"awsTempCredentials\": {\"accessKeyId\": \"A\", \"secretAccessKey\": \"s-123456789\"}, "
        + "\"expirationTime\": 1}", "the field location is missing or empty");
    assertRefused("{\"location\": \"gs://b/t\", \"gcpOauthToken\": {\"oauthToken\": \"\"}, \"expirationTime\": 1}",
        "the field gcpOauthToken.oauthToken is missing or empty");
    assertRefused("{\"credentials\": [1]}", "the answer holds no credentials object");
  }

  @Test
  void credentialsOfAnUnknownKindOrOfSeveralFailSayingWhichKindsAreKnown() {
    assertRefused("{\"credentials\": {\"location\": \"r2://b/t\", \"r2TempCredentials\": {\"accessKeyId\": \"A\"},"
        + " \"expirationTime\": 1}}", "they are of a kind this reader does not know (fields: location, "
        + "r2TempCredentials, expirationTime; known kinds: awsTempCredentials, azureUserDelegationSas, "
        + "gcpOauthToken)");
    assertRefused("{\"location\": \"s3://b/t\", \"awsTempCredentials\": {\"accessKeyId\": \"A\", "
        + "\"secretAccessKey\": \"s-123456789\"}, \"gcpOauthToken\": {\"oauthToken\": \"t-123456789\"}, "
        + "\"expirationTime\": 1}", "they hold several kinds of credentials ([AWS, GCP_OAUTH]) where one is expected");
    assertThatThrownBy(() -> StorageCredentials.fromJson(json("{\"location\": \"hdfs://nn/t\", "
        + "\"gcpOauthToken\": {\"oauthToken\": \"t-123456789\"}, \"expirationTime\": 1}")))
        .isInstanceOf(ProtocolViolationException.class).hasMessageContaining("scheme 'hdfs'");
  }

  @Test
  void theClosestCoveringCredentialsAreChosenForAFile() {
    Instant later = Instant.parse("2030-01-01T00:00:00Z");
    StorageCredentials root = StorageCredentials.aws("s3://b/tables/t", "A", "root-secret-1", null, later);
    StorageCredentials aux = StorageCredentials.aws("s3://b/tables/t/deep/aux", "A", "aux-secret-1", null, later);
    StorageCredentials other = StorageCredentials.gcpOauth("gs://g/tables", "ya29.other-token", later);
    Iterable<StorageCredentials> all = Arrays.asList(aux, other, root);

    assertThat(StorageCredentials.covering(all, root.location().resolve("p.parquet"))).isSameAs(root);
    assertThat(StorageCredentials.covering(all, root.location().resolve("deep/aux/p.parquet"))).isSameAs(aux);
    assertThat(StorageCredentials.covering(all, StorageLocation.parse("gs://g/tables/x/p"))).isSameAs(other);
    assertThat(StorageCredentials.covering(all, StorageLocation.parse("s3://b/tables/t2/p"))).isNull();
  }

  private static void assertRefused(String answer, String problem) {
    assertThatThrownBy(() -> StorageCredentials.fromJson(json(answer))).isInstanceOf(ProtocolViolationException.class)
        .hasMessage("The temporary table credentials the sharing server answered cannot be used to read the table's "
            + "storage: " + problem + ". Report this to the data provider (or the server's maintainers).");
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
