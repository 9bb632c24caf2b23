package io.sharestream.common.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** GCS's JSON API takes the OAuth token in an Authorization header, so a signed GCS request is a URL plus headers. */
class GcsSignerTest {
  private static final Instant NOW = Instant.parse("2024-06-13T16:05:07Z");
  private static final String TOKEN = "ya29.a0AfB_byC-example-oauth-token";
  private static final StorageCredentials CREDENTIALS = StorageCredentials.gcpOauth("gs://bucket/tables/sales",
      TOKEN, Instant.parse("2024-06-13T17:05:07Z"));

  @Test
  void anObjectIsReadThroughTheJsonApiWithTheTokenInAHeader() {
    GcsSigner signer = new GcsSigner(CREDENTIALS, StorageSettings.defaults());

    SignedRequest r = signer.presignGet(CREDENTIALS.location().resolve("day=a%3Ab/part-0 1.parquet"), NOW,
        Duration.ofHours(3));

    // the object name is one path segment: its slashes are encoded
    assertThat(r.url()).isEqualTo("https://storage.googleapis.com/storage/v1/b/bucket/o/"
        + "tables%2Fsales%2Fday%3Da%3Ab%2Fpart-0%201.parquet?alt=media");
    assertThat(r.headers()).isEqualTo(Collections.singletonMap("Authorization", "Bearer " + TOKEN));
    assertThat(r.url()).doesNotContain(TOKEN);
    assertThat(r.expiresAt()).isEqualTo(CREDENTIALS.expiresAt());
    assertThat(r.toString()).doesNotContain(TOKEN).contains("[Authorization]");
  }

  @Test
  void listsObjectsOfAPrefixFromAKeyPageByPage() {
    GcsSigner signer = new GcsSigner(CREDENTIALS, StorageSettings.defaults());
    StorageLocation log = CREDENTIALS.location().resolve("_delta_log/");

    SignedRequest first = signer.presignList(log, "tables/sales/_delta_log/00000000000000000010.json", null, NOW);
    assertThat(first.url()).isEqualTo("https://storage.googleapis.com/storage/v1/b/bucket/o"
        + "?prefix=tables%2Fsales%2F_delta_log%2F&startOffset=tables%2Fsales%2F_delta_log%2F00000000000000000010.json"
        + "&fields=nextPageToken%2Citems%28name%2Csize%2Cupdated%29");
    assertThat(first.headers()).containsEntry("Authorization", "Bearer " + TOKEN);
    assertThat(signer.presignList(log, null, "CkV0YWJsZXMvc2FsZXM=", NOW).url()).isEqualTo(
        "https://storage.googleapis.com/storage/v1/b/bucket/o?prefix=tables%2Fsales%2F_delta_log%2F"
        + "&pageToken=CkV0YWJsZXMvc2FsZXM%3D&fields=nextPageToken%2Citems%28name%2Csize%2Cupdated%29");
  }

  @Test
  void aFakeGcsServerIsReachedAtItsEndpoint() {
    GcsSigner fake = new GcsSigner(CREDENTIALS, StorageSettings.defaults().withGcsEndpoint("http://127.0.0.1:4443"));

    assertThat(fake.presignGet(CREDENTIALS.location().resolve("p.parquet"), NOW, Duration.ofMinutes(1)).url())
        .isEqualTo("http://127.0.0.1:4443/storage/v1/b/bucket/o/tables%2Fsales%2Fp.parquet?alt=media");
  }

  @Test
  void expiredTokensAndOtherStoresAreRefused() {
    GcsSigner signer = new GcsSigner(CREDENTIALS, StorageSettings.defaults());

    assertThatThrownBy(() -> signer.presignGet(CREDENTIALS.location().resolve("p"), CREDENTIALS.expiresAt(),
        Duration.ofMinutes(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> signer.presignList(StorageLocation.parse("s3://bucket/x/"), null, null, NOW))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
