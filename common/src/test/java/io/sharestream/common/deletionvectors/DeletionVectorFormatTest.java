package io.sharestream.common.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.model.DeletionVectorDescriptor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Deletion vectors decoded from Delta's byte layouts: the test vectors of the delta-format digest (an inline vector
 * and the golden table's stored one), both bitmap formats, buckets above 2^32, and every way the bytes can be wrong.
 */
class DeletionVectorFormatTest {
  /** Rows {3, 4, 7, 11, 18, 29}, portable format, 44 bytes. */
  static final String INLINE = "^Bg9^0rr910000000000iXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
  /** The golden table's DV file: version 1, then size 34, the bitmap {0}, its CRC-32. */
  static final String GOLDEN_FILE = "01" + "00000022" + "d1d33964" + "0100000000000000" + "00000000" + "3a300000"
      + "01000000" + "0000" + "0000" + "10000000" + "0000" + "f7a6b4b5";

  @Test
  void anInlineVectorDecodesToItsRows() {
    RowIndexSet rows = DeletionVectorFormat.inline(new DeletionVectorDescriptor('i', INLINE, 0, 44, 6));
    assertThat(rows.cardinality()).isEqualTo(6);
    for (long r : new long[] {3, 4, 7, 11, 18, 29}) {
      assertThat(rows.contains(r)).as("row %d", r).isTrue();
    }
    assertThat(rows.contains(0)).isFalse();
    assertThat(rows.contains(5)).isFalse();
    assertThat(rows.next(8)).isEqualTo(11);
    assertThat(rows.next(30)).isEqualTo(-1);
    assertThat(rows.count(4, 18)).isEqualTo(3);
  }

  @Test
  void theGoldenTablesStoredVectorDecodesWithItsChecksum() {
    byte[] file = hex(GOLDEN_FILE);
    DeletionVectorDescriptor dv = new DeletionVectorDescriptor('p', "https://storage/dv.bin?sig=1", 1, 34, 1);
    byte[] framed = java.util.Arrays.copyOfRange(file, 1, 1 + DeletionVectorFormat.storedLength(dv));
    RowIndexSet rows = DeletionVectorFormat.stored(dv, framed);
    assertThat(rows.cardinality()).isEqualTo(1);
    assertThat(rows.contains(0)).isTrue();
  }

  @Test
  void aRelativeVectorNamesItsFileByTheUuidItEncodes() {
    assertThat(DeletionVectorFormat.relativePath(new DeletionVectorDescriptor('u', "0X9F0q2<2yJ-f)Gm2!e0", 1, 34, 1)))
        .isEqualTo("deletion_vector_0229ec3d-5100-44e1-8e53-702d448da8da.bin");
    assertThat(DeletionVectorFormat.relativePath(new DeletionVectorDescriptor('u', "ab0X9F0q2<2yJ-f)Gm2!e0", 1, 34, 1)))
        .isEqualTo("ab/deletion_vector_0229ec3d-5100-44e1-8e53-702d448da8da.bin");
    assertThat(Z85.decodeUuid("0X9F0q2<2yJ-f)Gm2!e0")).isEqualTo(UUID.fromString(
        "0229ec3d-5100-44e1-8e53-702d448da8da"));
  }

  @Test
  void bitmapsWithManyRowsAndRowsBeyondTwoToThe32DecodeInBothFormats() throws Exception {
    List<Long> rows = new ArrayList<>();
    for (long r = 0; r < 10_000; r += 2) {
      rows.add(r); // a bitmap container (more than 4096 values)
    }
    rows.add((1L << 32) + 5);
    rows.add((3L << 32) + 7); // a sparse key: bucket 2 absent
    RowIndexSet portable = RowIndexSet.deserialize(portable(rows));
    RowIndexSet nativeFormat = RowIndexSet.deserialize(nativeFormat(rows));
    for (RowIndexSet set : List.of(portable, nativeFormat)) {
      assertThat(set.cardinality()).isEqualTo(rows.size());
      assertThat(set.contains(9_998)).isTrue();
      assertThat(set.contains(9_999)).isFalse();
      assertThat(set.contains((1L << 32) + 5)).isTrue();
      assertThat(set.contains((3L << 32) + 7)).isTrue();
      assertThat(set.contains(5)).isFalse();
      assertThat(set.next(10_000)).isEqualTo((1L << 32) + 5);
      assertThat(set.count(0, 1L << 33)).isEqualTo(5_001);
    }
  }

  @Test
  void setDifferencesGiveTheRowsWhoseDeletionChanged() {
    RowIndexSet before = RowIndexSet.of(1, 5, (1L << 32) + 1);
    RowIndexSet after = RowIndexSet.of(1, 2, 5, 9, (1L << 32) + 2);
    RowIndexSet newlyDeleted = after.andNot(before);
    assertThat(newlyDeleted.cardinality()).isEqualTo(3);
    assertThat(newlyDeleted.contains(2)).isTrue();
    assertThat(newlyDeleted.contains(9)).isTrue();
    assertThat(newlyDeleted.contains((1L << 32) + 2)).isTrue();
    RowIndexSet restored = before.andNot(after);
    assertThat(restored.cardinality()).isEqualTo(1);
    assertThat(restored.contains((1L << 32) + 1)).isTrue();
    assertThat(newlyDeleted.or(restored).cardinality()).isEqualTo(4);
    RowSelection only = RowSelection.only(newlyDeleted);
    assertThat(only.selects(2)).isTrue();
    assertThat(only.selects(1)).isFalse();
    assertThat(only.count(0, 10)).isEqualTo(2);
    RowSelection excluding = RowSelection.excluding(after);
    assertThat(excluding.selects(3)).isTrue();
    assertThat(excluding.selects(9)).isFalse();
    assertThat(excluding.count(0, 10)).isEqualTo(6);
    // a batch's selected rows as offsets: rows 2..11 without 2, 5, 9 (and only 2, 9 of the newly deleted)
    int[] out = new int[10];
    assertThat(excluding.selected(2, 10, out)).isEqualTo(7);
    assertThat(java.util.Arrays.copyOf(out, 7)).containsExactly(1, 2, 4, 5, 6, 8, 9);
    assertThat(only.selected(2, 10, out)).isEqualTo(2);
    assertThat(java.util.Arrays.copyOf(out, 2)).containsExactly(0, 7);
    assertThat(RowSelection.ALL.selected(0, 3, out)).isEqualTo(3);
  }

  @Test
  void aWrongChecksumSizeMagicLengthOrCardinalityIsRefusedSayingWhich() {
    byte[] file = hex(GOLDEN_FILE);
    DeletionVectorDescriptor dv = new DeletionVectorDescriptor('p', "https://storage/dv.bin?sig=1", 1, 34, 1);
    byte[] framed = java.util.Arrays.copyOfRange(file, 1, 43);

    byte[] badCrc = framed.clone();
    badCrc[badCrc.length - 1] ^= 1;
    assertThatThrownBy(() -> DeletionVectorFormat.stored(dv, badCrc)).hasMessageContaining("checksum");

    byte[] badMagic = framed.clone();
    badMagic[4] ^= 0x10; // (the lowest bit would make it the legacy magic number)
    fixCrc(badMagic);
    assertThatThrownBy(() -> DeletionVectorFormat.stored(dv, badMagic)).hasMessageContaining("magic number");

    assertThatThrownBy(() -> DeletionVectorFormat.stored(new DeletionVectorDescriptor('p', "u", 1, 33, 1), framed))
        .hasMessageContaining("holds 42 bytes");
    byte[] badSize = framed.clone();
    badSize[3] = 0x21;
    assertThatThrownBy(() -> DeletionVectorFormat.stored(dv, badSize)).hasMessageContaining("size in its file is 33");
    assertThatThrownBy(() -> DeletionVectorFormat.stored(new DeletionVectorDescriptor('p', "u", 1, 34, 2), framed))
        .hasMessageContaining("marks 1 rows, but its descriptor says 2");
    assertThatThrownBy(() -> DeletionVectorFormat.inline(new DeletionVectorDescriptor('i', INLINE.replace('^', '~'),
        0, 44, 6))).hasMessageContaining("not a Z85 character");
  }

  private static void fixCrc(byte[] framed) {
    CRC32 crc = new CRC32();
    crc.update(framed, 4, framed.length - 8);
    ByteBuffer.wrap(framed).putInt(framed.length - 4, (int) crc.getValue());
  }

  /** Delta's portable layout, written here with RoaringBitmap's own serializer for each bucket. */
  private static byte[] portable(List<Long> rows) throws Exception {
    java.util.TreeMap<Integer, RoaringBitmap> buckets = buckets(rows);
    ByteBuffer b = ByteBuffer.allocate(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putInt(1681511377).putLong(buckets.size());
    for (java.util.Map.Entry<Integer, RoaringBitmap> e : buckets.entrySet()) {
      b.putInt(e.getKey());
      e.getValue().serialize(b);
    }
    return java.util.Arrays.copyOf(b.array(), b.position());
  }

  /** The legacy native layout: a count, then per bucket from 0 its length and bitmap (empty ones for gaps). */
  private static byte[] nativeFormat(List<Long> rows) throws Exception {
    java.util.TreeMap<Integer, RoaringBitmap> buckets = buckets(rows);
    ByteBuffer b = ByteBuffer.allocate(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.putInt(1681511376).putInt(buckets.lastKey() + 1);
    for (int k = 0; k <= buckets.lastKey(); k++) {
      RoaringBitmap bm = buckets.getOrDefault(k, new RoaringBitmap());
      b.putInt(bm.serializedSizeInBytes());
      bm.serialize(b);
    }
    return java.util.Arrays.copyOf(b.array(), b.position());
  }

  private static java.util.TreeMap<Integer, RoaringBitmap> buckets(List<Long> rows) {
    java.util.TreeMap<Integer, RoaringBitmap> out = new java.util.TreeMap<>();
    for (long r : rows) {
      out.computeIfAbsent((int) (r >>> 32), k -> new RoaringBitmap()).add((int) r);
    }
    return out;
  }

  private static byte[] hex(String s) {
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
