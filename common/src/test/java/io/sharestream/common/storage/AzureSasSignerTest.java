package io.sharestream.common.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AzureSasSignerTest {
  private static final Instant NOW = Instant.parse("2024-06-13T16:05:07Z");
  private static final String SAS = "sv=2023-11-03&st=2024-06-13T16%3A00%3A00Z&se=2024-06-13T17%3A15%3A00Z"
      + "&skoid=oid&sktid=tid&skt=2024-06-13T16%3A00%3A00Z&ske=2024-06-13T17%3A15%3A00Z&sks=b&skv=2023-11-03"
      + "&sr=d&sdd=2&sp=rl&sig=c2lnbmF0dXJlLW9mLXRoZS1zYXM%3D";
  private static final StorageCredentials CREDENTIALS = StorageCredentials.azureSas(
      "abfss://container@account.dfs.core.windows.net/tables/sales", "?" + SAS, Instant.parse("2024-06-13T18:00:00Z"));

  @Test
  void aBlobIsReadOnTheAccountsBlobEndpointWithTheSasAsItsQuery() {
    AzureSasSigner signer = new AzureSasSigner(CREDENTIALS, StorageSettings.defaults());

    SignedRequest r = signer.presignGet(CREDENTIALS.location().resolve("day=a%3Ab/part-0 1.parquet"), NOW,
        Duration.ofMinutes(30));

    assertThat(r.url()).isEqualTo("https://account.blob.core.windows.net/container/tables/sales/day%3Da%3Ab/"
        + "part-0%201.parquet?" + SAS);
    assertThat(r.headers()).isEmpty();
    assertThat(r.expiresAt()).isEqualTo(NOW.plus(Duration.ofMinutes(30)));
  }

  @Test
  void theExpiryIsTheEarliestOfTheValidityTheSasAndTheCredentials() {
    AzureSasSigner signer = new AzureSasSigner(CREDENTIALS, StorageSettings.defaults());
    StorageLocation object = CREDENTIALS.location().resolve("part-0.parquet");

    assertThat(signer.presignGet(object, NOW, Duration.ofHours(5)).expiresAt())
        .isEqualTo(Instant.parse("2024-06-13T17:15:00Z")); // se=, before the credentials' expirationTime
    StorageCredentials noSe = StorageCredentials.azureSas("abfss://container@account.dfs.core.windows.net/t",
        "sv=2023-11-03&sig=abcdefghijkl", Instant.parse("2024-06-13T18:00:00Z"));
    assertThat(new AzureSasSigner(noSe, StorageSettings.defaults()).presignGet(noSe.location().resolve("p"), NOW,
        Duration.ofHours(5)).expiresAt()).isEqualTo(noSe.expiresAt());
    assertThatThrownBy(() -> signer.presignGet(object, Instant.parse("2024-06-13T18:00:00Z"), Duration.ofHours(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(AzureSasSigner.signedExpiry("se=2024-06-13")).isEqualTo(Instant.parse("2024-06-13T00:00:00Z"));
    assertThat(AzureSasSigner.signedExpiry("sv=x&se=2024-06-13T17:15Z")).isEqualTo(
        Instant.parse("2024-06-13T17:15:00Z"));
    assertThat(AzureSasSigner.signedExpiry("se=tomorrow")).isNull();
  }

  @Test
  void listsBlobsOfAPrefixPageByPage() {
    AzureSasSigner signer = new AzureSasSigner(CREDENTIALS, StorageSettings.defaults());
    StorageLocation log = CREDENTIALS.location().resolve("_delta_log/");

    assertThat(signer.presignList(log, "tables/sales/_delta_log/00000000000000000010.json", null, NOW).url())
        .isEqualTo("https://account.blob.core.windows.net/container?restype=container&comp=list"
            + "&prefix=tables%2Fsales%2F_delta_log%2F&" + SAS);
    SignedRequest page2 = signer.presignList(log, null, "2!152!MDAwMDQ2IXRhYmxlcy9zYWxlcw--", NOW);
    assertThat(page2.url()).isEqualTo("https://account.blob.core.windows.net/container?restype=container&comp=list"
        + "&prefix=tables%2Fsales%2F_delta_log%2F&marker=2%21152%21MDAwMDQ2IXRhYmxlcy9zYWxlcw--&" + SAS);
    assertThat(page2.expiresAt()).isEqualTo(NOW.plus(StorageSigner.LIST_VALIDITY));
  }

  @Test
  void anEmulatorEndpointTakesTheAccountInItsPath() {
    AzureSasSigner azurite = new AzureSasSigner(CREDENTIALS, StorageSettings.defaults()
        .withAzureEndpoint("http://127.0.0.1:10000/{account}/"));

    assertThat(azurite.presignGet(CREDENTIALS.location().resolve("p.parquet"), NOW, Duration.ofMinutes(1)).url())
        .isEqualTo("http://127.0.0.1:10000/account/container/tables/sales/p.parquet?" + SAS);
    assertThat(azurite.presignList(CREDENTIALS.location(), null, null, NOW).url())
        .startsWith("http://127.0.0.1:10000/account/container?restype=container&comp=list&prefix=tables%2Fsales&sv=");
  }

  @Test
  void onlyAzureObjectsAreSignedAndNoTokenIsShown() {
    AzureSasSigner signer = new AzureSasSigner(CREDENTIALS, StorageSettings.defaults());

    assertThatThrownBy(() -> signer.presignGet(StorageLocation.parse("s3://b/k"), NOW, Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(signer.toString() + signer.presignGet(CREDENTIALS.location().resolve("p"), NOW, Duration.ofMinutes(1)))
        .doesNotContain("sig=").doesNotContain("c2lnbmF0");
  }
}
