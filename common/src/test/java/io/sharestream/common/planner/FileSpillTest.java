package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.model.FileAction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Spilled file lines come back whole and in the planner's file order (id as {@link String#compareTo}, then kind). */
class FileSpillTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static FileAction add(String id, String url, boolean withDv) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", id).put("version", 3).put("timestamp", 1700000000123L).put("expirationTimestamp", 1700003600000L);
    ObjectNode add = n.putObject("deltaSingleAction").putObject("add");
    add.put("path", url).put("size", 1234).put("modificationTime", 1699999999000L).put("dataChange", false)
        .put("stats", "{\"numRecords\":42,\"minValues\":{}}");
    add.putObject("partitionValues").put("day", "2026-12-03").putNull("region");
    if (withDv) {
      add.putObject("deletionVector").put("storageType", "p").put("pathOrInlineDv", url + "&dv").put("offset", 1)
          .put("sizeInBytes", 40).put("cardinality", 7);
    }
    n.put("deletionVectorFileId", withDv ? "dv-" + id : null);
    return FileAction.fromDeltaJson(n);
  }

  private static String describe(FileAction f) {
    return f.kind() + " " + f.id() + " " + f.url() + " " + f.partitionValues() + " " + f.size() + " " + f.numRecords()
        + " " + f.version() + " " + f.timestamp() + " " + f.expirationTimestamp() + " " + f.modificationTime() + " "
        + f.dataChange() + " " + (f.deletionVector() == null ? "-" : f.deletionVector().storageType() + " "
        + f.deletionVector().pathOrInlineDv() + " " + f.deletionVector().offset() + " "
        + f.deletionVector().sizeInBytes() + " " + f.deletionVector().cardinality()) + " " + f.deletionVectorFileId();
  }

  @Test
  void everyFieldOfALineComesBackFromDiskLongUrlsIncluded() {
    try (FileSpill spill = new FileSpill()) {
      FileAction plain = add("a", "https://storage/a?sig=1", false);
      FileAction withDv = add("b", "https://storage/b?sig=" + "x".repeat(70_000), true); // beyond any buffer
      long at1 = spill.append(plain);
      long at2 = spill.append(withDv);
      assertThat(describe(spill.read(at2))).isEqualTo(describe(withDv));
      assertThat(describe(spill.read(at1))).isEqualTo(describe(plain));
    }
  }

  @Test
  void linesAreSortedAsStringsCompareWhateverTheirCharacters() {
    List<String> ids = new ArrayList<>(List.of("", "a", "ab", "b", "é", "e\u0301", "\uFFFD", "\uD83D\uDE00", "z",
        "Z", "0", "a\u0000", "\u00ff", "\uE000x"));
    Random random = new Random(42);
    for (int i = 0; i < 3000; i++) {
      StringBuilder b = new StringBuilder();
      boolean ascii = i % 2 == 0; // ASCII ids, short and long, compare by their first eight bytes first
      for (int n = random.nextInt(ascii ? 14 : 6); n > 0; n--) {
        int kind = ascii ? random.nextInt(9) / 8 * 4 : random.nextInt(4);
        b.append(kind == 0 ? (char) ('a' + random.nextInt(3)) : kind == 1 ? (char) (0xE000 + random.nextInt(3))
            : kind == 2 ? "\uD83D\uDE00" : kind == 3 ? "\u00e9" : "\u0000");
      }
      ids.add(b.toString());
    }
    try (FileSpill spill = new FileSpill()) {
      SpillIndex index = new SpillIndex();
      List<FileAction> lines = new ArrayList<>();
      for (String id : ids) {
        FileAction f = add(id, "https://storage/" + lines.size(), false);
        lines.add(f);
        index.add(f, spill.append(f));
      }
      SpilledFiles sorted = index.sorted(spill);
      lines.sort(Comparator.comparing(FileAction::id).thenComparing(FileAction::kind));
      List<String> expected = lines.stream().map(FileAction::url).collect(Collectors.toList());
      List<String> actual = new ArrayList<>();
      for (int i = 0; i < sorted.size(); i++) {
        actual.add(sorted.get(i).url());
      }
      assertThat(actual).isEqualTo(expected);
      assertThat(sorted.bytesFrom(0)).isEqualTo(1234L * ids.size());
      assertThat(sorted.bytesFrom(ids.size() - 1)).isEqualTo(1234L);
    }
  }
}
