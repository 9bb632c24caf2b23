package io.sharestream.common.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.ProtocolViolationException;
import org.junit.jupiter.api.Test;

class StorageLocationTest {
  @Test
  void parsesTheLocationsOfEachStore() {
    StorageLocation s3 = StorageLocation.parse("s3://bucket/path/to/table");
    assertThat(s3.store()).isEqualTo(StorageLocation.Store.S3);
    assertThat(s3.bucket()).isEqualTo("bucket");
    assertThat(s3.key()).isEqualTo("path/to/table");
    assertThat(s3.account()).isNull();
    assertThat(StorageLocation.parse("S3A://bucket/t/").key()).isEqualTo("t/");
    assertThat(StorageLocation.parse("s3n://bucket").key()).isEmpty();

    StorageLocation adls = StorageLocation.parse("abfss://container@account.dfs.core.windows.net/path/table");
    assertThat(adls.store()).isEqualTo(StorageLocation.Store.AZURE);
    assertThat(adls.bucket()).isEqualTo("container");
    assertThat(adls.account()).isEqualTo("account");
    assertThat(adls.blobHost()).isEqualTo("account.blob.core.windows.net");
    assertThat(adls.key()).isEqualTo("path/table");
    StorageLocation wasb = StorageLocation.parse("wasbs://container@account.blob.core.windows.net/path/table");
    assertThat(wasb.blobHost()).isEqualTo("account.blob.core.windows.net");
    assertThat(wasb).isEqualTo(adls);
    assertThat(StorageLocation.parse("abfs://c@acct.dfs.core.chinacloudapi.cn/p").blobHost())
        .isEqualTo("acct.blob.core.chinacloudapi.cn");

    StorageLocation gcs = StorageLocation.parse("gs://bucket/path/table");
    assertThat(gcs.store()).isEqualTo(StorageLocation.Store.GCS);
    assertThat(gcs.bucket()).isEqualTo("bucket");
    assertThat(gcs.key()).isEqualTo("path/table");
  }

  @Test
  void aLocationIsAUriWhoseEscapesAreDecoded() {
    assertThat(StorageLocation.parse("s3://b/my%20table/a%3Ab").key()).isEqualTo("my table/a:b");
    assertThat(StorageLocation.parse("s3://b/caf%C3%A9+x").key()).isEqualTo("café+x");
    assertThat(StorageLocation.parse("s3://b/my%20table").toString()).isEqualTo("s3://b/my table");
    assertThat(StorageLocation.parse("s3a://b/t")).isEqualTo(StorageLocation.parse("s3://b/t"))
        .hasSameHashCodeAs(StorageLocation.parse("s3://b/t"));
  }

  @Test
  void locationsOfNoObjectStoreOrMalformedOnesAreRefusedSayingWhy() {
    assertThatThrownBy(() -> StorageLocation.parse("file:/tmp/table")).isInstanceOf(ProtocolViolationException.class)
        .hasMessageContaining("'file:/tmp/table'").hasMessageContaining("not an absolute URI");
    assertThatThrownBy(() -> StorageLocation.parse("hdfs://nn/table")).isInstanceOf(ProtocolViolationException.class)
        .hasMessageContaining("scheme 'hdfs'").hasMessageContaining("s3://, s3a://");
    assertThatThrownBy(() -> StorageLocation.parse("s3:///path")).hasMessageContaining("names no bucket");
    assertThatThrownBy(() -> StorageLocation.parse("abfss://account.dfs.core.windows.net/p"))
        .hasMessageContaining("<container>@<account>");
    assertThatThrownBy(() -> StorageLocation.parse("s3://b/100%.parquet")).hasMessageContaining("'%.p'")
        .hasMessageContaining("percent-escape");
    assertThatThrownBy(() -> StorageLocation.parse("s3://b/%C3")).hasMessageContaining("UTF-8");
    assertThatThrownBy(() -> StorageLocation.parse("")).isInstanceOf(ProtocolViolationException.class);
  }

  @Test
  void resolvesDeltaLogPathsAgainstTheTableRoot() {
    StorageLocation root = StorageLocation.parse("s3://bucket/path/to/table");

    assertThat(root.resolve("part-00000-1a2b.c000.snappy.parquet").key())
        .isEqualTo("path/to/table/part-00000-1a2b.c000.snappy.parquet");
    assertThat(root.resolve("day=2024-01-01/part-00000.parquet").key())
        .isEqualTo("path/to/table/day=2024-01-01/part-00000.parquet");
    assertThat(root.resolve("day=a%3Ab/part-00000.parquet").key())
        .isEqualTo("path/to/table/day=a:b/part-00000.parquet");
    assertThat(root.resolve("city=S%C3%A3o%20Paulo/x%2By.parquet").key())
        .isEqualTo("path/to/table/city=São Paulo/x+y.parquet");
    assertThat(root.resolve("_delta_log/").key()).isEqualTo("path/to/table/_delta_log/");
    assertThat(StorageLocation.parse("s3://bucket/path/to/table/").resolve("p.parquet").key())
        .isEqualTo("path/to/table/p.parquet");
    assertThat(StorageLocation.parse("s3://bucket").resolve("p.parquet").key()).isEqualTo("p.parquet");
    assertThat(root.resolve("./a/../b.parquet").key()).isEqualTo("path/to/table/b.parquet");
  }

  @Test
  void absoluteLogPathsNameTheirOwnObject() {
    StorageLocation root = StorageLocation.parse("s3://bucket/path/to/table");

    StorageLocation elsewhere = root.resolve("s3://other-bucket/shallow/clone/part-0%201.parquet");
    assertThat(elsewhere.bucket()).isEqualTo("other-bucket");
    assertThat(elsewhere.key()).isEqualTo("shallow/clone/part-0 1.parquet");
    assertThat(root.resolve("/other/part-0.parquet").key()).isEqualTo("other/part-0.parquet");
    assertThat(root.resolve("/other/part-0.parquet").bucket()).isEqualTo("bucket");
    assertThatThrownBy(() -> root.resolve("file:/tmp/part-0.parquet")).isInstanceOf(ProtocolViolationException.class);
    assertThatThrownBy(() -> root.resolve("")).isInstanceOf(ProtocolViolationException.class);
  }

  @Test
  void tellsWhetherAnObjectLiesUnderARootOrAnAuxiliaryLocation() {
    StorageLocation root = StorageLocation.parse("s3://bucket/path/to/table");

    assertThat(root.resolve("day=1/part-0.parquet").isUnder(root)).isTrue();
    assertThat(root.isUnder(root)).isTrue();
    assertThat(StorageLocation.parse("s3a://bucket/path/to/table/x").isUnder(root)).isTrue();
    assertThat(StorageLocation.parse("s3://bucket/path/to/table2/x").isUnder(root)).isFalse();
    assertThat(StorageLocation.parse("s3://bucket/path/to/tab").isUnder(root)).isFalse();
    assertThat(StorageLocation.parse("s3://other/path/to/table/x").isUnder(root)).isFalse();
    assertThat(StorageLocation.parse("gs://bucket/path/to/table/x").isUnder(root)).isFalse();
    assertThat(root.resolve("../escape/part-0.parquet").isUnder(root)).isFalse();
    assertThat(root.resolve("x").isUnder(StorageLocation.parse("s3://bucket/"))).isTrue();

    StorageLocation adls = StorageLocation.parse("abfss://c@acct.dfs.core.windows.net/tables/t/");
    assertThat(StorageLocation.parse("wasbs://c@acct.blob.core.windows.net/tables/t/part-0.parquet").isUnder(adls))
        .isTrue();
    assertThat(StorageLocation.parse("abfss://c@other.dfs.core.windows.net/tables/t/part-0.parquet").isUnder(adls))
        .isFalse();
    assertThat(StorageLocation.parse("abfss://d@acct.dfs.core.windows.net/tables/t/part-0.parquet").isUnder(adls))
        .isFalse();
  }
}
