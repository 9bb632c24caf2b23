package io.sharestream.testkit.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.UUID;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Deletion vectors byte for byte as Delta writes them (the test vectors of the project's delta-format reference),
 * and decoded by an independent reader: org.roaringbitmap's own deserializer for the 32-bit bitmaps.
 */
class DeletionVectorFormatTest {
  private static final String INLINE_3_4_7_11_18_29 = "^Bg9^0rr910000000000iXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";

  @TempDir Path tmp;

  @Test
  void inlineDescriptorOfSixRowsMatchesTheReferenceVector() {
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.inline(List.of(3L, 4L, 7L, 11L, 18L, 29L));
    assertThat(dv.toJson().toString()).isEqualTo("{\"storageType\":\"i\",\"pathOrInlineDv\":\"" + INLINE_3_4_7_11_18_29
        + "\",\"sizeInBytes\":44,\"cardinality\":6}");
    assertThat(hex(DeletionVectorBitmap.serialize(List.of(3L, 4L, 7L, 11L, 18L, 29L))))
        .isEqualTo("d1d33964" + "0100000000000000" + "00000000" + "3a300000" + "01000000" + "0000" + "0500"
            + "10000000" + "0300" + "0400" + "0700" + "0b00" + "1200" + "1d00");
    assertThat(dv.rowIndexes(tmp)).containsExactly(3L, 4L, 7L, 11L, 18L, 29L);
  }

  @Test
  void aFileHoldingOnlyRowZeroMatchesDeltasOwnDvFile() throws IOException {
    DeletionVectorDescriptor dv = DeletionVectorFile.write(tmp, List.of(new TreeSet<>(List.of(0L)))).get(0);
    byte[] file = Files.readAllBytes(dv.absolutePath(tmp));
    assertThat(hex(file)).isEqualTo("01" + "00000022" + "d1d33964" + "0100000000000000" + "00000000" + "3a300000"
        + "01000000" + "0000" + "0000" + "10000000" + "0000" + "f7a6b4b5");
    assertThat(file).hasSize(43);
    assertThat(dv.offset).isEqualTo(1);
    assertThat(dv.sizeInBytes).isEqualTo(34);
    assertThat(dv.cardinality).isEqualTo(1);
    assertThat(dv.absolutePath(tmp).getFileName().toString())
        .isEqualTo("deletion_vector_" + Z85.decodeUuid(dv.pathOrInlineDv) + ".bin");
  }

  @Test
  void uuidsEncodeAsTwentyZ85Characters() {
    UUID uuid = UUID.fromString("0229ec3d-5100-44e1-8e53-702d448da8da");
    assertThat(Z85.encodeUuid(uuid)).isEqualTo("0X9F0q2<2yJ-f)Gm2!e0");
    assertThat(Z85.decodeUuid("0X9F0q2<2yJ-f)Gm2!e0")).isEqualTo(uuid);
    DeletionVectorDescriptor prefixed = new DeletionVectorDescriptor("u", "ab0X9F0q2<2yJ-f)Gm2!e0", 1, 34, 1);
    assertThat(prefixed.relativePath()).isEqualTo("ab/deletion_vector_0229ec3d-5100-44e1-8e53-702d448da8da.bin");
    assertThat(prefixed.absolutePath(tmp)).isEqualTo(tmp.resolve("ab")
        .resolve("deletion_vector_0229ec3d-5100-44e1-8e53-702d448da8da.bin"));
    assertThat(prefixed.uniqueId()).isEqualTo("uab0X9F0q2<2yJ-f)Gm2!e0@1");
    assertThatThrownBy(() -> Z85.decode("abc~e", 4)).hasMessageContaining("not valid Z85");
  }

  @Test
  void storedDvsOfOneCommitShareAFileAtDifferentOffsetsAndRoundTrip() throws IOException {
    NavigableSet<Long> dense = new TreeSet<>();
    for (long i = 0; i < 10_000; i += 2) {
      dense.add(i); // 5000 values in container 0: a bitmap container
    }
    NavigableSet<Long> twoBuckets = new TreeSet<>(List.of(5L, 70_000L, (1L << 32) + 7, (3L << 32) + 65_536));
    NavigableSet<Long> small = new TreeSet<>(List.of(1L, 2L));
    List<DeletionVectorDescriptor> dvs = DeletionVectorFile.write(tmp, List.of(dense, twoBuckets, small));
    assertThat(dvs).extracting(d -> d.pathOrInlineDv).containsOnly(dvs.get(0).pathOrInlineDv);
    assertThat(dvs.get(0).offset).isEqualTo(1);
    assertThat(dvs.get(1).offset).isEqualTo(1 + 4 + dvs.get(0).sizeInBytes + 4);
    assertThat(dvs.get(2).offset).isEqualTo(dvs.get(1).offset + 4 + dvs.get(1).sizeInBytes + 4);
    assertThat(dvs).extracting(d -> d.cardinality).containsExactly(5000L, 4L, 2L);

    byte[] file = Files.readAllBytes(dvs.get(0).absolutePath(tmp));
    List<NavigableSet<Long>> expected = List.of(dense, twoBuckets, small);
    for (int i = 0; i < dvs.size(); i++) {
      DeletionVectorDescriptor dv = dvs.get(i);
      assertThat(dv.rowIndexes(tmp)).isEqualTo(expected.get(i));
      ByteBuffer frame = ByteBuffer.wrap(file, dv.offset, dv.sizeInBytes + 8);
      assertThat(frame.getInt()).isEqualTo(dv.sizeInBytes);
      byte[] bitmap = new byte[dv.sizeInBytes];
      frame.get(bitmap);
      CRC32 crc = new CRC32();
      crc.update(bitmap);
      assertThat(frame.getInt()).isEqualTo((int) crc.getValue());
      assertThat(independentlyDecoded(bitmap)).isEqualTo(expected.get(i));
    }
    assertThat(file).hasSize(dvs.get(2).offset + dvs.get(2).sizeInBytes + 8);
  }

  @Test
  void inlineDvsWithBitmapContainersAndSeveralBucketsRoundTrip() {
    NavigableSet<Long> rows = new TreeSet<>();
    for (long i = 0; i < 70_000; i += 3) {
      rows.add(i);
    }
    rows.add((2L << 32) + 1);
    DeletionVectorDescriptor dv = DeletionVectorDescriptor.inline(rows);
    assertThat(dv.rowIndexes(tmp)).isEqualTo(rows);
    assertThat(independentlyDecoded(Z85.decode(dv.pathOrInlineDv, dv.sizeInBytes))).isEqualTo(rows);
    DeletionVectorDescriptor odd = DeletionVectorDescriptor.inline(List.of(1L, 2L, 3L));
    assertThat(odd.sizeInBytes).isEqualTo(4 + 8 + 4 + 16 + 6);
    assertThat(odd.pathOrInlineDv).hasSize((odd.sizeInBytes + 3) / 4 * 5);
    assertThat(odd.rowIndexes(tmp)).containsExactly(1L, 2L, 3L);
  }

  @Test
  void corruptDvFilesAndWrongDescriptorsAreRefused() throws IOException {
    DeletionVectorDescriptor dv = DeletionVectorFile.write(tmp, List.of(new TreeSet<>(List.of(0L, 9L)))).get(0);
    Path file = dv.absolutePath(tmp);
    byte[] good = Files.readAllBytes(file);
    byte[] badCrc = good.clone();
    badCrc[badCrc.length - 1] ^= 1;
    Files.write(file, badCrc);
    assertThatThrownBy(() -> dv.rowIndexes(tmp)).hasMessageContaining("checksum mismatch");
    byte[] badMagic = good.clone();
    badMagic[5] ^= 1; // the magic's first byte, with the checksum made to match
    CRC32 crc = new CRC32();
    crc.update(badMagic, 5, dv.sizeInBytes);
    ByteBuffer.wrap(badMagic).putInt(5 + dv.sizeInBytes, (int) crc.getValue());
    Files.write(file, badMagic);
    assertThatThrownBy(() -> dv.rowIndexes(tmp)).hasMessageContaining("magic number");
    Files.write(file, good);
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", dv.pathOrInlineDv, 1, dv.sizeInBytes, 5)
        .rowIndexes(tmp)).hasMessageContaining("cardinality mismatch");
    assertThatThrownBy(() -> new DeletionVectorDescriptor("u", dv.pathOrInlineDv, 40, dv.sizeInBytes, 2)
        .rowIndexes(tmp)).hasMessageContaining("outside");
    byte[] wrongMagic = DeletionVectorBitmap.serialize(List.of(1L));
    wrongMagic[0] = 0;
    assertThatThrownBy(() -> DeletionVectorBitmap.deserialize(wrongMagic)).hasMessageContaining("magic number");
  }

  /** Delta's bucket loop over org.roaringbitmap's own 32-bit deserializer. */
  static NavigableSet<Long> independentlyDecoded(byte[] bitmap) {
    ByteBuffer in = ByteBuffer.wrap(bitmap).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(in.getInt()).isEqualTo(1681511377);
    long buckets = in.getLong();
    NavigableSet<Long> rows = new TreeSet<>();
    for (long b = 0; b < buckets; b++) {
      long high = (long) in.getInt() << 32;
      RoaringBitmap r = new RoaringBitmap();
      try {
        r.deserialize(in.slice());
      } catch (IOException e) {
        throw new AssertionError(e);
      }
      in.position(in.position() + r.serializedSizeInBytes());
      r.forEach((org.roaringbitmap.IntConsumer) v -> rows.add(high | (v & 0xFFFFFFFFL)));
    }
    return rows;
  }

  static String hex(byte[] bytes) {
    StringBuilder b = new StringBuilder();
    for (byte x : bytes) {
      b.append(String.format("%02x", x));
    }
    return b.toString();
  }
}
