package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.planner.CommitRules.Commit;
import io.sharestream.common.planner.CommitRules.Part;
import io.sharestream.common.planner.CommitRules.Rule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each rule over a spilled commit picks the same files, labelled the same way and in the same order, as over the
 * commit in the heap, and counts the same deleted rows: random commits of adds, removes, re-adds with and without
 * deletion vectors, and change data files.
 */
class SpilledPartsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static FileAction line(String kind, String id, Integer cardinality, Long numRecords) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", id).put("version", 7);
    ObjectNode a = n.putObject("deltaSingleAction").putObject(kind);
    a.put("path", "https://storage/" + kind + "/" + id).put("size", 100 + id.length()).put("dataChange", true);
    if (numRecords != null) {
      a.put("stats", "{\"numRecords\":" + numRecords + "}");
    }
    if (cardinality != null) {
      a.putObject("deletionVector").put("storageType", "i").put("pathOrInlineDv", "dv" + id)
          .put("sizeInBytes", 10).put("cardinality", cardinality);
    }
    return FileAction.fromDeltaJson(n);
  }

  private static List<FileAction> randomCommit(Random r) {
    List<FileAction> out = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String id = Integer.toHexString(r.nextInt(1 << 20));
      Long stats = r.nextInt(8) == 0 ? null : (long) r.nextInt(1000);
      switch (r.nextInt(5)) {
        case 0: // an append
          out.add(line("add", id, null, stats));
          break;
        case 1: // a removed file
          out.add(line("remove", id, r.nextBoolean() ? r.nextInt(5) : null, stats));
          break;
        case 2: // a re-add with a changed deletion vector
          out.add(line("remove", id, r.nextBoolean() ? r.nextInt(5) : null, stats));
          out.add(line("add", id, 5 + r.nextInt(5), stats));
          break;
        case 3: // change data
          out.add(line("cdc", "c" + id, null, null));
          break;
        default: // a rewrite: removed, added under another id
          out.add(line("remove", id, null, stats));
          out.add(line("add", id + "x", null, stats));
      }
    }
    return out;
  }

  private static String describe(FileAction file, FileAction previous, WorkUnit.RowSource source, boolean only) {
    return file.kind() + ":" + file.id() + "/" + source + (only ? "/new" : "") + (previous == null ? ""
        : " after " + previous.kind() + ":" + previous.id() + "/" + previous.deletionVector());
  }

  @Test
  void everyRuleOverASpillMatchesTheRuleInTheHeap() {
    Random random = new Random(7);
    for (int round = 0; round < 40; round++) {
      List<FileAction> actions = randomCommit(random);
      Commit heap = new Commit(7, actions);
      for (Rule rule : Rule.values()) {
        List<String> expected = new ArrayList<>();
        List<Part> parts = new ArrayList<>(CommitRules.parts(heap, rule));
        parts.sort(Comparator.comparing((Part p) -> p.file.id()).thenComparing(p -> p.file.kind()));
        parts.forEach(p -> expected.add(describe(p.file, p.previous, p.source, p.newImagesOnly)));

        try (VersionFiles files = new VersionFiles()) {
          files.spill();
          actions.forEach(files::add);
          SpilledFiles spilled = files.sorted();
          try {
            SpilledParts of = SpilledParts.of(spilled, rule);
            List<String> actual = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < of.size(); i++) {
              FileAction file = spilled.get(of.file(i));
              actual.add(describe(file, of.previous(i) < 0 ? null : spilled.get(of.previous(i)), of.source(i),
                  of.newImagesOnly(i)));
              bytes += file.size();
            }
            assertThat(actual).as("round %d, %s", round, rule).isEqualTo(expected);
            assertThat(of.bytesFrom(0)).isEqualTo(bytes);
            assertThat(SpilledParts.deletedRows(spilled)).as("round %d", round)
                .isEqualTo(CommitRules.deletedRows(heap));
          } finally {
            spilled.close();
          }
        }
      }
    }
  }
}
