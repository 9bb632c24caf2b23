package io.sharestream.common.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.ProtocolViolationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each store's listing answer, from the samples of its documentation: AWS's ListObjectsV2 examples as published, the
 * response format of Azure's List Blobs reference with values filled in, and an objects.list answer of GCS's JSON API
 * with the fields its Objects resource documents.
 */
class ListingParsersTest {
  /** AWS, ListObjectsV2, "Sample Response for general purpose buckets: Listing keys". */
  private static final String S3_LISTING_KEYS = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n"
      + "    <Name>bucket</Name>\n"
      + "    <Prefix/>\n"
      + "    <KeyCount>205</KeyCount>\n"
      + "    <MaxKeys>1000</MaxKeys>\n"
      + "    <IsTruncated>false</IsTruncated>\n"
      + "    <Contents>\n"
      + "        <Key>my-image.jpg</Key>\n"
      + "        <LastModified>2009-10-12T17:50:30.000Z</LastModified>\n"
      + "        <ETag>\"fba9dede5f27731c9771645a39863328\"</ETag>\n"
      + "        <Size>434234</Size>\n"
      + "        <StorageClass>STANDARD</StorageClass>\n"
      + "    </Contents>\n"
      + "</ListBucketResult>";
  /** AWS, ListObjectsV2, "Sample Response for general purpose buckets: Using a continuation token" ("..." too). */
  private static final String S3_CONTINUATION = "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n"
      + "  <Name>bucket</Name>\n"
      + "  <Prefix></Prefix>\n"
      + "  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>\n"
      + "  <KeyCount>1000</KeyCount>\n"
      + "  <MaxKeys>1000</MaxKeys>\n"
      + "  <IsTruncated>true</IsTruncated>\n"
      + "  <Contents>\n"
      + "    <Key>happyface.jpg</Key>\n"
      + "    <LastModified>2014-11-21T19:40:05.000Z</LastModified>\n"
      + "    <ETag>\"70ee1738b6b21e2c8a43f3a5ab0eee71\"</ETag>\n"
      + "    <Size>11</Size>\n"
      + "    <StorageClass>STANDARD</StorageClass>\n"
      + "  </Contents>\n"
      + "   ...\n"
      + "</ListBucketResult>";
  /** Azure, List Blobs: the documented response format (version 2021-06-08 and later), values filled in. */
  private static final String AZURE = "\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      + "<EnumerationResults ServiceEndpoint=\"https://myaccount.blob.core.windows.net/\" "
      + "ContainerName=\"mycontainer\">\n"
      + "  <Prefix>tables/sales/_delta_log/</Prefix>\n"
      + "  <MaxResults>3</MaxResults>\n"
      + "  <Blobs>\n"
      + "    <Blob>\n"
      + "      <Name>tables/sales/_delta_log/</Name>\n"
      + "      <Properties>\n"
      + "        <Creation-Time>Thu, 13 Jun 2024 15:58:01 GMT</Creation-Time>\n"
      + "        <Last-Modified>Thu, 13 Jun 2024 15:58:01 GMT</Last-Modified>\n"
      + "        <Etag>0x8DC8BC2A6D1F6C1</Etag>\n"
      + "        <ResourceType>directory</ResourceType>\n"
      + "        <Content-Length>0</Content-Length>\n"
      + "      </Properties>\n"
      + "    </Blob>\n"
      + "    <Blob>\n"
      + "      <Name>tables/sales/_delta_log/00000000000000000000.json</Name>\n"
      + "      <Properties>\n"
      + "        <Creation-Time>Thu, 13 Jun 2024 15:58:02 GMT</Creation-Time>\n"
      + "        <Last-Modified>Thu, 13 Jun 2024 15:58:02 GMT</Last-Modified>\n"
      + "        <Etag>0x8DC8BC2A6E5A7B2</Etag>\n"
      + "        <ResourceType>file</ResourceType>\n"
      + "        <Content-Length>1843</Content-Length>\n"
      + "        <Content-Type>application/octet-stream</Content-Type>\n"
      + "        <Content-Encoding />\n"
      + "        <Content-Language />\n"
      + "        <Content-MD5 />\n"
      + "        <Cache-Control />\n"
      + "        <BlobType>BlockBlob</BlobType>\n"
      + "        <AccessTier>Hot</AccessTier>\n"
      + "        <LeaseStatus>unlocked</LeaseStatus>\n"
      + "        <LeaseState>available</LeaseState>\n"
      + "        <ServerEncrypted>true</ServerEncrypted>\n"
      + "      </Properties>\n"
      + "      <OrMetadata />\n"
      + "    </Blob>\n"
      + "    <Blob>\n"
      + "      <Name Encoded=\"true\">tables/sales/_delta_log/%01odd.json</Name>\n"
      + "      <Properties>\n"
      + "        <Last-Modified>Thu, 13 Jun 2024 15:58:03 GMT</Last-Modified>\n"
      + "        <Content-Length>2</Content-Length>\n"
      + "      </Properties>\n"
      + "    </Blob>\n"
      + "    <BlobPrefix>\n"
      + "      <Name>tables/sales/_delta_log/_commits/</Name>\n"
      + "    </BlobPrefix>\n"
      + "  </Blobs>\n"
      + "  <NextMarker>2!152!MDAwMDQ2IXRhYmxlcy9zYWxlcy9fZGVsdGFfbG9nLzAwMDAwMDAwMDAwMDAwMDAwMDAxLmpzb24-"
      + "</NextMarker>\n"
      + "</EnumerationResults>";
  /** GCS, objects.list: {kind, nextPageToken, prefixes, items: [Objects resource]} (size is a string). */
  private static final String GCS = "{\n"
      + "  \"kind\": \"storage#objects\",\n"
      + "  \"nextPageToken\": \"CkV0YWJsZXMvc2FsZXMvX2RlbHRhX2xvZy8wMDAwMDAwMDAwMDAwMDAwMDAwMS5qc29u\",\n"
      + "  \"prefixes\": [\"tables/sales/_delta_log/_commits/\"],\n"
      + "  \"items\": [\n"
      + "    {\n"
      + "      \"kind\": \"storage#object\",\n"
      + "      \"id\": \"bucket/tables/sales/_delta_log/00000000000000000000.json/1718294282123456\",\n"
      + "      \"selfLink\": \"https://www.googleapis.com/storage/v1/b/bucket/o/tables%2Fsales%2F_delta_log%2F"
      + "00000000000000000000.json\",\n"
      + "      \"mediaLink\": \"https://storage.googleapis.com/download/storage/v1/b/bucket/o/tables%2Fsales%2F"
      + "_delta_log%2F00000000000000000000.json?generation=1718294282123456&alt=media\",\n"
      + "      \"name\": \"tables/sales/_delta_log/00000000000000000000.json\",\n"
      + "      \"bucket\": \"bucket\",\n"
      + "      \"generation\": \"1718294282123456\",\n"
      + "      \"metageneration\": \"1\",\n"
      + "      \"contentType\": \"application/json\",\n"
      + "      \"storageClass\": \"STANDARD\",\n"
      + "      \"size\": \"1843\",\n"
      + "      \"md5Hash\": \"1B2M2Y8AsgTpgAmY7PhCfg==\",\n"
      + "      \"crc32c\": \"AAAAAA==\",\n"
      + "      \"etag\": \"CMDx9rK0lIcDEAE=\",\n"
      + "      \"metadata\": {\"writer\": \"delta\", \"nested\": {\"size\": \"999\"}},\n"
      + "      \"timeCreated\": \"2024-06-13T15:58:02.123Z\",\n"
      + "      \"updated\": \"2024-06-13T15:58:02.123Z\",\n"
      + "      \"timeStorageClassUpdated\": \"2024-06-13T15:58:02.123Z\"\n"
      + "    },\n"
      + "    {\"name\": \"tables/sales/_delta_log/00000000000000000001.json\", \"size\": 2051}\n"
      + "  ]\n"
      + "}";

  @Test
  void readsAnS3ListObjectsV2Answer() throws IOException {
    ObjectListingPage page = S3ListingParser.parse(stream(S3_LISTING_KEYS));

    assertThat(page.entries()).containsExactly(new ObjectListingPage.Entry("my-image.jpg", 434234,
        Instant.parse("2009-10-12T17:50:30.000Z").toEpochMilli()));
    assertThat(page.hasMore()).isFalse();
    assertThat(page.nextToken()).isNull();
  }

  @Test
  void aTruncatedS3AnswerGivesItsContinuationToken() throws IOException {
    ObjectListingPage page = S3ListingParser.parse(stream(S3_CONTINUATION));

    assertThat(page.entries()).extracting(ObjectListingPage.Entry::key).containsExactly("happyface.jpg");
    assertThat(page.entries().get(0).size()).isEqualTo(11);
    assertThat(page.nextToken()).isEqualTo("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
    assertThat(page.hasMore()).isTrue();
  }

  @Test
  void urlEncodedS3KeysAreDecodedAndEntitiesResolved() throws IOException {
    ObjectListingPage page = S3ListingParser.parse(stream("<ListBucketResult><Contents><Key>a+b%2Fc%01.json</Key>"
        + "<Size>1</Size></Contents><Contents><Key>Tom &amp; Jerry</Key><Size>2</Size></Contents>"
        + "<EncodingType>url</EncodingType><IsTruncated>false</IsTruncated></ListBucketResult>"));

    assertThat(page.entries()).extracting(ObjectListingPage.Entry::key).containsExactly("a b/c\u0001.json",
        "Tom & Jerry");
    assertThat(page.entries().get(0).lastModified()).isEqualTo(-1);
  }

  @Test
  void s3AnswersThatCannotBeFollowedAreRefused() {
    assertRefused(() -> S3ListingParser.parse(stream("<ListBucketResult><IsTruncated>true</IsTruncated>"
        + "</ListBucketResult>")), "Amazon S3", "truncated but has no NextContinuationToken");
    assertRefused(() -> S3ListingParser.parse(stream("<Error><Code>AccessDenied</Code></Error>")), "Amazon S3",
        "its root element is <Error>, not <ListBucketResult>");
    assertRefused(() -> S3ListingParser.parse(stream("<ListBucketResult><Contents><Key>k</Key>")), "Amazon S3",
        "not well-formed XML");
    assertRefused(() -> S3ListingParser.parse(stream("<ListBucketResult><Contents><Key>k</Key><Size>big</Size>"
        + "</Contents></ListBucketResult>")), "Amazon S3", "<Size> is not a number: 'big'");
    assertRefused(() -> S3ListingParser.parse(stream("<ListBucketResult><Contents><Size>1</Size></Contents>"
        + "</ListBucketResult>")), "Amazon S3", "an object of the listing has no Key");
  }

  @Test
  void noExternalEntityOrDtdIsRead() {
    String xxe = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
        + "<ListBucketResult><Contents><Key>&x;</Key><Size>1</Size></Contents></ListBucketResult>";

    assertThatThrownBy(() -> S3ListingParser.parse(stream(xxe))).isInstanceOf(ProtocolViolationException.class);
  }

  @Test
  void aHugeValueIsRefusedNotHeld() {
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < Listings.MAX_TEXT + 1; i++) {
      key.append('k');
    }

    assertRefused(() -> S3ListingParser.parse(stream("<ListBucketResult><Contents><Key>" + key
        + "</Key></Contents></ListBucketResult>")), "Amazon S3", "<Key> holds more than 16384 characters");
  }

  @Test
  void readsAnAzureListBlobsAnswerWithoutItsDirectoriesOrPrefixes() throws IOException {
    ObjectListingPage page = AzureListingParser.parse(new ByteArrayInputStream(AZURE.getBytes(
        StandardCharsets.UTF_8)));

    assertThat(page.entries()).containsExactly(
        new ObjectListingPage.Entry("tables/sales/_delta_log/00000000000000000000.json", 1843,
            Instant.parse("2024-06-13T15:58:02Z").toEpochMilli()),
        new ObjectListingPage.Entry("tables/sales/_delta_log/\u0001odd.json", 2,
            Instant.parse("2024-06-13T15:58:03Z").toEpochMilli()));
    assertThat(page.nextToken())
        .isEqualTo("2!152!MDAwMDQ2IXRhYmxlcy9zYWxlcy9fZGVsdGFfbG9nLzAwMDAwMDAwMDAwMDAwMDAwMDAxLmpzb24-");
  }

  @Test
  void theLastAzurePageHasAnEmptyNextMarker() throws IOException {
    ObjectListingPage page = AzureListingParser.parse(stream("<EnumerationResults><Blobs><Blob><Name>a</Name>"
        + "<Deleted>true</Deleted><Properties><Content-Length>1</Content-Length></Properties></Blob></Blobs>"
        + "<NextMarker /></EnumerationResults>"));

    assertThat(page.entries()).isEmpty();
    assertThat(page.hasMore()).isFalse();
    assertRefused(() -> AzureListingParser.parse(stream("<EnumerationResults><Blobs><Blob><Name>a</Name>"
        + "<Properties><Last-Modified>yesterday</Last-Modified><Content-Length>1</Content-Length></Properties>"
        + "</Blob></Blobs></EnumerationResults>")), "Azure Blob Storage", "Last-Modified is not an RFC 1123 time");
  }

  @Test
  void readsAGcsObjectsListAnswer() throws IOException {
    ObjectListingPage page = GcsListingParser.parse(stream(GCS));

    assertThat(page.entries()).containsExactly(
        new ObjectListingPage.Entry("tables/sales/_delta_log/00000000000000000000.json", 1843,
            Instant.parse("2024-06-13T15:58:02.123Z").toEpochMilli()),
        new ObjectListingPage.Entry("tables/sales/_delta_log/00000000000000000001.json", 2051, -1));
    assertThat(page.nextToken()).isEqualTo("CkV0YWJsZXMvc2FsZXMvX2RlbHRhX2xvZy8wMDAwMDAwMDAwMDAwMDAwMDAwMS5qc29u");
    assertThat(GcsListingParser.parse(stream("{\"kind\": \"storage#objects\"}")).entries()).isEmpty();
  }

  @Test
  void gcsAnswersThatAreNoListingAreRefused() {
    assertRefused(() -> GcsListingParser.parse(stream("{\"error\": {\"code\": 401, \"message\": \"Invalid "
        + "Credentials\"}}")), "Google Cloud Storage", "it is an error answer");
    assertRefused(() -> GcsListingParser.parse(stream("[]")), "Google Cloud Storage", "not a JSON object");
    assertRefused(() -> GcsListingParser.parse(stream("{\"items\": [{\"size\": \"1\"}]}")), "Google Cloud Storage",
        "has no name");
    assertRefused(() -> GcsListingParser.parse(stream("{\"items\": [")), "Google Cloud Storage", "not valid JSON");
  }

  @Test
  void eachSignerReadsItsStoresListing() throws IOException {
    Instant later = Instant.parse("2030-01-01T00:00:00Z");
    StorageSettings d = StorageSettings.defaults();

    assertThat(StorageCredentials.aws("s3://b/", "A", "secret-s3-1", null, later).signer(d)
        .parseList(stream(S3_CONTINUATION)).hasMore()).isTrue();
    assertThat(StorageCredentials.azureSas("abfss://c@a.dfs.core.windows.net/", "sig=secret-az-1", later).signer(d)
        .parseList(stream(AZURE)).entries()).hasSize(2);
    assertThat(StorageCredentials.gcpOauth("gs://b/", "ya29.secret-gcs-1", later).signer(d)
        .parseList(stream(GCS)).entries()).hasSize(2);
  }

  @Test
  void entriesAfterAKeyAreThoseAfterItInByteOrder() {
    ObjectListingPage page = new ObjectListingPage(List.of(
        new ObjectListingPage.Entry("_delta_log/00000000000000000009.json", 1, 1),
        new ObjectListingPage.Entry("_delta_log/00000000000000000010.json", 1, 1),
        new ObjectListingPage.Entry("_delta_log/00000000000000000011.json", 1, 1)), "");

    assertThat(page.entriesAfter("_delta_log/00000000000000000010.json")).extracting(ObjectListingPage.Entry::key)
        .containsExactly("_delta_log/00000000000000000011.json");
    assertThat(page.entriesAfter(null)).hasSize(3);
    assertThat(page.hasMore()).isFalse();
    // U+FF5E sorts before U+1F600 in UTF-8 (EF BD 9E < F0 9F 98 80), after it in UTF-16 units
    assertThat(ObjectListingPage.compareUtf8("\uFF5E", "\uD83D\uDE00")).isNegative();
    assertThat(ObjectListingPage.compareUtf8("a", "ab")).isNegative();
  }

  private interface Parse {
    ObjectListingPage run() throws IOException;
  }

  private static void assertRefused(Parse parse, String store, String problem) {
    assertThatThrownBy(parse::run).isInstanceOf(ProtocolViolationException.class)
        .hasMessageStartingWith("The object listing " + store + " answered cannot be read: ")
        .hasMessageContaining(problem);
  }

  private static InputStream stream(String body) {
    return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
  }
}
