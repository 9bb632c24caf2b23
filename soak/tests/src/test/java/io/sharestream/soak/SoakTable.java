package io.sharestream.soak;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * A table the soak keeps changing, with its ground truth kept beside it: the writer applies each random commit
 * (append, UPDATE, DELETE, OPTIMIZE, an added column) to the Delta table and to a model of its rows, and records
 * from the model what a reader must see of that commit — every change row ({@code readChangeFeed}), and the rows of
 * pure appends ({@code skipChangeCommits}). The model is this class's own: it does not read the table back.
 *
 * <p>Rows are {@code id} (unique, never reused) and {@code v}; after the added column, {@code note} too. An event is
 * written {@code version/id/changeType/v}.
 */
final class SoakTable {
  static final DeltaType.StructType SCHEMA = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("v", DeltaType.LONG));

  final String name;
  private final DeltaTableWriter writer;
  private final TreeMap<Long, Long> rows = new TreeMap<>();
  private final List<String> changes = new ArrayList<>();
  private final List<String> appended = new ArrayList<>();
  private final Map<String, Integer> commits = new TreeMap<>();
  private long nextId;
  private boolean noted;

  /** A new table {@code name} under {@code dir}: change data feed and deletion vectors on or off. */
  SoakTable(String name, Path dir, boolean changeDataFeed, boolean deletionVectors) {
    this(name, dir, changeDataFeed, deletionVectors, 0, 1);
  }

  /**
   * As above, version 0 holding {@code rows} rows in files of {@code rowsPerFile} (a {@code CREATE TABLE AS
   * SELECT}), their ids interleaved across the files as a parallel write leaves them.
   */
  SoakTable(String name, Path dir, boolean changeDataFeed, boolean deletionVectors, int rows, int rowsPerFile) {
    this.name = name;
    int files = (rows + rowsPerFile - 1) / rowsPerFile;
    List<Map<String, Object>> batch = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      for (long id = f; id < rows; id += files) {
        batch.add(row(id, id % 1000));
      }
    }
    this.writer = DeltaTableWriter.create(dir.resolve(name), SCHEMA).changeDataFeed(changeDataFeed)
        .deletionVectors(deletionVectors).commit(batch, rowsPerFile);
    added(0, batch);
    nextId = rows;
  }

  private Map<String, Object> row(long id, long v) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("id", id);
    row.put("v", v);
    if (noted) {
      row.put("note", "n" + id);
    }
    return row;
  }

  /** The model after {@code version} added {@code batch}. */
  private void added(long version, List<Map<String, Object>> batch) {
    for (Map<String, Object> row : batch) {
      long id = (Long) row.get("id");
      long v = (Long) row.get("v");
      rows.put(id, v);
      changes.add(event(version, id, "insert", v));
      appended.add(event(version, id, null, v));
    }
  }

  Path dir() {
    return writer.dir();
  }

  /** One random commit; returns its operation. */
  synchronized String step(Random random) {
    int dice = random.nextInt(100);
    String op;
    if (dice < 55 || rows.size() < 20) {
      op = append(random);
    } else if (dice < 70) {
      op = update(random);
    } else if (dice < 85) {
      op = delete(random);
    } else if (dice < 97 || noted) {
      writer.compact();
      op = "OPTIMIZE";
    } else {
      writer.addColumn(DeltaType.field("note", DeltaType.STRING));
      noted = true;
      op = "ADD COLUMN";
    }
    commits.merge(op, 1, Integer::sum);
    System.out.println("commit " + name + " v" + writer.version() + " " + op);
    return op;
  }

  private String append(Random random) {
    int n = 1 + random.nextInt(30);
    List<Map<String, Object>> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(row(nextId++, random.nextInt(1000)));
    }
    added(writer.append(batch, 1 + random.nextInt(10)), batch);
    return "append";
  }

  private String update(Random random) {
    LongPredicate match = someRows(random, 4);
    Map<Long, Long> before = new TreeMap<>();
    rows.forEach((id, v) -> {
      if (match.test(id)) {
        before.put(id, v);
      }
    });
    long version = writer.updateWhere(r -> match.test((Long) r.get("id")), r -> {
      r.put("v", (Long) r.get("v") + 1000);
      return r;
    });
    before.forEach((id, v) -> {
      rows.put(id, v + 1000);
      changes.add(event(version, id, "update_preimage", v));
      changes.add(event(version, id, "update_postimage", v + 1000));
    });
    return "UPDATE";
  }

  private String delete(Random random) {
    LongPredicate match = someRows(random, 8);
    List<Long> gone = new ArrayList<>();
    rows.keySet().forEach(id -> {
      if (match.test(id)) {
        gone.add(id);
      }
    });
    long version = writer.deleteWhere(r -> match.test((Long) r.get("id")));
    for (long id : gone) {
      changes.add(event(version, id, "delete", rows.remove(id)));
    }
    return "DELETE";
  }

  /** About one live row in {@code spread}, from a random stretch of ids: many files, not all. */
  private LongPredicate someRows(Random random, int spread) {
    long from = rows.firstKey() + (long) (random.nextDouble() * (rows.lastKey() - rows.firstKey()) / 2);
    int mod = spread + random.nextInt(spread);
    int rest = random.nextInt(mod);
    return id -> id >= from && id % mod == rest;
  }

  static String event(long version, long id, String changeType, long v) {
    return changeType == null ? id + "/" + v : version + "/" + id + "/" + changeType + "/" + v;
  }

  /** What {@code readChangeFeed} from version 0 must deliver, each once. */
  synchronized List<String> changeFeed() {
    return new ArrayList<>(changes);
  }

  /** What {@code skipChangeCommits} from version 0 must deliver: the rows of appends, written {@code id/v}. */
  synchronized List<String> appends() {
    return new ArrayList<>(appended);
  }

  synchronized long version() {
    return writer.version();
  }

  /** Commits made, by operation. */
  synchronized Map<String, Integer> commits() {
    return new TreeMap<>(commits);
  }
}
