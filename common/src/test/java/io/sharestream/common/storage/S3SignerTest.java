package io.sharestream.common.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * SigV4 query-string signing checked against AWS's documented example and against URLs the AWS SDK for JavaScript v3
 * made (3.1178: {@code getSignedUrl} of {@code @aws-sdk/s3-request-presigner}, and its {@code SignatureV4} signer,
 * which also reproduces AWS's documented example), never against this signer's own output.
 */
class S3SignerTest {
  private static final Instant WHEN = Instant.parse("2024-06-13T16:05:07Z");
  private static final String SESSION = "IQoJb3JpZ2luX2VjEXAMPLE//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token/with+plus"
      + "=and/slashes==";
  private static final StorageCredentials STS = StorageCredentials.aws("s3://my-bucket/tables/sales",
      "ASIAQEXAMPLEKEYID123", "k9/Xl2Pq+Zt7w4Rb1mNcT8vYhJ0sEXAMPLEsecret", SESSION, WHEN.plus(Duration.ofHours(12)));
  /** A key with a space, '+', parentheses, '!', ''', '*', '~' and non-ASCII letters. */
  private static final String KEY = "tables/sales/day=2024-01-01/part-00000-a b+c(1)!'*~ü€.snappy.parquet";
  private static final String ENCODED_KEY = "tables/sales/day%3D2024-01-01/part-00000-a%20b%2Bc%281%29%21%27%2A~%C3%BC"
      + "%E2%82%AC.snappy.parquet";
  private static final String ENCODED_SESSION = "IQoJb3JpZ2luX2VjEXAMPLE%2F%2F%2F%2F%2F%2F%2F%2F%2F%2FwEaCXVzLWVhc3QtMS"
      + "JHMEUCIQD%2Btoken%2Fwith%2Bplus%3Dand%2Fslashes%3D%3D";

  @Test
  void signsAwsDocumentedPresignedUrlExampleExactly() {
    // "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)", Example: Presigned URL
    StorageCredentials example = StorageCredentials.aws("s3://examplebucket/", "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", null, Instant.parse("2013-06-01T00:00:00Z"));
    S3Signer signer = new S3Signer(example, StorageSettings.defaults().withS3Endpoint("https://s3.amazonaws.com"));

    SignedRequest r = signer.presignGet(StorageLocation.parse("s3://examplebucket/test.txt"),
        Instant.parse("2013-05-24T00:00:00Z"), Duration.ofSeconds(86400));

    assertThat(r.url()).isEqualTo("https://examplebucket.s3.amazonaws.com/test.txt"
        + "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
        + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
        + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
    assertThat(r.headers()).isEmpty();
    assertThat(r.expiresAt()).isEqualTo(Instant.parse("2013-05-25T00:00:00Z"));
  }

  @Test
  void signsAGetWithASessionTokenAndAKeyNeedingEncodingAsTheAwsSdkDoes() {
    S3Signer signer = new S3Signer(STS, StorageSettings.defaults().withS3Region("eu-west-1"));

    SignedRequest r = signer.presignGet(StorageLocation.parse("s3://my-bucket/").withKey(KEY), WHEN,
        Duration.ofHours(1));

    // @smithy/signature-v4 SignatureV4.presign, the path as getSignedUrl(GetObjectCommand) encodes the key
    assertThat(r.url()).isEqualTo("https://my-bucket.s3.eu-west-1.amazonaws.com/" + ENCODED_KEY
        + "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        + "&X-Amz-Credential=ASIAQEXAMPLEKEYID123%2F20240613%2Feu-west-1%2Fs3%2Faws4_request"
        + "&X-Amz-Date=20240613T160507Z&X-Amz-Expires=3600&X-Amz-Security-Token=" + ENCODED_SESSION
        + "&X-Amz-SignedHeaders=host"
        + "&X-Amz-Signature=a475bd44942db3eaf23b6992ae01907176d8e782cded1229a568d7569fafe2e8");
    assertThat(r.expiresAt()).isEqualTo(WHEN.plusSeconds(3600));
  }

  @Test
  void signsTheSdksOwnGetObjectUrlWithTheParametersItAdds() {
    S3Signer signer = new S3Signer(STS, StorageSettings.defaults().withS3Region("eu-west-1"));
    List<String[]> sdkParams = new ArrayList<>();
    sdkParams.add(new String[] {"X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD"});
    sdkParams.add(new String[] {"x-amz-checksum-mode", "ENABLED"});
    sdkParams.add(new String[] {"x-id", "GetObject"});

    SignedRequest r = signer.presign("my-bucket", KEY, sdkParams, WHEN, Duration.ofHours(1));

    // getSignedUrl(client, new GetObjectCommand({Bucket, Key}), {expiresIn: 3600, signingDate})
    assertSameRequest(r.url(), "https://my-bucket.s3.eu-west-1.amazonaws.com/" + ENCODED_KEY
        + "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD"
        + "&X-Amz-Credential=ASIAQEXAMPLEKEYID123%2F20240613%2Feu-west-1%2Fs3%2Faws4_request"
        + "&X-Amz-Date=20240613T160507Z&X-Amz-Expires=3600&X-Amz-Security-Token=" + ENCODED_SESSION
        + "&X-Amz-Signature=51c4051b9d2739ae344e7385d54c655f5353fba8fb041e924bb2536d52dddf3d"
        + "&X-Amz-SignedHeaders=host&x-amz-checksum-mode=ENABLED&x-id=GetObject");
  }

  @Test
  void signsAListObjectsV2PageFromAKeyAsTheAwsSdkDoes() {
    S3Signer signer = new S3Signer(STS, StorageSettings.defaults().withS3Region("eu-west-1"));
    StorageLocation log = StorageLocation.parse("s3://my-bucket/tables/sales/_delta_log/");
    String from = "tables/sales/_delta_log/00000000000000000010.json";

    SignedRequest r = signer.presignList(log, from, null, WHEN);

    // SignatureV4.presign of GET / with the query list-type, prefix and start-after
    assertThat(r.url()).isEqualTo("https://my-bucket.s3.eu-west-1.amazonaws.com/"
        + "?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        + "&X-Amz-Credential=ASIAQEXAMPLEKEYID123%2F20240613%2Feu-west-1%2Fs3%2Faws4_request"
        + "&X-Amz-Date=20240613T160507Z&X-Amz-Expires=900&X-Amz-Security-Token=" + ENCODED_SESSION
        + "&X-Amz-SignedHeaders=host&list-type=2&prefix=tables%2Fsales%2F_delta_log%2F"
        + "&start-after=tables%2Fsales%2F_delta_log%2F00000000000000000010.json"
        + "&X-Amz-Signature=249fbbb7bb00b4f4e0b68eda1a16eff3e9331e059e91d2b65d22c4d55a20226d");
    assertThat(r.expiresAt()).isEqualTo(WHEN.plus(StorageSigner.LIST_VALIDITY));

    // getSignedUrl(client, new ListObjectsV2Command({Bucket, Prefix, StartAfter}), {expiresIn: 900, signingDate})
    List<String[]> sdk = listParams("tables/sales/_delta_log/", "start-after", from);
    assertSameRequest(signer.presign("my-bucket", null, sdk, WHEN, Duration.ofSeconds(900)).url(),
        "https://my-bucket.s3.eu-west-1.amazonaws.com/?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        + "&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD"
        + "&X-Amz-Credential=ASIAQEXAMPLEKEYID123%2F20240613%2Feu-west-1%2Fs3%2Faws4_request"
        + "&X-Amz-Date=20240613T160507Z&X-Amz-Expires=900&X-Amz-Security-Token=" + ENCODED_SESSION
        + "&X-Amz-Signature=53b9444910e246628459295a9f1b4b2d2bb561d09b06fd63fc71b8466f48f091"
        + "&X-Amz-SignedHeaders=host&list-type=2&prefix=tables%2Fsales%2F_delta_log%2F"
        + "&start-after=tables%2Fsales%2F_delta_log%2F00000000000000000010.json");
  }

  @Test
  void signsTheNextListPageOnAPathStyleS3CompatibleServerAsTheAwsSdkDoes() {
    StorageSettings minio = StorageSettings.defaults().withS3Endpoint("http://127.0.0.1:9000/").withS3PathStyle(true);
    S3Signer signer = new S3Signer(STS, minio);
    String token = "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=";

    SignedRequest page2 = signer.presignList(StorageLocation.parse("s3a://my-bucket/tables/sales/_delta_log/"),
        "ignored/when/a/token/is/given/0.json", token, WHEN);
    assertThat(page2.url()).startsWith("http://127.0.0.1:9000/my-bucket/?")
        .contains("&continuation-token=1ueGcxLPRx1Tr%2FXYExHnhbYLgveDs2J%2Fwm36Hy4vbOwM%3D&")
        .contains("X-Amz-Credential=ASIAQEXAMPLEKEYID123%2F20240613%2Fus-east-1%2Fs3%2Faws4_request");

    // getSignedUrl(S3Client{endpoint: http://127.0.0.1:9000, forcePathStyle: true, region: us-east-1},
    //     new ListObjectsV2Command({Bucket, Prefix, ContinuationToken}), {expiresIn: 900, signingDate})
    List<String[]> sdk = listParams("tables/sales/_delta_log/", "continuation-token", token);
    assertSameRequest(signer.presign("my-bucket", null, sdk, WHEN, Duration.ofSeconds(900)).url(),
        "http://127.0.0.1:9000/my-bucket/?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD"
        + "&X-Amz-Credential=ASIAQEXAMPLEKEYID123%2F20240613%2Fus-east-1%2Fs3%2Faws4_request"
        + "&X-Amz-Date=20240613T160507Z&X-Amz-Expires=900&X-Amz-Security-Token=" + ENCODED_SESSION
        + "&X-Amz-Signature=459cf3e6287a14afd5d0e6f3302800532c8d300413de40e7cc99878b286f727f"
        + "&X-Amz-SignedHeaders=host&continuation-token=1ueGcxLPRx1Tr%2FXYExHnhbYLgveDs2J%2Fwm36Hy4vbOwM%3D"
        + "&list-type=2&prefix=tables%2Fsales%2F_delta_log%2F");
  }

  @Test
  void aUrlIsValidForTheShortestOfTheValidityTheCredentialsAndSevenDays() {
    S3Signer signer = new S3Signer(STS, StorageSettings.defaults());
    StorageLocation object = StorageLocation.parse("s3://my-bucket/tables/sales/part-0.parquet");

    SignedRequest week = new S3Signer(StorageCredentials.aws("s3://my-bucket/", "AKID", "secretsecret", null,
        WHEN.plus(Duration.ofDays(30))), StorageSettings.defaults()).presignGet(object, WHEN, Duration.ofDays(10));
    assertThat(week.url()).contains("&X-Amz-Expires=604800&");
    assertThat(week.expiresAt()).isEqualTo(WHEN.plus(S3Signer.MAX_VALIDITY));

    SignedRequest credentialsBound = signer.presignGet(object, WHEN.plus(Duration.ofHours(11)).plusMillis(700),
        Duration.ofHours(3));
    assertThat(credentialsBound.url()).contains("&X-Amz-Expires=3600&");
    assertThat(credentialsBound.expiresAt()).isEqualTo(STS.expiresAt());

    assertThat(signer.presignGet(object, WHEN.plusMillis(999), Duration.ofMillis(90_500)).url())
        .contains("&X-Amz-Date=20240613T160507Z&X-Amz-Expires=90&");
  }

  @Test
  void expiredCredentialsAndSubSecondValiditiesAreRefused() {
    S3Signer signer = new S3Signer(STS, StorageSettings.defaults());
    StorageLocation object = StorageLocation.parse("s3://my-bucket/tables/sales/part-0.parquet");

    assertThatThrownBy(() -> signer.presignGet(object, STS.expiresAt(), Duration.ofMinutes(5)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("expired at " + STS.expiresAt());
    assertThat(signer.presignGet(object, STS.expiresAt().minusMillis(400), Duration.ofMinutes(5)).expiresAt())
        .isEqualTo(STS.expiresAt()); // signed at the second before: valid for that second
    assertThatThrownBy(() -> signer.presignGet(object, WHEN, Duration.ofMillis(999)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void urlsAreVirtualHostedByDefaultPathStyleForDottedBucketsOrWhenAsked() {
    StorageCredentials c = StorageCredentials.aws("s3://b/", "AKID", "secretsecret", null,
        WHEN.plus(Duration.ofDays(1)));
    Duration hour = Duration.ofHours(1);

    assertThat(new S3Signer(c, StorageSettings.defaults()).presignGet(StorageLocation.parse("s3://b/k/x.json"), WHEN,
        hour).url()).startsWith("https://b.s3.us-east-1.amazonaws.com/k/x.json?");
    assertThat(new S3Signer(c, StorageSettings.defaults()).presignGet(StorageLocation.parse("s3://my.bucket/x"),
        WHEN, hour).url()).startsWith("https://s3.us-east-1.amazonaws.com/my.bucket/x?");
    assertThat(new S3Signer(c, StorageSettings.defaults().withS3PathStyle(true).withS3Region("eu-central-1"))
        .presignGet(StorageLocation.parse("s3n://b/x"), WHEN, hour).url())
        .startsWith("https://s3.eu-central-1.amazonaws.com/b/x?").contains("%2Feu-central-1%2Fs3%2F");
    assertThat(new S3Signer(c, StorageSettings.defaults().withS3Region("cn-north-1"))
        .presignGet(StorageLocation.parse("s3://b/x"), WHEN, hour).url())
        .startsWith("https://b.s3.cn-north-1.amazonaws.com.cn/x?");
    assertThat(new S3Signer(c, StorageSettings.defaults().withS3Endpoint("https://storage.example.com:443/s3/"))
        .presignGet(StorageLocation.parse("s3://b/x"), WHEN, hour).url())
        .startsWith("https://b.storage.example.com/s3/x?");
  }

  @Test
  void onlyS3ObjectsAreSignedAndNoSecretIsShown() {
    S3Signer signer = new S3Signer(STS, StorageSettings.defaults());

    assertThatThrownBy(() -> signer.presignGet(StorageLocation.parse("gs://my-bucket/x"), WHEN,
        Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> signer.presignGet(StorageLocation.parse("s3://my-bucket/dir/"), WHEN,
        Duration.ofHours(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no object");
    assertThatThrownBy(() -> new S3Signer(StorageCredentials.gcpOauth("gs://b/", "ya29.token-value", WHEN),
        StorageSettings.defaults())).isInstanceOf(IllegalArgumentException.class);
    assertThat(signer.toString() + signer.presignGet(StorageLocation.parse("s3://my-bucket/x"), WHEN,
        Duration.ofHours(1))).doesNotContain(STS.secretAccessKey()).doesNotContain(SESSION)
        .doesNotContain("X-Amz-Signature");
  }

  private static List<String[]> listParams(String prefix, String name, String value) {
    List<String[]> p = new ArrayList<>();
    p.add(new String[] {"X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD"});
    p.add(new String[] {"list-type", "2"});
    p.add(new String[] {"prefix", prefix});
    p.add(new String[] {name, value});
    return p;
  }

  /** The same URL up to the order of its query parameters. */
  private static void assertSameRequest(String actual, String expected) {
    assertThat(actual.substring(0, actual.indexOf('?'))).isEqualTo(expected.substring(0, expected.indexOf('?')));
    assertThat(query(actual)).isEqualTo(query(expected));
  }

  private static Map<String, String> query(String url) {
    Map<String, String> q = new TreeMap<>();
    for (String p : url.substring(url.indexOf('?') + 1).split("&")) {
      q.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1));
    }
    return q;
  }
}
