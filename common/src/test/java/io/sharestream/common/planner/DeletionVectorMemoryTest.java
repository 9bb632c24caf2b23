package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.testkit.delta.DeletionVectorDescriptor;
import io.sharestream.testkit.delta.DeltaAction;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.Z85;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * A file of 12,000,000 rows whose deletion vector marks 10,000,000 of them (scattered: five rows of every six) is
 * read by a JVM with a 256 MiB heap: the vector is held as a compressed bitmap, the file streamed by row groups.
 */
class DeletionVectorMemoryTest {
  private static final long ROWS = 12_000_000;
  @TempDir Path tmp;

  @Test
  void aFileWithTenMillionDeletedRowsStreamsInA256MiBHeap() throws Exception {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("big"), DeltaType.struct(
        DeltaType.field("id", DeltaType.LONG, false))).deletionVectors(true).commit(); // 0
    table.appendGenerated(ROWS, i -> Map.of("id", i)); // 1
    RoaringBitmap deleted = new RoaringBitmap();
    for (int i = 0; i < ROWS; i++) {
      if (i % 6 != 0) {
        deleted.add(i);
      }
    }
    DeltaAction.AddFile add = table.snapshot().files().iterator().next();
    table.commitActions("DELETE", List.of(add.remove(System.currentTimeMillis(), true),
        new DeltaAction.AddFile(add.path, add.partitionValues, add.size, add.modificationTime, true, add.stats,
            storedVector(table.dir(), deleted)))); // 2
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "big", table.dir(), true)
        .start()) {
      String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process p = new ProcessBuilder(List.of(javaBin, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
          DeletionVectorHeapProbe.class.getName(), server.profileJson(), "s.sc.big"))
          .redirectErrorStream(true).redirectOutput(tmp.resolve("probe.log").toFile()).start();
      assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("probe finished").isTrue();
      String out = new String(Files.readAllBytes(tmp.resolve("probe.log")), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(out).isZero();
      long live = ROWS / 6;
      long sum = 6 * (live - 1) * live / 2; // 0 + 6 + 12 + ...
      assertThat(out).contains("rows=" + live + " sum=" + sum).contains("maxHeapMiB=").doesNotContain("OutOfMemory");
    }
  }

  /** A deletion vector file in Delta's format holding {@code rows} (portable bitmap, length and CRC framing). */
  private static DeletionVectorDescriptor storedVector(Path tableDir, RoaringBitmap rows) throws Exception {
    rows.runOptimize();
    ByteBuffer bitmap = ByteBuffer.allocate(12 + 4 + rows.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    bitmap.putInt(1681511377).putLong(1).putInt(0);
    rows.serialize(bitmap);
    byte[] bytes = bitmap.array();
    CRC32 crc = new CRC32();
    crc.update(bytes);
    UUID uuid = UUID.randomUUID();
    ByteBuffer file = ByteBuffer.allocate(1 + 4 + bytes.length + 4);
    file.put((byte) 1).putInt(bytes.length).put(bytes).putInt((int) crc.getValue());
    Files.write(tableDir.resolve("deletion_vector_" + uuid + ".bin"), file.array());
    return new DeletionVectorDescriptor(DeletionVectorDescriptor.STORED, Z85.encodeUuid(uuid), 1, bytes.length,
        rows.getLongCardinality());
  }
}
