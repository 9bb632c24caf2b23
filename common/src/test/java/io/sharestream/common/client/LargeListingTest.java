package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 10,000-file listing (about 5 MB of NDJSON, several times that as parsed objects) is read by a JVM with a
 * 24 MiB heap: only a streaming client that keeps no more than a line at a time gets through.
 */
class LargeListingTest {
  @TempDir Path tmp;

  @Test
  void tenThousandFileListingIsStreamedWithASmallHeap() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("big"), DeltaSharingClientTest.SCHEMA).commit();
    table.appendCopies(DeltaSharingClientTest.rows(0, 2), 10_000);
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "big", table.dir(), true).start()) {
      String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process p = new ProcessBuilder(List.of(javaBin, "-Xmx24m", "-cp", System.getProperty("java.class.path"),
          ListingProbe.class.getName(), server.profileJson(), "s.sc.big"))
          .redirectErrorStream(true).redirectOutput(tmp.resolve("probe.log").toFile()).start();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("probe finished").isTrue();
      String out = new String(Files.readAllBytes(tmp.resolve("probe.log")), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out).contains("files=10000").contains("maxHeapMiB=");
      assertThat(out).doesNotContain("OutOfMemoryError");
    }
  }

}
