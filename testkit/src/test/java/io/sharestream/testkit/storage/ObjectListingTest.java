package io.sharestream.testkit.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ListObjectsV2's edges, straight on a {@link Mount}: limits, bad arguments, escaping, what is no object. */
class ObjectListingTest {
  @TempDir Path dir;
  Mount mount;

  @BeforeEach
  void files() throws Exception {
    for (String name : List.of("_delta_log/00000000000000000000.json", "a&b<c>.parquet", "day=1/part-0.parquet")) {
      Path f = dir.resolve(name);
      Files.createDirectories(f.getParent());
      Files.write(f, name.getBytes(StandardCharsets.UTF_8));
    }
    Files.createDirectories(dir.resolve("empty"));
    mount = new Mount("kit", "s/sc/t", dir);
  }

  private String list(String rawQuery) {
    return ObjectListing.listV2(mount, SigV4Verifier.parseQuery(rawQuery));
  }

  @Test
  void keysAreEscapedAndDirectoriesAreNoObjects() {
    String xml = list("list-type=2&prefix=s%2Fsc%2Ft%2F");
    assertThat(xml).contains("<Key>s/sc/t/a&amp;b&lt;c&gt;.parquet</Key>").contains("<KeyCount>3</KeyCount>")
        .doesNotContain("<Key>s/sc/t/empty").doesNotContain("<Key>s/sc/t/day=1/</Key>");
    assertThat(list("list-type=2&prefix=s%2Fsc%2Ft%2F&encoding-type=url"))
        .contains("<Key>s/sc/t/a%26b%3Cc%3E.parquet</Key>").contains("<EncodingType>url</EncodingType>");
    assertThat(list("list-type=2&prefix=s%2Fsc%2Ft%2Fmissing%2F")).contains("<KeyCount>0</KeyCount>");
  }

  @Test
  void maxKeysIsCappedAtAThousandAndZeroListsNothing() {
    assertThat(list("list-type=2&prefix=s%2Fsc%2Ft%2F&max-keys=5000")).contains("<MaxKeys>1000</MaxKeys>");
    assertThat(list("list-type=2&prefix=s%2Fsc%2Ft%2F&max-keys=0")).contains("<KeyCount>0</KeyCount>")
        .contains("<IsTruncated>false</IsTruncated>").doesNotContain("NextContinuationToken");
    assertThatThrownBy(() -> list("list-type=2&prefix=s%2Fsc%2Ft%2F&max-keys=-1")).isInstanceOfSatisfying(
        S3Error.class, e -> assertThat(e.code).isEqualTo("InvalidArgument"));
    assertThatThrownBy(() -> list("list-type=2&prefix=s%2Fsc%2Ft%2F&continuation-token=bogus!")).isInstanceOfSatisfying(
        S3Error.class, e -> assertThat(e.getMessage()).isEqualTo("The continuation token provided is incorrect"));
  }

  @Test
  void onlyTheDirectoryThePrefixNamesIsWalkedAndKeysOutsideTheMountAreNoObjects() {
    assertThat(mount.list("s/sc/t/day=1/p")).extracting(e -> e.key).containsExactly("s/sc/t/day=1/part-0.parquet");
    assertThat(mount.file("s/sc/t/../t/a&b<c>.parquet")).isNull();
    assertThat(mount.file("s/sc/t//_delta_log/00000000000000000000.json")).isNull();
    assertThat(mount.file("s/sc/t/empty")).isNull();
    assertThat(mount.file("s/sc/t/_alias-3/day=1/part-0.parquet")).isEqualTo(dir.resolve("day=1/part-0.parquet"));
  }
}
