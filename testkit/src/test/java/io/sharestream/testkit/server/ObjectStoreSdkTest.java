package io.sharestream.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaTableWriter;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * The object store read by the AWS SDK v2's own S3 client and presigner with vended credentials: what a reader of a
 * {@code dir} table does (list {@code _delta_log/}, read byte ranges of data files).
 */
class ObjectStoreSdkTest {
  @TempDir Path tmp;
  DeltaSharingServer server;
  DeltaTableWriter table;
  S3Client s3;
  S3Presigner presigner;
  AwsSessionCredentials session;

  @BeforeEach
  void start() {
    table = Fixtures.fiveVersions(tmp.resolve("events"), true);
    server = DeltaSharingServer.builder().table("s", "sc", "events", table.dir(), true)
        .accessModes("s.sc.events", AccessMode.DIR)
        .auxiliaryLocation("s.sc.events", tmp.resolve("aux")).start();
    Http http = new Http(server);
    session = DirAccess.session(DirAccess.credentials(http, "s.sc.events"));
    s3 = DirAccess.s3(server, session);
    presigner = DirAccess.presigner(server, DirAccess.session(DirAccess.credentials(http, "s.sc.events")));
  }

  @AfterEach
  void stop() {
    s3.close();
    presigner.close();
    server.close();
  }

  private DeltaAction.AddFile firstFile() {
    return table.snapshot().files().iterator().next();
  }

  private String dataFileKey() {
    DeltaAction.AddFile f = firstFile();
    return "s/sc/events/" + f.path;
  }

  @Test
  void theSdkListsTheDeltaLogAndReadsItsCommits() throws Exception {
    ListObjectsV2Response r = s3.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events/_delta_log/"));
    List<String> expected;
    try (Stream<Path> files = Files.list(table.dir().resolve("_delta_log"))) {
      expected = files.map(p -> "s/sc/events/_delta_log/" + p.getFileName()).sorted().collect(Collectors.toList());
    }
    assertThat(r.contents()).extracting(S3Object::key).containsExactlyElementsOf(expected)
        .contains("s/sc/events/_delta_log/00000000000000000004.json");
    assertThat(r.isTruncated()).isFalse();
    S3Object commit = r.contents().get(0);
    assertThat(commit.size()).isEqualTo(Files.size(table.dir().resolve("_delta_log").resolve(commit.key()
        .substring("s/sc/events/_delta_log/".length()))));
    String text = s3.getObjectAsBytes(b -> b.bucket("kit").key("s/sc/events/_delta_log/00000000000000000000.json"))
        .asUtf8String();
    assertThat(text).contains("\"metaData\"").contains("\"protocol\"");
    assertThat(server.requests().entries(Endpoint.OBJECT_STORE)).extracting(e -> e.status).containsExactly(200, 200);
  }

  @Test
  void theSdkReadsByteRangesOfADataFile() throws Exception {
    String key = dataFileKey();
    byte[] file = Files.readAllBytes(table.log().resolve(firstFile().path));
    HeadObjectResponse head = s3.headObject(b -> b.bucket("kit").key(key));
    assertThat(head.contentLength()).isEqualTo(file.length);
    ResponseBytes<GetObjectResponse> magic = s3.getObjectAsBytes(b -> b.bucket("kit").key(key).range("bytes=0-3"));
    assertThat(magic.asUtf8String()).isEqualTo("PAR1");
    assertThat(magic.response().contentRange()).isEqualTo("bytes 0-3/" + file.length);
    assertThat(magic.response().eTag()).isEqualTo(head.eTag());
    ResponseBytes<GetObjectResponse> tail = s3.getObjectAsBytes(b -> b.bucket("kit").key(key).range("bytes=-8"));
    assertThat(tail.asByteArray()).isEqualTo(Arrays.copyOfRange(file, file.length - 8, file.length));
    assertThat(s3.getObjectAsBytes(b -> b.bucket("kit").key(key)).asByteArray()).isEqualTo(file);
    assertThat(server.requests().entries(Endpoint.OBJECT_STORE)).extracting(e -> e.range)
        .containsExactly(null, "bytes=0-3", "bytes=-8", null);
    assertThat(server.requests().entries(Endpoint.OBJECT_STORE)).extracting(e -> e.status)
        .containsExactly(200, 206, 206, 200);
  }

  @Test
  void aPresignedGetFromTheSdkPresignerReadsTheFile() throws Exception {
    String key = dataFileKey();
    byte[] file = Files.readAllBytes(table.log().resolve(firstFile().path));
    URI url = presigner.presignGetObject(b -> b.signatureDuration(Duration.ofMinutes(5))
        .getObjectRequest(g -> g.bucket("kit").key(key))).url().toURI();
    assertThat(url.getRawQuery()).contains("X-Amz-Security-Token=").contains("X-Amz-Expires=300");
    assertThat(Http.downloadBytes(url.toString(), null)).isEqualTo(file);
    Http.Response range = Http.download(url.toString(), "bytes=4-9");
    assertThat(range.status).isEqualTo(206);
    assertThat(range.header("Content-Range")).isEqualTo("bytes 4-9/" + file.length);
    Http.Response beyond = Http.download(url.toString(), "bytes=" + file.length + "-");
    assertThat(beyond.status).isEqualTo(416);
    assertThat(beyond.raw.body()).contains("<Code>InvalidRange</Code>");
    assertThat(beyond.header("Content-Range")).isEqualTo("bytes */" + file.length);
    Http.Response two = Http.download(url.toString(), "bytes=0-1,4-5");
    assertThat(two.status).as("S3 ignores a multiple range").isEqualTo(200);
    Http.Response head = Http.send(HttpRequest.newBuilder(presigner.presignHeadObject(b -> b.signatureDuration(
        Duration.ofMinutes(1)).headObjectRequest(h -> h.bucket("kit").key(key))).url().toURI())
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build());
    assertThat(head.status).isEqualTo(200);
    assertThat(head.header("Content-Length")).isEqualTo(Long.toString(file.length));
    RequestLog.Entry logged = server.requests().entries(Endpoint.OBJECT_STORE).get(0);
    assertThat(logged.query).as("the log keeps no signature or token").isNull();
    assertThat(logged.accessKeyId).startsWith("ASIA");
  }

  /**
   * The SDK's S3 client sends {@code UNSIGNED-PAYLOAD}; the SDK's generic Signature Version 4 signer, with payload
   * signing on, sends the payload's SHA-256, which the store checks against the body it got; the same signer's
   * query-string form signs a listing with its parameters.
   */
  @Test
  void requestsSignedWithTheirPayloadHashByTheSdkSignerAreVerified() {
    URI uri = URI.create(server.objectStore().endpoint() + "/kit/s/sc/events/_delta_log/00000000000000000000.json");
    assertThat(sendSigned(uri, "", AwsV4FamilyHttpSigner.AuthLocation.HEADER).status).isEqualTo(200);
    Http.Response wrongBody = sendSigned(uri, "not the body", AwsV4FamilyHttpSigner.AuthLocation.HEADER);
    assertThat(wrongBody.status).isEqualTo(400);
    assertThat(wrongBody.raw.body()).contains("<Code>XAmzContentSHA256Mismatch</Code>");
    URI list = URI.create(server.objectStore().endpoint() + "/kit?list-type=2&prefix=s%2Fsc%2Fevents%2F_delta_log%2F"
        + "&max-keys=2&start-after=s%2Fsc%2Fevents%2F_delta_log%2F00000000000000000000.json");
    Http.Response page = sendSigned(list, "", AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING);
    assertThat(page.status).as(page.raw.body()).isEqualTo(200);
    assertThat(page.raw.request().uri().getRawQuery()).contains("X-Amz-Expires=300");
    assertThat(page.raw.body()).contains("<KeyCount>2</KeyCount>").contains("<IsTruncated>true</IsTruncated>")
        .contains("<Key>s/sc/events/_delta_log/00000000000000000001.json</Key>")
        .contains("<StartAfter>s/sc/events/_delta_log/00000000000000000000.json</StartAfter>");
  }

  private Http.Response sendSigned(URI uri, String signedPayload, AwsV4FamilyHttpSigner.AuthLocation where) {
    SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(uri).build();
    boolean header = where == AwsV4FamilyHttpSigner.AuthLocation.HEADER;
    SdkHttpRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(session).request(request)
        .payload(header ? ContentStreamProvider.fromUtf8String(signedPayload) : null) // a presigned URL: no payload
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
        .putProperty(AwsV4HttpSigner.REGION_NAME, server.objectStore().region())
        .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
        .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
        .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, header)
        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, header ? null : Duration.ofMinutes(5))
        .putProperty(AwsV4HttpSigner.AUTH_LOCATION, where)).request();
    HttpRequest.Builder b = HttpRequest.newBuilder(signed.getUri()).GET();
    signed.forEachHeader((name, values) -> {
      if (!name.equalsIgnoreCase("Host")) {
        values.forEach(v -> b.header(name, v));
      }
    });
    return Http.send(b.build());
  }

  /** Keys come in UTF-8 binary order (not Java's UTF-16 order), paged, with common prefixes counted as results. */
  @Test
  void listingsPageInUtf8BinaryOrderWithDelimiterStartAfterAndContinuationTokens() throws Exception {
    Path aux = tmp.resolve("aux");
    List<String> names = List.of("a/1", "a/2", "b", "c/x/y", "c/z", "d\uFF61", "d\uD83D\uDE00", "d\u00E9", "e");
    for (String n : names) {
      Path f = aux.resolve(n);
      Files.createDirectories(f.getParent());
      Files.write(f, n.getBytes(StandardCharsets.UTF_8));
    }
    S3Client auxClient = DirAccess.s3(server, DirAccess.session(DirAccess.vend(new Http(server), "s.sc.events",
        "{\"location\":\"s3://kit/s/sc/events.aux1\"}").json().path("credentials")));
    List<String> utf8Order = names.stream().map(n -> "s/sc/events.aux1/" + n)
        .sorted(Comparator.comparing(k -> new String(k.getBytes(StandardCharsets.UTF_8),
            StandardCharsets.ISO_8859_1))).collect(Collectors.toList());
    assertThat(utf8Order).as("differs from Java's order").isNotEqualTo(utf8Order.stream().sorted()
        .collect(Collectors.toList()));

    List<String> paged = new ArrayList<>();
    int pages = 0;
    for (ListObjectsV2Response page : auxClient.listObjectsV2Paginator(b -> b.bucket("kit")
        .prefix("s/sc/events.aux1/").maxKeys(2))) {
      page.contents().forEach(o -> paged.add(o.key()));
      pages++;
    }
    assertThat(paged).containsExactlyElementsOf(utf8Order);
    assertThat(pages).isEqualTo(5);

    List<String> items = new ArrayList<>();
    for (ListObjectsV2Response page : auxClient.listObjectsV2Paginator(b -> b.bucket("kit")
        .prefix("s/sc/events.aux1/").delimiter("/").maxKeys(2))) {
      assertThat(page.keyCount()).isLessThanOrEqualTo(2);
      page.commonPrefixes().forEach(p -> items.add(p.prefix()));
      page.contents().forEach(o -> items.add(o.key()));
    }
    assertThat(items).containsExactlyInAnyOrder("s/sc/events.aux1/a/", "s/sc/events.aux1/b",
        "s/sc/events.aux1/c/", "s/sc/events.aux1/d\uFF61", "s/sc/events.aux1/d\uD83D\uDE00",
        "s/sc/events.aux1/d\u00E9", "s/sc/events.aux1/e");

    ListObjectsV2Response after = auxClient.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events.aux1/")
        .delimiter("/").startAfter("s/sc/events.aux1/a/1"));
    assertThat(after.commonPrefixes()).extracting(CommonPrefix::prefix)
        .containsExactly("s/sc/events.aux1/a/", "s/sc/events.aux1/c/");
    assertThat(after.contents()).extracting(S3Object::key).first().isEqualTo("s/sc/events.aux1/b");
    ListObjectsV2Response under = auxClient.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events.aux1/c/"));
    assertThat(under.contents()).extracting(S3Object::key)
        .containsExactly("s/sc/events.aux1/c/x/y", "s/sc/events.aux1/c/z");
    ListObjectsV2Response encoded = auxClient.listObjectsV2(b -> b.bucket("kit").prefix("s/sc/events.aux1/d")
        .encodingType(EncodingType.URL));
    assertThat(encoded.contents()).extracting(S3Object::key).containsExactly("s/sc/events.aux1/d\u00E9",
        "s/sc/events.aux1/d\uFF61", "s/sc/events.aux1/d\uD83D\uDE00");
    assertThat(auxClient.getObjectAsBytes(b -> b.bucket("kit").key("s/sc/events.aux1/d\uD83D\uDE00"))
        .asUtf8String()).isEqualTo("d\uD83D\uDE00");
    auxClient.close();
  }
}
